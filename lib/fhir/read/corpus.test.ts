import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FhirReadError, readBundle, readClaimResponse, readCoverageEligibilityResponse, readOperationOutcome } from "./index";

/**
 * The conformance corpus (corpus/*.json): answers written for this project from the R4
 * specification, one per variation a real platform may send, each with the view it must give.
 */
const READERS: Record<string, (json: unknown) => { view: unknown; raw: unknown }> = {
  ClaimResponse: readClaimResponse,
  CoverageEligibilityResponse: readCoverageEligibilityResponse,
  OperationOutcome: readOperationOutcome,
  Bundle: readBundle,
};

const dir = path.join(__dirname, "corpus");
const files = fs.readdirSync(dir).filter((f) => f.endsWith(".json") && f !== "invalid.json");

interface Example {
  description: string;
  reader: string;
  resource: unknown;
  expected: Record<string, unknown>;
}

describe("conformance corpus: valid answers", () => {
  it("has an example for every answer type", () => {
    const readers = new Set(files.map((f) => (JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as Example).reader));
    expect([...readers].sort()).toEqual(Object.keys(READERS).sort());
  });

  for (const file of files) {
    const example = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as Example;
    it(`${file}: ${example.description}`, () => {
      const read = READERS[example.reader]!;
      const input = structuredClone(example.resource);
      const result = read(input);
      // raw is the resource exactly as received, and reading never changes the input.
      expect(result.raw).toBe(input);
      expect(input).toEqual(example.resource);
      expect(result.view).toMatchObject(example.expected);
      // The view is plain data: it survives JSON storage unchanged.
      expect(JSON.parse(JSON.stringify(result.view))).toEqual(result.view);
    });
  }
});

describe("conformance corpus: invalid answers", () => {
  const invalid = JSON.parse(fs.readFileSync(path.join(dir, "invalid.json"), "utf8")) as {
    base: Record<string, unknown>;
    cases: { name: string; reader: string; path: string; patch?: Record<string, unknown>; remove?: string; replace?: unknown }[];
  };
  for (const c of invalid.cases) {
    it(`refuses: ${c.name} (${c.path})`, () => {
      let input: unknown;
      if (c.replace !== undefined) input = c.replace;
      else {
        const resource: Record<string, unknown> = { ...structuredClone(invalid.base), ...(c.patch ?? {}) };
        if (c.remove) delete resource[c.remove];
        input = resource;
      }
      let thrown: unknown;
      try {
        READERS[c.reader]!(input);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(FhirReadError);
      expect((thrown as FhirReadError).path).toBe(c.path);
      expect((thrown as FhirReadError).reason.length).toBeGreaterThan(5);
    });
  }
});
