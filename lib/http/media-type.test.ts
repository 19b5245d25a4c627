import { describe, expect, it } from "vitest";
import { parseMediaType } from "./media-type";

describe("parseMediaType", () => {
  it("reads type, subtype and parameters (quoted or not)", () => {
    const m = parseMediaType('Application/FHIR+JSON; Charset="UTF-8"; fhirVersion=4.0');
    expect(m?.type).toBe("application/fhir+json");
    expect(Object.fromEntries(m!.params)).toEqual({ charset: "UTF-8", fhirversion: "4.0" });
    expect(parseMediaType("application/json;")?.params.size).toBe(0);
    expect(parseMediaType('a/b; x="semi;colon"')?.params.get("x")).toBe("semi;colon");
  });

  it("refuses what is not a media type", () => {
    for (const bad of ["", "json", "application/json/x", "application/json; charset", "application/json; a=b c", 'a/b; x="open', "a/b; x=1; x=2", "text /plain"]) {
      expect(parseMediaType(bad), bad).toBeUndefined();
    }
  });
});
