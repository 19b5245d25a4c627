import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * One edge for every path (docs/decisions/094): proxy.ts's matcher leaves out only what Next.js
 * serves as files — by their real prefix, never by how a path ends. Before, every path ending in
 * .png/.svg/.ico/.woff/.woff2 skipped the origin rule, the action checks, the audit and the CSP,
 * and `POST /patients/x.png` with an action id ran the action.
 */
const ROOT = path.join(__dirname, "..", "..");
const source = fs.readFileSync(path.join(ROOT, "proxy.ts"), "utf8");
const matchers = [...(/matcher:\s*\[([^\]]*)\]/.exec(source)?.[1] ?? "").matchAll(/"([^"]+)"/g)].map((m) => m[1]!.replace(/\\\\/g, "\\"));
// Next.js compiles a matcher of this form (one regex group) to exactly this pattern.
const runsProxy = (pathname: string) => matchers.some((m) => new RegExp(`^${m}$`).test(pathname));

describe("the proxy's matcher", () => {
  it("is the one static prefix", () => {
    expect(matchers).toEqual(["/((?!_next/static/).*)"]);
  });

  it("runs for every path whatever its ending, and skips only the build's static files", () => {
    for (const p of ["/patients/x.png", "/patients/x.svg", "/favicon.ico", "/claims/a.woff", "/claims/a.woff2", "/x.js", "/_next/image", "/_next/staticx", "/_next/static", "/api/attachments/x.png", "/"]) {
      expect(runsProxy(p), p).toBe(true);
    }
    for (const p of ["/_next/static/chunks/app.js", "/_next/static/media/font.woff2", "/_next/static/css/a.css"]) expect(runsProxy(p), p).toBe(false);
  });

  it("lets a visitor without a session read each app icon by its exact path (and nothing else by its ending)", () => {
    const icons = fs.readdirSync(path.join(ROOT, "app")).filter((f) => /^(favicon\.ico|icon\.\w+|apple-icon\.\w+)$/.test(f));
    expect(icons.length).toBeGreaterThan(0);
    const listed = /APP_ICONS = new Set\(\[([^\]]*)\]\)/.exec(source)?.[1] ?? "";
    for (const icon of icons) expect(listed, icon).toContain(`"/${icon}"`);
  });

  it("has no public/ folder to serve (add its real paths to the matcher, not an extension, if one appears)", () => {
    const dir = path.join(ROOT, "public");
    const files = fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map(String) : [];
    expect(files.filter((f) => runsProxy(`/${f}`))).toEqual([]);
  });
});
