/**
 * The one rule for every redirect target the portal takes from a request (docs/decisions/094):
 * `callbackUrl` after sign-in, Auth.js' own `callbackUrl`/`redirectTo`, the sign-in page's
 * redirect of a signed-in visitor. Only a same-origin path in its plain, normalised form passes;
 * anything a browser might read differently from us is refused, and the caller falls back to a
 * safe default. Browsers strip tabs and newlines from URLs and read `\` as `/`, so `/\t/evil`,
 * `/\evil` and `/.//evil` all become `//evil` — another host — in the browser's hands.
 *
 * Refused: not a string; empty or over 2,000 characters; not starting with one `/`; any control
 * character, space, backslash or non-ASCII character (raw); a percent-encoded control character
 * anywhere; in the path, an encoded `/`, `\`, `.` or `%`, a malformed `%`, an empty segment (`//`)
 * or a dot segment (`/./`, `/../`); and any value the WHATWG URL parser would change (resolve,
 * re-encode) or read as another origin.
 */

const MAX_LENGTH = 2000;
/** A host name no request can carry: the parser's base for a path-only value. */
const PROBE = "http://portal.invalid";

/** The value as a safe same-origin path (unchanged), or undefined. */
export function safeRedirectPath(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_LENGTH) return undefined;
  if (value[0] !== "/" || value[1] === "/" || value[1] === "\\") return undefined;
  // Printable ASCII only, no space and no backslash.
  if (!/^[\x21-\x5b\x5d-\x7e]+$/.test(value)) return undefined;
  // An encoded control character, wherever it is.
  if (/%(?:[01][0-9a-f]|7f)/i.test(value)) return undefined;
  const cut = value.search(/[?#]/);
  const path = cut === -1 ? value : value.slice(0, cut);
  // In the path: encoded separators, dots and percents, malformed escapes, empty and dot segments.
  if (/%(?:2f|5c|2e|25)/i.test(path) || /%(?![0-9a-f]{2})/i.test(path)) return undefined;
  const segments = path.split("/").slice(1);
  if (segments.some((s, i) => s === "." || s === ".." || (s === "" && i < segments.length - 1))) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(value, PROBE);
  } catch {
    return undefined;
  }
  if (parsed.origin !== PROBE) return undefined;
  if (`${parsed.pathname}${parsed.search}${parsed.hash}` !== value) return undefined;
  return value;
}

/**
 * Auth.js' redirect callback under the same rule: an absolute URL must begin with the portal's
 * own origin (`baseUrl`, as text) and the rest must pass as a path; otherwise the portal's home.
 */
export function safeRedirectUrl(url: string, baseUrl: string): string {
  let origin: string;
  try {
    origin = new URL(baseUrl).origin;
  } catch {
    return "/";
  }
  let path: string | undefined = url;
  if (typeof url === "string" && !url.startsWith("/")) path = url.startsWith(origin) ? url.slice(origin.length) || "/" : undefined;
  const safe = safeRedirectPath(path);
  return `${origin}${safe ?? "/"}`;
}
