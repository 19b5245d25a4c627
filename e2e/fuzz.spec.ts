import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { CLAIM_LIMITS } from "../lib/fhir/nphies/limits";
import { HOSTILE_REDIRECTS } from "./hostile-redirects";
import { adminCli, DEMO, expect, registerOrgClient, signInRequest, test } from "./fixtures";

/**
 * The permanent fuzz suite: at least 1,000 generated requests per public endpoint —
 * paths, query strings, headers and bodies from fast-check — against the production build the
 * browser tests run (Playwright's webServer: `npm start`'s script on E2E_PORT, over real HTTP).
 * Each answer must come within REQUEST_TIMEOUT_MS, never be a 5xx, and — when it is an error —
 * have its endpoint family's shape. The table of answers by status class is printed and written
 * to test-results/fuzz-table.md. FUZZ_RUNS changes the count, FUZZ_SEED replays a run.
 * While each endpoint is fuzzed another user keeps asking GET /api/health (it reads the database):
 * the table's last column is the longest that user waited (docs/decisions/093: one client cannot stall the
 * portal). The worst-case sizes (docs/decisions/093) go to each API that takes a claim: the most
 * lines allowed, one over each limit, the 20,000-line claim of the report and a hostile nesting.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2_147_483_647);
const CONCURRENCY = 6;
const REQUEST_TIMEOUT_MS = 20_000;
const PORT = Number(process.env.E2E_PORT ?? 3210);
const BASE = `http://localhost:${PORT}`;

type Shape = "fhir" | "json-error" | "oauth" | "auth" | "page" | "any";

interface Generated {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

interface Endpoint {
  name: string;
  shape: Shape;
  /** Fewer runs for a non-API extra (server-rendered pages are costly); APIs take RUNS. */
  runs?: number;
  arbitrary: fc.Arbitrary<(creds: Credentials) => Promise<Generated>>;
  /** A rule of the family beyond its shape: a problem with this answer to this request, or undefined. */
  check?: (generated: Generated, response: Response, text: string) => string | undefined;
}

interface Credentials {
  orgJwt: () => Promise<string>;
  gatewayToken: string;
  apiKey: string;
  oauthClientId: string;
  oauthClientSecret: string;
  staffCookie: string;
  /** A server action id of the build (the cross-origin family). */
  actionId: string;
  /** The language switch's action id, read from the sign-in page's form (the multipart family). */
  localeActionId: string;
}

// ---------------------------------------------------------------------------------------------
// Building blocks

/** encodeURIComponent that cannot throw: lone surrogates become U+FFFD first. */
const enc = (s: string) => encodeURIComponent(s.toWellFormed());

const IMPOSSIBLE_DATES = ["2026-02-30", "2026-04-31", "2026-02-29", "2025-13-01", "2026-00-10", "2026-11-21T25:00:00Z", "2026-11-21T10:61:00+03:00", "2026-06-31T00:00:00Z"];
const SEEDED_IDS = ["1000000001", "1000000002", "1048573628", "2087654311", "1122334459"];

const printable = fc.string({ unit: fc.constantFrom(..."abcXYZ019-_.~:/=+ %"), maxLength: 40 });
const nasty = fc.constantFrom("\u0000", "a\u0000b", "\u0007", "\uD800", "\u202E", "x".repeat(5000), "' OR 1=1 --", "../../etc/passwd", "%00", "%zz", "Patient/1000000001", "😀", "");
const text = fc.oneof(printable, nasty, fc.string({ unit: "binary", maxLength: 20 }), fc.constantFrom(...IMPOSSIBLE_DATES, ...SEEDED_IDS));

/** A path segment as sent on the wire (already percent-encoded, or deliberately malformed). */
const segment = fc.oneof(
  fc.uuid().map((u) => u),
  fc.constantFrom("%zz", "%c3%28", "%", "%e0%80", "%ff", "%00", "%2e%2e", "..", "cov-1000000001", "1000000001", "2087654311", "a%20b", "%F0%9F%98%80"),
  fc.string({ unit: fc.constantFrom(..."abcdef0123456789-%zZ."), minLength: 1, maxLength: 50 }),
  fc.string({ unit: "binary", minLength: 1, maxLength: 12 }).map((s) => enc(s)),
);

