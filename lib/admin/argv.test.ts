import { describe, expect, it } from "vitest";
import { parseArgv } from "./argv";
import { single } from "./types";

describe("parseArgv", () => {
  it("reads the command, repeated flags, bare flags and --json", () => {
    const p = parseArgv(["user:create", "--email", "a@b.example", "--role", "billing", "--role=manager", "--password-stdin", "--json"]);
    expect(p).toEqual({
      command: "user:create",
      flags: { email: ["a@b.example"], role: ["billing", "manager"], "password-stdin": ["true"] },
      json: true,
      help: false,
    });
  });
  it("rejects stray arguments and odd options", () => {
    expect(() => parseArgv(["user:create", "oops"])).toThrow(/Unexpected argument/);
    expect(() => parseArgv(["x", "--Bad"])).toThrow(/not a valid option/);
  });
  it("single() insists on exactly one value", () => {
    expect(() => single({}, "email")).toThrow(/--email is required/);
    expect(() => single({ email: ["a", "b"] }, "email")).toThrow(/only once/);
    expect(single({}, "name", false)).toBeUndefined();
  });
});
