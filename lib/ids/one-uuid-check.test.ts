import { describe, expect, it } from "vitest";
import { codeFiles, readSource } from "@/lib/testing/source-files";

/*
 * One UUID check (isUuid, lib/ids): no module writes its own UUID pattern (docs/decisions/063).
 * lib/fhir keeps the FHIR `urn:uuid:` grammar of its reader (the sandbox shares only lib/fhir).
 */
const UUID_PATTERN = /\[0-9a-fA-F-?\]\{(8|36)\}|\[0-9a-f-?\]\{(8|36)\}|\\h\{8\}/;

describe("one UUID check", () => {
  it("no code outside lib/ids (and lib/fhir's urn:uuid grammar) has a UUID pattern of its own", () => {
    const copies = codeFiles(["lib", "app", "components"])
      .filter((p) => !p.startsWith("lib/ids/") && !p.startsWith("lib/fhir/"))
      .filter((p) => UUID_PATTERN.test(readSource(p)));
    expect(copies).toEqual([]);
  });

  it("sees the copies it looks for (the check itself)", () => {
    expect(UUID_PATTERN.test("/^[0-9a-f-]{36}$/i")).toBe(true);
    expect(UUID_PATTERN.test("/^[0-9a-f]{8}-[0-9a-f]{4}/")).toBe(true);
    expect(UUID_PATTERN.test("isUuid(id)")).toBe(false);
  });
});