/** A query string: known and unknown names, nasty values, repeated names, malformed encodings. */
const queryString = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom("limit", "cursor", "status", "patient", "created_gte", "created_lt", "api_key", "x"), printable),
      fc.oneof(text, fc.constantFrom(...IMPOSSIBLE_DATES), fc.integer({ min: -5, max: 500 }).map(String), fc.base64String({ maxLength: 60 })),
    ),
    { maxLength: 4 },
  )
  .chain((pairs) =>
    fc.constantFrom("plain", "raw").map((mode) =>
      pairs.length === 0
        ? ""
        : `?${pairs.map(([k, v]) => (mode === "plain" ? `${enc(k)}=${enc(v)}` : `${k.replace(/[#\s]/g, "")}=${v.replace(/[#\s]/g, "")}`)).join("&")}`,
    ),
  );

/** Header values fetch can send: visible ASCII only. */
const headerValue = fc.oneof(
  fc.string({ unit: fc.constantFrom(..."abcXYZ0189 -_.:/=+,;\"'()<>@"), maxLength: 60 }),
  fc.constantFrom("", "Bearer", "Bearer ", "Basic", "Basic !!!", "Bearer cxg_" + "A".repeat(40), "Bearer eyJhbGciOiJub25lIn0.e30."),
);

const contentType = fc.constantFrom("application/fhir+json", "application/json", "application/json; charset=utf-8", "text/plain", "", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/pdf");

const junkHeaders = fc.record(
  {
    "x-forwarded-for": fc.oneof(fc.ipV4(), fc.ipV6(), headerValue),
    "x-request-id": fc.oneof(fc.uuid(), headerValue),
    cookie: fc.oneof(headerValue, fc.constantFrom("authjs.session-token=junk", "authjs.session-token=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIn0..x.y.z", "authjs.csrf-token=abc%7Cdef")),
    "x-file-name": headerValue,
    accept: fc.constantFrom("*/*", "application/fhir+json", "text/html"),
  },
  { requiredKeys: [] },
);

/** Sets a value at a random path of a copy of a JSON template. */
function mutateAt(template: unknown, pick: number, value: unknown): unknown {
  const copy = structuredClone(template);
  const paths: (string | number)[][] = [];
  const walk = (node: unknown, at: (string | number)[]) => {
    if (Array.isArray(node)) node.forEach((v, i) => (paths.push([...at, i]), walk(v, [...at, i])));
    else if (node && typeof node === "object") Object.entries(node).forEach(([k, v]) => (paths.push([...at, k]), walk(v, [...at, k])));
  };
  walk(copy, []);
  const p = paths[pick % paths.length]!;
  let node = copy as Record<string | number, unknown>;
  for (const key of p.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  if (value === undefined) delete node[p.at(-1)!];
  else node[p.at(-1)!] = value;
  return copy;
}

const mutationValue = fc.oneof(
  fc.constantFrom(...IMPOSSIBLE_DATES),
  text,
  fc.constantFrom(undefined, null, 0, -1, 1e308, 1.5, true, [], {}),
  fc.jsonValue({ maxDepth: 2 }),
);

/** A body: random JSON, a template with one or two mutations, text with NUL, broken UTF-8, deep nesting. */
function bodyFrom(template: () => unknown): fc.Arbitrary<string | Uint8Array> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.tuple(fc.nat(), mutationValue, fc.nat(), mutationValue).map(([a, v, b, w]) => JSON.stringify(mutateAt(mutateAt(template(), a, v), b, w))) },
    { weight: 2, arbitrary: fc.tuple(fc.nat(), fc.constantFrom(...IMPOSSIBLE_DATES)).map(([a, d]) => JSON.stringify(mutateAt(template(), a, d))) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 200 }) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }) },
    { weight: 1, arbitrary: fc.constantFrom("{", "[]", "null", '{"resourceType":"Claim"', "\u0000", '{"a":"\\u0000"}', '{"a":"\\ud800"}', "[".repeat(5000) + "]".repeat(5000), `{"x":"${"a".repeat(100_000)}"}`) },
  );
}

// ---------------------------------------------------------------------------------------------
// Templates (valid resources the mutations start from)

const eligibilityTemplate = () => ({
  resourceType: "CoverageEligibilityRequest",
  status: "active",
  purpose: ["benefits", "validation"],
  patient: { reference: "Patient/1000000001" },
  servicedDate: "2026-11-21",
  created: "2026-11-21T09:00:00Z",
  insurer: { reference: "Organization/payer-rimal" },
  insurance: [{ focal: true, coverage: { reference: "Coverage/cov-1000000001" } }],
});

const claimTemplate = () => ({
  resourceType: "Claim",
  status: "active",
  use: "claim",
  identifier: [{ system: "https://his.example/claims", value: randomUUID() }],
  type: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/claim-type", code: "institutional" }] },
  patient: { reference: "Patient/1000000001" },
  created: "2026-11-21T09:00:00Z",
  priority: { coding: [{ code: "normal" }] },
  insurance: [{ sequence: 1, focal: true, coverage: { reference: "Coverage/cov-1000000001" } }],
  item: [{ sequence: 1, productOrService: { coding: [{ system: "http://www.ama-assn.org/go/cpt", code: "99213" }] }, servicedDate: "2026-11-20", unitPrice: { value: 150, currency: "SAR" } }],
});

const gatewayTemplate = () =>
  ({
    agent: "claim",
    task: "submit",
    data: { claim: claimTemplate() },
  }) as Record<string, unknown>;

const gatewayOther = fc.constantFrom(
  { agent: "record", task: "lookup", data: { nationalId: "1000000001" } },
  { agent: "record", task: "summary", data: { nationalId: "2087654311" } },
  { agent: "claim", task: "status", data: { identifier: "x" } },
  { agent: "notification", task: "list", data: { cursor: "2026-02-30", limit: 5 } },
  { agent: "notification", task: "acknowledge", data: { upTo: "2026-02-30" } },
  { agent: "authorization", task: "status", data: { submissionId: "%zz" } },
);

// ---------------------------------------------------------------------------------------------
// Authentication choices

type AuthChoice = "none" | "junk" | "valid";
const authChoice = fc.constantFrom<AuthChoice>("none", "junk", "valid", "valid", "valid");

async function withAuth(kind: AuthChoice, valid: () => Promise<Record<string, string>> | Record<string, string>, junk: string): Promise<Record<string, string>> {
  if (kind === "valid") return valid();
  if (kind === "junk") return { authorization: junk };
  return {};
}

