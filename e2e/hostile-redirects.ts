/* Shared by the edge spec (where Chromium lands) and the fuzz suite (docs/decisions/094). */

/** Hostile `callbackUrl` values that pass a URL parser (each was, or could have been, followed off-site). */
export const HOSTILE_REDIRECTS = [
  "/\t/evil.example",
  "/.//evil.example",
  "/\\evil.example",
  "/\\/evil.example",
  "//evil.example",
  "///evil.example",
  "/\n/evil.example",
  "/\r\n/evil.example",
  "/claims\r\nSet-Cookie: x=1",
  "/ /evil.example",
  "/%09/evil.example",
  "/%2F/evil.example",
  "/%2f%2fevil.example",
  "/%5Cevil.example",
  "/..//evil.example",
  "/claims/..//evil.example",
  "/./\t/evil.example",
  "https://evil.example/",
  "http:evil.example",
  "/\u3002evil.example",
  "\t//evil.example",
  " /\\evil.example",
];
