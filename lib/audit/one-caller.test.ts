import { describe, expect, it } from "vitest";
import { codeFiles, readSource } from "@/lib/testing/source-files";

/*
 * One Caller type (lib/audit, docs/decisions/063): services take `Caller`; no module declares its
 * own shape of "who acts". Two names stay on purpose: StaffCaller (lib/auth) is Caller with the
 * signed-in user's fields required, and ApiCaller (lib/claims-api) is an API credential, not an
 * audit caller.
 */
const DECLARATION = /\b(?:interface|type)\s+(\w*Caller\w*)\b(?!\s*[,}])/g;
const ALLOWED = new Set(["lib/audit/index.ts:Caller", "lib/auth/staff-action.ts:StaffCaller", "lib/claims-api/auth.ts:ApiCaller"]);

describe("one Caller type", () => {
  it("no module declares a caller type of its own", () => {
    const declared = codeFiles(["lib", "app", "components"])
      .flatMap((path) => [...readSource(path).replace(/import[^;]*;/g, "").matchAll(DECLARATION)].map((m) => `${path}:${m[1]}`))
      .filter((d) => !ALLOWED.has(d));
    expect(declared).toEqual([]);
  });
});