const exchangeAuth = (c: Credentials, kind: AuthChoice, junk: string) => withAuth(kind, async () => ({ authorization: `Bearer ${await c.orgJwt()}` }), junk);
const gatewayAuth = (c: Credentials, kind: AuthChoice, junk: string) => withAuth(kind, () => ({ authorization: `Bearer ${c.gatewayToken}` }), junk);

/** The worst-case sizes: each a claim (or body) and whether it is over a limit. */
function worstCase(kind: string): { claim: Record<string, unknown>; over: boolean } {
  const line = (i: number) => ({ sequence: i + 1, productOrService: { coding: [{ system: "http://www.ama-assn.org/go/cpt", code: "99213" }] }, servicedDate: "2026-11-20", unitPrice: { value: 150, currency: "SAR" } });
  const lines = (n: number) => Array.from({ length: n }, (_, i) => line(i));
  const base = claimTemplate();
  switch (kind) {
    case "max-lines":
      return { claim: { ...base, item: lines(CLAIM_LIMITS.lines) }, over: false };
    case "lines+1":
      return { claim: { ...base, item: lines(CLAIM_LIMITS.lines + 1) }, over: true };
    case "20000-lines":
      return { claim: { ...base, item: lines(20_000) }, over: true };
    case "diagnoses+1":
      return { claim: { ...base, diagnosis: Array.from({ length: CLAIM_LIMITS.diagnoses + 1 }, (_, i) => ({ sequence: i + 1, diagnosisCodeableConcept: { coding: [{ code: "J06.9" }] } })) }, over: true };
    case "supportingInfo+1":
      return { claim: { ...base, supportingInfo: Array.from({ length: CLAIM_LIMITS.supportingInfo + 1 }, (_, i) => ({ sequence: i + 1, category: { coding: [{ code: "info" }] }, valueString: "x" })) }, over: true };
    case "attachments+1":
      return { claim: { ...base, supportingInfo: Array.from({ length: CLAIM_LIMITS.attachments + 1 }, (_, i) => ({ sequence: i + 1, category: { coding: [{ code: "attachment" }] }, valueAttachment: { contentType: "application/pdf", data: "JVBERi0=" } })) }, over: true };
    default:
      // Nesting: a hostile depth inside an extension (sent as text, see worstCaseRequest).
      return { claim: { ...base, extension: [DEEP_MARK] }, over: true };
  }
}
const DEEP_MARK = "__deep__";
const DEEP_LEVELS = CLAIM_LIMITS.jsonDepth * 40;
const WORST_CASES = ["max-lines", "lines+1", "20000-lines", "diagnoses+1", "supportingInfo+1", "attachments+1", "deep"] as const;

/** An over-limit claim is 413/422 naming the limit; the largest allowed is never refused for its size. */
const limitCheck = (generated: Generated, response: Response, text: string): string | undefined => {
  const over = generated.headers["x-fuzz-over-limit"] === "true";
  // The per-caller guard (several workers share one organization) refuses before reading the body: 429 + Retry-After is fine.
  if (response.status === 429) return response.headers.get("retry-after") ? undefined : "429 without Retry-After";
  const refusedForSize = (response.status === 413 || response.status === 422) && /limit|levels deep/.test(text);
  if (over && !refusedForSize) return `an over-limit claim answered ${response.status}: ${text.slice(0, 160)}`;
  if (!over && refusedForSize) return `the largest claim allowed was refused for its size: ${text.slice(0, 160)}`;
  return undefined;
};

const worstCaseRequest = (path: string, wrap: (claim: Record<string, unknown>) => unknown, auth: (c: Credentials) => Promise<Record<string, string>>) =>
  fc.constantFrom(...WORST_CASES).map((kind) => async (c: Credentials): Promise<Generated> => {
    const { claim, over } = worstCase(kind);
    // A value this deep is past what JSON.stringify's recursion takes: spliced in as text.
    const body = JSON.stringify(wrap(claim)).replace(`"${DEEP_MARK}"`, `${'{"extension":['.repeat(DEEP_LEVELS)}${"]}".repeat(DEEP_LEVELS)}`);
    return { method: "POST", path, headers: { "content-type": "application/fhir+json", "x-fuzz-over-limit": String(over), ...(await auth(c)) }, body };
  });

// ---------------------------------------------------------------------------------------------
// The endpoints

