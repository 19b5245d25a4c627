import { describe, expect, it } from "vitest";
import { safeCallbackPath, signInSchema } from "./schemas";

describe("signInSchema", () => {
  it("names the field and the problem", () => {
    const r = signInSchema.safeParse({ email: "nope", password: "" });
    expect(r.success).toBe(false);
    const issues = r.error!.issues.map((i) => `${i.path.join(".")}:${i.message}`);
    expect(issues).toEqual(["email:emailInvalid", "password:passwordRequired"]);
  });
  it("trims the email", () => {
    expect(signInSchema.parse({ email: " a@b.example ", password: "x" }).email).toBe("a@b.example");
  });
});

describe("safeCallbackPath", () => {
  it.each([
    ["/claims?status=failed", "/claims?status=failed"],
    ["https://evil.example/", undefined],
    ["//evil.example", undefined],
    ["/\\evil.example", undefined],
    ["/sign-in", undefined],
    ["/api/auth/signout", undefined],
    ["/api", undefined],
    ["/sign-in?callbackUrl=/x", undefined],
    ["/sign-ins-report", "/sign-ins-report"],
    ["/apiary", "/apiary"],
    // The probe's finds (docs/decisions/094): a browser reads each as //evil.example.
    ["/\t/evil.example", undefined],
    ["/.//evil.example", undefined],
    ["/claims\r\nx: y", undefined],
    [undefined, undefined],
  ])("%s -> %s", (input, expected) => {
    expect(safeCallbackPath(input)).toBe(expected);
  });
});
