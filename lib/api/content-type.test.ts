import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { checkJsonContentType, MEDIA_TYPE_PARAMS_MAX_CHARS } from "./body";

const reasonOf = (header: string | null) => {
  try {
    checkJsonContentType(header);
    return "ok";
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(415);
    return (error as AppError).reason;
  }
};

describe("the Content-Type rule of every JSON endpoint", () => {
  it("accepts JSON and FHIR JSON, UTF-8 or unspecified, with short parameters", () => {
    for (const ok of ["application/json", "application/fhir+json", "application/json; charset=utf-8", 'Application/FHIR+JSON; charset="UTF-8"; fhirVersion=4.0']) expect(reasonOf(ok), ok).toBe("ok");
  });

  it("refuses a missing, empty or other type, another charset and overlong parameters", () => {
    expect(reasonOf(null)).toBe("content_type");
    expect(reasonOf("")).toBe("content_type");
    expect(reasonOf("text/plain")).toBe("content_type");
    expect(reasonOf("application/jsonx")).toBe("content_type");
    expect(reasonOf("application/json/x")).toBe("content_type");
    expect(reasonOf("application/json; charset=utf-16")).toBe("charset");
    expect(reasonOf("application/fhir+json; charset=iso-8859-1")).toBe("charset");
    expect(reasonOf(`application/json; x=${"a".repeat(MEDIA_TYPE_PARAMS_MAX_CHARS)}`)).toBe("content_type_parameters");
    expect(reasonOf(`application/json; x=${"a".repeat(5000)}`)).toBe("content_type_parameters");
  });
});