const ENDPOINTS: Endpoint[] = [
  {
    name: "POST /api/exchange/eligibility/check",
    shape: "fhir",
    arbitrary: fc.tuple(authChoice, headerValue, junkHeaders, contentType, bodyFrom(eligibilityTemplate), queryString).map(([auth, junk, extra, type, body, q]) => async (c) => ({
      method: "POST",
      path: `/api/exchange/eligibility/check${q}`,
      headers: { ...extra, "content-type": type, ...(await exchangeAuth(c, auth, junk)) },
      body,
    })),
  },
  {
    name: "GET /api/exchange/coverage/{id}",
    shape: "fhir",
    arbitrary: fc.tuple(authChoice, headerValue, junkHeaders, segment, queryString).map(([auth, junk, extra, id, q]) => async (c) => ({
      method: "GET",
      path: `/api/exchange/coverage/${id}${q}`,
      headers: { ...extra, ...(await exchangeAuth(c, auth, junk)) },
    })),
  },
  {
    name: "POST /api/exchange/claims/submit",
    shape: "fhir",
    arbitrary: fc.tuple(authChoice, headerValue, junkHeaders, contentType, bodyFrom(claimTemplate)).map(([auth, junk, extra, type, body]) => async (c) => ({
      method: "POST",
      path: "/api/exchange/claims/submit",
      headers: { ...extra, "content-type": type, ...(await exchangeAuth(c, auth, junk)) },
      body,
    })),
  },
  {
    name: "GET /api/exchange/claims/{id}/status",
    shape: "fhir",
    arbitrary: fc.tuple(authChoice, headerValue, junkHeaders, segment).map(([auth, junk, extra, id]) => async (c) => ({
      method: "GET",
      path: `/api/exchange/claims/${id}/status`,
      headers: { ...extra, ...(await exchangeAuth(c, auth, junk)) },
    })),
  },
  {
    name: "GET /v1/claims",
    shape: "json-error",
    arbitrary: fc.tuple(fc.constantFrom("none", "junk", "key", "key", "oauth"), headerValue, junkHeaders, queryString, fc.constantFrom(...IMPOSSIBLE_DATES), fc.constantFrom("cursor", "created_gte", "created_lt")).map(
      ([auth, junk, extra, q, date, dateParam]) =>
        async (c) => {
          const headers: Record<string, string> = { ...extra };
          if (auth === "junk") headers["x-api-key"] = junk;
          if (auth === "key") headers["x-api-key"] = c.apiKey;
          if (auth === "oauth") headers.authorization = `Bearer cxt_${"A".repeat(43)}`;
          // A forged cursor that decodes to an impossible timestamp, or an impossible date filter.
          const forged = dateParam === "cursor" ? Buffer.from(`1|${date.slice(0, 10)}T00:00:00.000000Z|${randomUUID()}`).toString("base64url") : date;
          const path = q && !q.includes(dateParam) && q.length % 3 === 0 ? `/v1/claims${q}&${dateParam}=${forged}` : `/v1/claims${q || `?${dateParam}=${forged}`}`;
          return { method: "GET", path, headers };
        },
    ),
  },
  {
    name: "POST /oauth/token",
    shape: "oauth",
    arbitrary: fc
      .tuple(fc.constantFrom("valid", "nul-id", "junk", "basic", "basic-nul", "none"), junkHeaders, queryString, fc.constantFrom("client_credentials", "password", "", "client_credentials\u0000"), fc.oneof(fc.constant(undefined), text), contentType)
      .map(([kind, extra, q, grant, scope, type]) => async (c) => {
        const form = new URLSearchParams();
        form.set("grant_type", grant);
        if (scope !== undefined) form.set("scope", scope);
        const headers: Record<string, string> = { ...extra, "content-type": type === "application/pdf" ? "application/x-www-form-urlencoded" : type };
        const [id, secret] = kind === "valid" ? [c.oauthClientId, c.oauthClientSecret] : kind === "nul-id" ? [`${c.oauthClientId}\u0000`, "x"] : kind === "junk" ? ["cxc_\u0000\u0001", "\uD800"] : [];
        if (id !== undefined) form.set("client_id", id);
        if (secret !== undefined) form.set("client_secret", secret);
        if (kind === "basic") headers.authorization = `Basic ${Buffer.from(`${c.oauthClientId}:${c.oauthClientSecret}`).toString("base64")}`;
        if (kind === "basic-nul") headers.authorization = `Basic ${Buffer.from(`%00${c.oauthClientId}:%zz`).toString("base64")}`;
        return { method: "POST", path: `/oauth/token${q}`, headers, body: q.length % 2 ? form.toString() : `${form.toString()}&${q.slice(1)}` };
      }),
  },
  {
    name: "POST /query",
    shape: "json-error",
    arbitrary: fc
      .tuple(authChoice, headerValue, junkHeaders, contentType, fc.oneof(bodyFrom(gatewayTemplate), gatewayOther.chain((t) => fc.tuple(fc.nat(), mutationValue).map(([a, v]) => JSON.stringify(mutateAt(t, a, v))))))
      .map(([auth, junk, extra, type, body]) => async (c) => ({
        method: "POST",
        path: "/query",
        headers: { ...extra, "content-type": type === "text/plain" ? "application/json" : type, ...(await gatewayAuth(c, auth, junk)) },
        body,
      })),
  },
  {
    name: "GET /fhir/Patient/{id}",
    shape: "fhir",
    arbitrary: fc.tuple(authChoice, headerValue, junkHeaders, segment, queryString).map(([auth, junk, extra, id, q]) => async (c) => ({
      method: "GET",
      path: `/fhir/Patient/${id}${q}`,
      headers: { ...extra, ...(await gatewayAuth(c, auth, junk)) },
    })),
  },
  {
    name: "POST /fhir/Claim",
    shape: "fhir",
    arbitrary: fc.tuple(authChoice, headerValue, junkHeaders, contentType, bodyFrom(claimTemplate)).map(([auth, junk, extra, type, body]) => async (c) => ({
      method: "POST",
      path: "/fhir/Claim",
      headers: { ...extra, "content-type": type, ...(await gatewayAuth(c, auth, junk)) },
      body,
    })),
  },
  {
    name: "POST /api/attachments",
    shape: "json-error",
    arbitrary: fc
      .tuple(fc.constantFrom("none", "staff", "staff"), junkHeaders, headerValue, fc.oneof(fc.uint8Array({ maxLength: 300 }), fc.constantFrom(Buffer.from("%PDF-1.4\n%%EOF"), Buffer.from("%PDF-1.4\n1 0 obj\n"), Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.from([0xff, 0xd8, 0xff]))))
      .map(([auth, extra, name, body]) => async (c) => ({
        method: "POST",
        path: "/api/attachments",
        // From the portal's own pages (the origin rule is the cross-origin family's subject).
        headers: { ...extra, origin: BASE, "x-file-name": name, ...(auth === "staff" ? { cookie: c.staffCookie } : {}) },
        body,
      })),
  },
  {
    name: "GET /api/attachments/{id}",
    shape: "json-error",
    arbitrary: fc.tuple(fc.constantFrom("none", "staff", "staff"), junkHeaders, segment).map(([auth, extra, id]) => async (c) => ({
      method: "GET",
      path: `/api/attachments/${id}`,
      headers: { ...extra, ...(auth === "staff" ? { cookie: c.staffCookie } : {}) },
    })),
  },
  {
    name: "GET|POST /api/auth/*",
    shape: "auth",
    arbitrary: fc
      .tuple(
        fc.constantFrom<"GET" | "POST">("GET", "POST"),
        fc.oneof(segment, fc.constantFrom("session", "csrf", "providers", "signin", "signout", "callback/credentials", "error", "signin/credentials")),
        junkHeaders,
        queryString,
        fc.oneof(fc.constant(""), text),
        // JSON bodies (broken or not) once logged an error line each: they are junk now.
        fc.constantFrom("application/x-www-form-urlencoded", "application/x-www-form-urlencoded", "application/json", "text/plain"),
      )
      .map(([method, seg, extra, q, body, type]) => async () => ({
        method,
        path: `/api/auth/${seg}${q}`,
        headers: { ...extra, ...(method === "POST" ? { "content-type": type, origin: BASE } : {}) },
        body: method !== "POST" ? undefined : type === "application/json" ? (body.length % 2 ? JSON.stringify({ csrfToken: body, email: body, password: "x" }) : `{"email":${JSON.stringify(body)}`) : `csrfToken=${enc(body)}&email=${enc(body)}&password=x`,
      })),
  },
  {
    name: "POST /api/webhooks/platform",
    shape: "json-error",
    arbitrary: fc
      .tuple(junkHeaders, headerValue, fc.oneof(fc.uuid(), headerValue), fc.oneof(fc.integer().map(String), headerValue), bodyFrom(() => ({ type: "claim.status.changed", claim_id: "clm-1", status: "complete", timestamp: "2026-02-30T00:00:00Z" })))
      .map(([extra, sig, id, ts, body]) => async () => ({
        method: "POST",
        path: "/api/webhooks/platform",
        headers: { ...extra, "content-type": "application/json", "webhook-id": id, "webhook-timestamp": ts, "webhook-signature": sig },
        body,
      })),
  },
  {
    name: "cross-origin writes (uploads, server actions, sign-in/out)",
    shape: "any",
    runs: Math.min(RUNS, 600),
    arbitrary: fc
      .tuple(
        fc.constantFrom("/api/attachments", "/eligibility", "/claims/new", "/settings/api-access", "/api/auth/signout", "/api/auth/callback/credentials", "/api/anything"),
        fc.constantFrom("none", "staff", "staff"),
        fc.oneof(fc.constantFrom(undefined, BASE, "https://evil.example", "null", `http://localhost:${PORT + 6000}`, `http://sub.localhost:${PORT}`, `https://localhost:${PORT}`, `http://127.0.0.1:${PORT}`, "file://x"), headerValue),
        fc.constantFrom(undefined, undefined, "same-origin", "same-site", "cross-site", "none", "junk"),
        fc.constantFrom("none", "real", "unknown", "junk"),
        fc.constantFrom("text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=zz", "application/json", "application/pdf"),
        fc.oneof(text, fc.constantFrom('["en"]', "[]", '["$Q9999",{', "--zz\r\nbroken", 'csrfToken=x&email=a%40b.c&password=x', "%PDF-1.4\n%%EOF")),
      )
      .map(([path, auth, origin, fetchSite, action, type, body]) => async (c) => {
        const crossOrigin = !sameOrigin(origin, fetchSite);
        // A real action id only where the rule must refuse it: a same-origin signOutAction would end the suite's session.
        const actionId = action === "real" && crossOrigin ? c.actionId : action === "unknown" ? `7f${"ab".repeat(20)}` : action === "junk" ? "x" : undefined;
        return {
          method: "POST",
          path,
          headers: {
            "content-type": type,
            ...(origin !== undefined ? { origin } : {}),
            ...(fetchSite !== undefined ? { "sec-fetch-site": fetchSite } : {}),
            ...(actionId ? { "next-action": actionId, accept: "text/x-component" } : {}),
            ...(auth === "staff" ? { cookie: c.staffCookie } : {}),
          },
          body,
        };
      }),
    check: (g, response, body) => {
      if (sameOrigin(g.headers.origin, g.headers["sec-fetch-site"])) return undefined;
      if (response.status !== 403 || !/"reason":"cross_origin"/.test(body)) return `a cross-origin write was not refused 403 cross_origin (${response.status}): ${body.slice(0, 120)}`;
      return undefined;
    },
  },
  {
    name: "forwarded headers (scheme, host, client address)",
    shape: "any",
    runs: Math.min(RUNS, 600),
    arbitrary: fc
      .tuple(
        fc.constantFrom("/api/auth/csrf", "/api/auth/session", "/api/auth/signin", "/api/health", "/sign-in", "/eligibility", "/api/attachments/00000000-0000-4000-8000-000000000000"),
        fc.constantFrom("none", "staff"),
        fc.record(
          {
            "x-forwarded-proto": fc.oneof(fc.constantFrom("https", "https, http", "HTTPS", "http", "wss", ""), headerValue),
            "x-forwarded-host": fc.oneof(fc.constantFrom("evil.example", "evil.example:443", `localhost:${PORT}`, "a b", "x".repeat(300), "evil.example/path", "[::1]:1"), headerValue),
            "x-forwarded-port": fc.constantFrom("443", "80", "0", "junk"),
            "x-forwarded-for": fc.oneof(fc.ipV4(), fc.ipV6(), headerValue),
            forwarded: fc.oneof(fc.constantFrom("for=1.2.3.4;proto=https;host=evil.example", 'for="[::1]";proto=https'), headerValue),
            "x-real-ip": fc.ipV4(),
            host: fc.constantFrom(`localhost:${PORT}`),
          },
          { requiredKeys: [] },
        ),
      )
      .map(([path, auth, forwarded]) => async (c) => ({ method: "GET", path, headers: { ...forwarded, ...(auth === "staff" ? { cookie: c.staffCookie } : {}) } })),
    check: (_g, response) => {
      // No trusted proxy in the browser tests: the portal is plain HTTP whatever a client claims.
      const cookies = response.headers.getSetCookie().map((c) => c.split("=")[0]!);
      if (cookies.some((n) => /^__(Host|Secure)-/.test(n))) return `a __Host-/__Secure- cookie over plain HTTP: ${cookies.join(", ")}`;
      if (response.headers.getSetCookie().some((c) => /;\s*secure/i.test(c))) return "a Secure cookie over plain HTTP";
      if (response.headers.has("strict-transport-security")) return "HSTS over plain HTTP";
      const location = response.headers.get("location");
      if (location && /^https?:/i.test(location) && new URL(location).host !== `localhost:${PORT}`) return `redirect to a forwarded host: ${location.slice(0, 120)}`;
      return undefined;
    },
  },
  {
    // A same-origin fetch action's multipart reply (docs/decisions/061): every part the root names
    // must be there as React's decoder reads it. The language switch is the target: a forged body that
    // does decode reaches an action that only reads a form, so the suite's session is not touched.
    name: "same-origin action replies (multipart parts)",
    shape: "any",
    runs: Math.min(RUNS, 300),
    arbitrary: fc
      .tuple(
        fc.array(fc.oneof(fc.constantFrom("$K1", "$Q1", "$W1", "$1", "$1:a", "$1:a:b", "$@1", "$h1", "$i1", "$B1", "$A1", "$R1", "$z1", "$", "$$", "$undefined", "$D2026-02-30", "$n12", `$n${"9".repeat(301)}`, "$nabc", "$T", "en", "ar"), text), { maxLength: 4 }),
        fc.option(fc.oneof(fc.constantFrom('{"a":{"b":1}}', "[]", '["$Q2"]', "{bad", '["$1"]'), text), { nil: undefined }),
        fc.option(fc.constantFrom("ar", "en", "xx", ""), { nil: undefined }),
        fc.boolean(),
      )
      .map(([root, one, locale, fileOne]) => async (c) => {
        const part = (name: string, value: string, file?: string) =>
          `--zz\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${file}"\r\nContent-Type: application/octet-stream` : ""}\r\n\r\n${value}\r\n`;
        const body =
          part("0", JSON.stringify(root)) +
          (one !== undefined ? part("1", one, fileOne ? "one.bin" : undefined) : "") +
          (locale !== undefined ? part("_1_locale", locale) : "") +
          "--zz--\r\n";
        return {
          method: "POST",
          path: "/sign-in",
          headers: { "content-type": "multipart/form-data; boundary=zz", origin: BASE, "sec-fetch-site": "same-origin", "next-action": c.localeActionId, accept: "text/x-component", cookie: c.staffCookie },
          body: body.toWellFormed(),
        };
      }),
  },
  {
    name: "worst-case sizes → POST /api/exchange/claims/submit",
    shape: "fhir",
    runs: Math.min(RUNS, 14),
    arbitrary: worstCaseRequest("/api/exchange/claims/submit", (claim) => claim, async (c) => ({ authorization: `Bearer ${await c.orgJwt()}` })),
    check: limitCheck,
  },
  {
    name: "worst-case sizes → POST /fhir/Claim",
    shape: "fhir",
    runs: Math.min(RUNS, 14),
    arbitrary: worstCaseRequest("/fhir/Claim", (claim) => claim, async (c) => ({ authorization: `Bearer ${c.gatewayToken}` })),
    check: limitCheck,
  },
  {
    name: "worst-case sizes → POST /query",
    shape: "json-error",
    runs: Math.min(RUNS, 14),
    arbitrary: worstCaseRequest("/query", (claim) => ({ agent: "claim", task: "submit", data: { claim } }), async (c) => ({ authorization: `Bearer ${c.gatewayToken}` })),
    check: limitCheck,
  },
  {
    // Hostile redirect targets (docs/decisions/094): the sign-in page's redirect of a
    // signed-in visitor, Auth.js' sign-in endpoint, and the proxy's own sign-in redirect. Wherever
    // a Location points, read as a browser reads it (tabs and newlines dropped, `\` as `/`), it is
    // on the portal.
    name: "hostile redirect targets (callbackUrl)",
    shape: "any",
    runs: Math.min(RUNS, 600),
    arbitrary: fc
      .tuple(
        fc.constantFrom("sign-in", "sign-in", "authjs-signin", "protected-page"),
        fc.constantFrom("none", "staff", "staff"),
        fc.oneof(
          fc.constantFrom(...HOSTILE_REDIRECTS),
          fc.array(fc.constantFrom("/", "//", "\\", "\t", "\n", "\r", " ", ".", "..", "%2f", "%5c", "%2e", "%09", "%0d%0a", "@", ":", "evil.example", "https:", "\u3002", "claims"), { minLength: 1, maxLength: 7 }).map((p) => p.join("")),
        ),
      )
      .map(([where, auth, value]) => async (c) => {
        const cookie: Record<string, string> = auth === "staff" ? { cookie: c.staffCookie } : {};
        if (where === "sign-in") return { method: "GET", path: `/sign-in?callbackUrl=${enc(value)}`, headers: cookie };
        if (where === "authjs-signin") return { method: "GET", path: `/api/auth/signin?callbackUrl=${enc(value)}`, headers: cookie };
        // The proxy sends a visitor without a session to /sign-in with the path as callbackUrl.
        return { method: "GET", path: `/claims/${enc(value)}`, headers: {} };
      }),
    check: (_g, response) => {
      const location = response.headers.get("location");
      if (!location) return undefined;
      const target = new URL(location, `${BASE}/sign-in`);
      if (target.origin !== BASE) return `redirected off the portal: ${JSON.stringify(location).slice(0, 120)}`;
      const back = target.searchParams.get("callbackUrl");
      if (back !== null && new URL(back, `${BASE}/sign-in`).origin !== BASE) return `a callbackUrl off the portal: ${JSON.stringify(back).slice(0, 120)}`;
      return undefined;
    },
  },
  {
    name: "GET /claims/{id} (page)",
    shape: "page",
    runs: Math.min(RUNS, 300),
    arbitrary: fc.tuple(fc.constantFrom("none", "staff", "staff"), junkHeaders, segment, fc.constantFrom("claims", "patients", "authorizations", "eligibility"), queryString).map(([auth, extra, id, area, q]) => async (c) => ({
      method: "GET",
      path: `/${area}/${id}${q}`,
      headers: { ...extra, ...(auth === "staff" ? { cookie: c.staffCookie } : {}) },
    })),
  },
];

// ---------------------------------------------------------------------------------------------
// The checks

/** The origin rule as the suite states it (docs/decisions/060): the portal's own Origin, or only Sec-Fetch-Site same-origin. */
function sameOrigin(origin: string | undefined, fetchSite: string | undefined): boolean {
  if (fetchSite !== undefined && fetchSite !== "same-origin") return false;
  return origin === undefined ? fetchSite === "same-origin" : origin === BASE;
}

function shapeProblem(shape: Shape, response: Response, text: string): string | undefined {
  const status = response.status;
  const type = response.headers.get("content-type") ?? "";
  if (status >= 500) return `5xx: ${text.slice(0, 200)}`;
  if (status < 400) return undefined;
  const parse = () => {
    try {
      return JSON.parse(text) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  };
  switch (shape) {
    case "fhir": {
      const body = parse();
      if (!/^application\/fhir\+json/.test(type) || body?.resourceType !== "OperationOutcome" || !Array.isArray(body.issue) || body.issue.length === 0) return `not an OperationOutcome (${type}): ${text.slice(0, 200)}`;
      return undefined;
    }
    case "json-error": {
      const body = parse();
      if (!/json/.test(type) || typeof body?.error !== "string") return `not {error, …} JSON (${type}): ${text.slice(0, 200)}`;
      return undefined;
    }
    case "oauth": {
      const body = parse();
      if (!/json/.test(type) || typeof body?.error !== "string" || typeof body.error_description !== "string") return `not an RFC 6749 error: ${text.slice(0, 200)}`;
      return undefined;
    }
    case "any":
    case "auth":
      // Auth.js answers its own errors (400 "Bad request." or a JSON object); a plain 500 is the failure looked for above.
      return undefined;
    case "page":
      if (status !== 404 && status !== 403 && status !== 401) return `unexpected ${status}`;
      if (!/text\/html/.test(type)) return `error page is not HTML (${type})`;
      return undefined;
  }
}

async function send(generated: Generated): Promise<Response> {
  return fetch(`${BASE}${generated.path}`, {
    method: generated.method,
    headers: generated.headers,
    body: generated.body instanceof Uint8Array ? Buffer.from(generated.body) : generated.body,
    redirect: "manual",
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
}

async function credentials(): Promise<Credentials> {
  const gateway = adminCli(["gateway-token:create", "--name", `fuzz ${randomUUID().slice(0, 6)}`]) as { token: string };
  const key = adminCli(["api-key:create", "--name", `fuzz ${randomUUID().slice(0, 6)}`, "--env", "sandbox", "--scope", "claims:read"]) as { key: string };
  const oauth = adminCli(["oauth-client:create", "--name", `fuzz ${randomUUID().slice(0, 6)}`, "--scope", "claims:read", "--env", "sandbox"]) as { clientId: string; clientSecret: string };
  const org = await registerOrgClient("Fuzz HIS");

  // A staff session (billing may upload and read attachments and open claims), signed in through Auth.js.
  const ctx = await signInRequest(DEMO.billing);
  const cookies = (await ctx.storageState()).cookies;
  await ctx.dispose();
  const staffCookie = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  expect(staffCookie).toContain("session-token");
  const manifest = JSON.parse(fs.readFileSync(path.join(".next", "server", "server-reference-manifest.json"), "utf8")) as { node: Record<string, unknown> };
  const actionId = Object.keys(manifest.node)[0]!;
  // The language switch is the sign-in page's only form with a server action: its id is in the page.
  const signIn = await (await fetch(`${BASE}/sign-in`)).text();
  const localeActionId = /name="\$ACTION_ID_([0-9a-f]{42})"/.exec(signIn)?.[1];
  expect(localeActionId, "the language switch's action id on /sign-in").toBeDefined();
  return { actionId, localeActionId: localeActionId!, orgJwt: () => org.token(), gatewayToken: gateway.token, apiKey: key.key, oauthClientId: oauth.clientId, oauthClientSecret: oauth.clientSecret, staffCookie };
}

interface Tally {
  name: string;
  requests: number;
  byClass: Record<string, number>;
  problems: string[];
  ms: number;
  /** The longest another user's GET /api/health waited while this endpoint was fuzzed. */
  otherMaxMs: number;
}

/** Another user asking GET /api/health (a database read) one after the other until stopped; its longest wait. */
function otherUser(): { stop: () => Promise<number> } {
  let running = true;
  let longest = 0;
  const loop = (async () => {
    while (running) {
      const started = Date.now();
      try {
        await (await fetch(`${BASE}/api/health`, { signal: AbortSignal.timeout(120_000) })).text();
      } catch {
        // a timeout counts as its full wait below
      }
      longest = Math.max(longest, Date.now() - started);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return longest;
    },
  };
}

test.describe("fuzz: no 5xx, no hang, the family's error shape", () => {
  test.describe.configure({ timeout: 600_000 });
  const tallies: Tally[] = [];
  let creds: Credentials;

  test.beforeAll(async () => {
    // Three admin CLI calls, an organization client and a sign-in: slow on a busy two-core machine.
    test.setTimeout(300_000);
    creds = await credentials();
  });

  test.afterAll(() => {
    const lines = [
      `Fuzz suite — seed ${SEED}, ${RUNS} generated requests per API endpoint (pages ${Math.min(RUNS, 300)}), ${CONCURRENCY} in flight, time limit ${REQUEST_TIMEOUT_MS / 1000} s each`,
      "",
      "| endpoint | requests | 2xx | 3xx | 4xx | 5xx | no answer | shape problems | seconds | longest other wait (ms) |",
      "|---|---|---|---|---|---|---|---|---|---|",
      ...tallies.map((t) => `| ${t.name} | ${t.requests} | ${t.byClass["2xx"] ?? 0} | ${t.byClass["3xx"] ?? 0} | ${t.byClass["4xx"] ?? 0} | ${t.byClass["5xx"] ?? 0} | ${t.byClass.timeout ?? 0} | ${t.problems.length} | ${(t.ms / 1000).toFixed(1)} | ${t.otherMaxMs} |`),
      `| **total** | ${tallies.reduce((n, t) => n + t.requests, 0)} | | | | ${tallies.reduce((n, t) => n + (t.byClass["5xx"] ?? 0), 0)} | ${tallies.reduce((n, t) => n + (t.byClass.timeout ?? 0), 0)} | ${tallies.reduce((n, t) => n + t.problems.length, 0)} | ${(tallies.reduce((n, t) => n + t.ms, 0) / 1000).toFixed(1)} | ${Math.max(0, ...tallies.map((t) => t.otherMaxMs))} |`,
    ];
    fs.mkdirSync("test-results", { recursive: true });
    fs.writeFileSync(path.join("test-results", "fuzz-table.md"), `${lines.join("\n")}\n`);
    console.log(lines.join("\n"));
  });

  for (const endpoint of ENDPOINTS) {
    test(endpoint.name, async () => {
      const started = Date.now();
      const runs = endpoint.runs ?? RUNS;
      const makers = fc.sample(endpoint.arbitrary, { numRuns: runs, seed: SEED + ENDPOINTS.indexOf(endpoint) });
      const tally: Tally = { name: endpoint.name, requests: 0, byClass: {}, problems: [], ms: 0, otherMaxMs: 0 };
      const other = otherUser();
      let next = 0;
      const worker = async () => {
        while (next < makers.length) {
          const i = next++;
          const generated = await makers[i]!(creds);
          const label = `#${i} ${generated.method} ${generated.path.slice(0, 120)}`;
          tally.requests++;
          try {
            const response = await send(generated);
            const cls = `${Math.floor(response.status / 100)}xx`;
            tally.byClass[cls] = (tally.byClass[cls] ?? 0) + 1;
            const text = await response.text();
            const problem = shapeProblem(endpoint.shape, response, text) ?? endpoint.check?.(generated, response, text);
            if (problem) tally.problems.push(`${label} → ${response.status}: ${problem}`);
          } catch (error) {
            const timedOut = (error as Error).name === "TimeoutError" || (error as Error).name === "AbortError";
            tally.byClass[timedOut ? "timeout" : "error"] = (tally.byClass[timedOut ? "timeout" : "error"] ?? 0) + 1;
            tally.problems.push(`${label} → ${timedOut ? `no answer within ${REQUEST_TIMEOUT_MS / 1000} s` : (error as Error).message}`);
          }
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      tally.otherMaxMs = await other.stop();
      tally.ms = Date.now() - started;
      tallies.push(tally);
      expect(tally.requests).toBe(runs);
      expect(tally.problems.slice(0, 10), `seed ${SEED}: ${tally.problems.length} problems`).toEqual([]);
      expect(tally.byClass["5xx"] ?? 0).toBe(0);
    });
  }
});
