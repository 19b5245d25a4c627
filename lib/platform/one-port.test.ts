import { describe, expect, it } from "vitest";
import { codeFiles, readSource } from "@/lib/testing/source-files";
import { claimIdFromLocation } from "./port";

/**
 * One platform port type (docs/decisions/034): `PlatformPort` in port.ts is what every caller
 * is written against; the port names no implementation; helpers of the port exist once.
 */
describe("one platform port", () => {
  const sources = codeFiles(["lib", "app", "components", "sandbox", "scripts"]).map((path) => ({ path, text: readSource(path) }));

  it("the port imports nothing of its implementations", () => {
    const imports = [...readSource("lib/platform/port.ts").matchAll(/from "([^"]+)"/g)].map((m) => m[1]);
    expect(imports.filter((from) => from === "./client" || from?.startsWith("./messaging") || from === "./transport")).toEqual([]);
  });

  it("no second port type: only lib/platform declares the calls a port makes", () => {
    const declaring = sources.filter(({ path, text }) => !path.startsWith("lib/platform/") && /^\s+submitClaim\??\(claim/m.test(text) && /interface \w+/.test(text));
    expect(declaring.map((s) => s.path)).toEqual([]);
  });

  it("claimIdFromLocation is written once", () => {
    const writers = sources.filter(({ text }) => /function claimIdFromLocation\(/.test(text)).map((s) => s.path);
    expect(writers).toEqual(["lib/platform/port.ts"]);
  });

  it("reads the platform id from the locations both protocols give", () => {
    expect(claimIdFromLocation("Claim/abc-1")).toBe("abc-1");
    expect(claimIdFromLocation("https://platform.example/fhir/Claim/abc-1/_history/2")).toBe("abc-1");
    expect(claimIdFromLocation("Claim/abc-1/")).toBe("abc-1");
    expect(claimIdFromLocation("Patient/abc-1")).toBeUndefined();
    expect(claimIdFromLocation(undefined)).toBeUndefined();
  });
});
