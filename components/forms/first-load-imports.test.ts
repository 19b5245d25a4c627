import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * What the big forms load after their first load (decision 108, amended 2026-11-29): each of these
 * parts is reached only through a dynamic import (lazySection, React.lazy). One static import puts
 * the part — and what it imports — back into the page's first-load JavaScript, over 170 kB in gzip;
 * `node --import tsx scripts/first-load-js.ts` after a build gives the figures.
 */

/** The module paths a source file imports statically (`import … from "x"`, not `import type`). */
function staticImports(file: string): string[] {
  const source = fs.readFileSync(path.resolve(__dirname, "..", "..", file), "utf8");
  return [...source.matchAll(/^import\s+(?!type\s)[^;]*?from\s+"([^"]+)";/gms)].map((m) => m[1]!);
}

const AFTER_FIRST_LOAD: Record<string, string[]> = {
  "components/authorizations/submission-form.tsx": [
    "@/components/coding/patient-coverage-picker",
    "./care-setting-fields",
    "@/components/coding/code-multi-picker",
    "@/components/coding/items-editor",
    "@/components/attachments/attachment-uploader",
  ],
  "components/eligibility/eligibility-form.tsx": ["./patient-picker", "./eligibility-result", "./eligibility-answer", "@/components/print/print-button"],
  "components/prescriptions/prescription-form.tsx": ["@/components/coding/code-combobox"],
  "app/(portal)/claims/new/page.tsx": ["@/components/live/submission-live-refresh", "@/components/deadlines/deadline-badge"],
};

describe("first-load JavaScript of the forms", () => {
  for (const [file, parts] of Object.entries(AFTER_FIRST_LOAD)) {
    it(`${file} imports ${parts.length} part(s) only dynamically`, () => {
      const imports = staticImports(file);
      expect(imports.length).toBeGreaterThan(3); // the reader found the file's imports
      for (const part of parts) expect(imports, part).not.toContain(part);
    });
  }

  it("reads a type-only import as not loading the module, and a value import as loading it", () => {
    const imports = staticImports("components/authorizations/submission-form.tsx");
    expect(imports).toContain("@/components/forms/lazy-section");
    expect(fs.readFileSync(path.resolve(__dirname, "..", "..", "components/authorizations/submission-form.tsx"), "utf8")).toContain('import type { UploadedAttachment } from "@/components/attachments/attachment-uploader";');
  });
});
