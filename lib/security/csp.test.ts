import { describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "./csp";

describe("contentSecurityPolicy", () => {
  it("has no unsafe-eval in production and forbids framing", () => {
    const csp = contentSecurityPolicy("abc", false);
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
  });
  it("allows eval only for development", () => {
    expect(contentSecurityPolicy("abc", true)).toContain("'unsafe-eval'");
  });
});
