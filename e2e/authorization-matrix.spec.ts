import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import { BASE_URL, ROLES, createPatient, createUser, expect, signInRequest, submitClaim, test, type Role } from "./fixtures";

/*
 * Who may reach what, for every page and every session-authenticated route of the portal, as each
 * role and signed out. The expectations are written here, independently of lib/auth/roles.ts, so a
 * change of policy must change this table too. Server actions have their own matrix
 * (lib/auth/action-matrix.test.ts); the machine APIs authenticate clients, not staff, and are
 * covered by their own suites. The last test fails when a page or route exists that this table
 * does not list.
 */

type Who = Role | "anonymous";
const EVERYONE: readonly Who[] = ["anonymous", ...ROLES];

interface Entry {
  /** The route as in app/ (for the completeness check), e.g. /claims/[id]. */
  route: string;
  /** What to request (ids filled in). */
  url: (ids: Ids) => string;
  method?: "GET" | "POST";
  /** Roles that get in; everyone else signed in gets 403, signed out the sign-in page (outside /api) or 401 (/api). */
  allowed: readonly Role[];
  /** What an allowed role gets: 200 by default; 404 for an id that does not exist; 400/415 for a POST without a body. */
  allowedStatus?: number;
}

interface Ids {
  patient: string;
  claim: string;
}

const FRONT = ["front_desk"] as const;
const BILLING = ["billing"] as const;
const MANAGER = ["manager"] as const;
const ADMIN = ["admin"] as const;
const AUTHORIZATIONS = ["front_desk", "billing"] as const;
const VISITS = ["front_desk", "manager"] as const;
const PRESCRIBER = ["prescriber"] as const;

const page = (route: string, allowed: readonly Role[], url?: Entry["url"], allowedStatus?: number): Entry => ({ route, url: url ?? (() => route), allowed, allowedStatus });

const MATRIX: Entry[] = [
  page("/patients", FRONT),
  page("/patients/new", FRONT),
  page("/patients/[id]", FRONT, (ids) => `/patients/${ids.patient}`),
  page("/patients/[id]/edit", FRONT, (ids) => `/patients/${ids.patient}/edit`),
  page("/eligibility", FRONT),
  page("/eligibility/[id]", FRONT, () => `/eligibility/${randomUUID()}`, 404),
  page("/authorizations", AUTHORIZATIONS),
  page("/authorizations/new", AUTHORIZATIONS),
  page("/authorizations/[id]", AUTHORIZATIONS, () => `/authorizations/${randomUUID()}`, 404),
  page("/prescriptions", PRESCRIBER),
  page("/prescriptions/new", PRESCRIBER),
  page("/prescriptions/[id]", PRESCRIBER, () => `/prescriptions/${randomUUID()}`, 404),
  page("/prescriptions/[id]/appeal", PRESCRIBER, () => `/prescriptions/${randomUUID()}/appeal`, 404),
  page("/prescriptions/[id]/evidence", PRESCRIBER, () => `/prescriptions/${randomUUID()}/evidence`, 404),
  page("/claims", BILLING),
  page("/claims/new", BILLING),
  page("/claims/[id]", BILLING, (ids) => `/claims/${ids.claim}`),
  page("/claims/reconcile", BILLING),
  page("/claims/work-queue", BILLING),
  page("/claims/[id]/appeal", BILLING, () => `/claims/${randomUUID()}/appeal`, 404),
  // Decision 115: information sent to the payer unasked (a claim: billing; an authorization: front desk and billing)
  page("/claims/[id]/evidence", BILLING, () => `/claims/${randomUUID()}/evidence`, 404),
  page("/authorizations/[id]/evidence", AUTHORIZATIONS, () => `/authorizations/${randomUUID()}/evidence`, 404),
  { route: "/claims/work-queue/export", url: () => "/claims/work-queue/export", allowed: BILLING },
  page("/visits", VISITS),
  page("/visits/new", VISITS),
  page("/visits/lists/[id]", VISITS, () => `/visits/lists/${randomUUID()}`, 404),
  page("/information-requests", AUTHORIZATIONS),
  page("/payments", BILLING),
  // "Received, not matched" (docs/decisions/096): billing's
  page("/inbox", BILLING),
  page("/payments/[id]", BILLING, () => `/payments/${randomUUID()}`, 404),
  page("/dashboard", MANAGER),
  page("/dashboard/live", MANAGER),
  page("/settings", ADMIN),
  page("/settings/api-access", ADMIN),
  page("/settings/gateway-tokens", ADMIN),
  page("/settings/organization-keys", ADMIN),
  page("/settings/system-status", ADMIN),
  page("/settings/insurers", ADMIN),
  page("/settings/terminology", ADMIN),
  page("/settings/users", ADMIN),
  page("/settings/users/[id]", ADMIN, () => `/settings/users/${randomUUID()}`, 404),
  page("/account/password", ROLES),
  page("/audit", ADMIN),
  { route: "/dashboard/export", url: () => "/dashboard/export?table=insurers", allowed: MANAGER },
  { route: "/api/attachments/[id]", url: () => `/api/attachments/${randomUUID()}`, allowed: ["front_desk", "billing", "manager"], allowedStatus: 404 },
  { route: "/api/attachments", url: () => "/api/attachments", method: "POST", allowed: ["front_desk", "billing"], allowedStatus: 415 },
  { route: "/api/system-status", url: () => "/api/system-status", allowed: ADMIN },
  // Code catalogue import (docs/decisions/086): administrators; an empty request names no format (400).
  { route: "/api/terminology/import", url: () => "/api/terminology/import", method: "POST", allowed: ADMIN, allowedStatus: 400 },
];

/** Pages and routes that are not for signed-in staff, with the reason (checked for completeness only). */
const NOT_STAFF = new Set([
  "/", // redirects each role to its first area (foundation.spec.ts)
  "/sign-in",
  "/change-password", // a signed-in user whose password must change (users.spec.ts); anyone else is sent home
  "/api/auth/[...nextauth]", // Auth.js
  "/api/events", // any signed-in user; filtered per role inside the stream (dashboard.spec.ts)
  "/api/waiting-work", // any signed-in user: the menu's counts for their own roles (accessibility.spec.ts, information-requests.spec.ts)
  "/api/health",
  "/api/ready",
  "/api/metrics", // metrics token (operations.spec.ts)
  "/api/webhooks/platform", // the platform's signed webhooks
  "/api/[...path]", // unknown API paths: 404 in the API's style
]);
const MACHINE_API_PREFIXES = ["/api/exchange", "/v1", "/oauth", "/query", "/fhir", "/mcp"];

function appRoutes(): string[] {
  const found: string[] = [];
  const walk = (dir: string, route: string[]) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        // Route groups such as (portal) do not appear in the URL.
        walk(path.join(dir, entry.name), /^\(.*\)$/.test(entry.name) ? route : [...route, entry.name]);
      } else if (/^(page|route)\.tsx?$/.test(entry.name)) {
        found.push(`/${route.join("/")}`);
      }
    }
  };
  walk(path.join(process.cwd(), "app"), []);
  return found;
}

/** Status of one request, read from its headers (event streams are cut off at once), never following redirects. */
async function statusOf(entry: Entry, cookie: string | undefined, ids: Ids): Promise<{ status: number; location: string }> {
  const controller = new AbortController();
  const res = await fetch(`${BASE_URL}${entry.url(ids)}`, {
    method: entry.method ?? "GET",
    redirect: "manual",
    // A browser's own POST carries the portal's Origin (cross-origin writes: the block below).
    headers: { ...(cookie ? { cookie } : {}), ...(entry.method === "POST" ? { origin: BASE_URL } : {}) },
    signal: controller.signal,
  });
  const result = { status: res.status, location: res.headers.get("location") ?? "" };
  controller.abort();
  return result;
}

test.describe("authorization matrix", () => {
  const cookies = new Map<Who, string | undefined>([["anonymous", undefined]]);
  const contexts: APIRequestContext[] = [];
  let ids: Ids;

  test.beforeAll(async ({ orgClient }, testInfo) => {
    testInfo.setTimeout(120_000);
    for (const role of ROLES) {
      const user = createUser([role]);
      const ctx = await signInRequest(user.email, user.password);
      contexts.push(ctx);
      cookies.set(role, (await ctx.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join("; "));
    }
    ids = { patient: createPatient().id, claim: (await submitClaim(orgClient)).id };
  });

  test.afterAll(async () => {
    for (const ctx of contexts) await ctx.dispose();
  });

  for (const entry of MATRIX) {
    test(`${entry.method ?? "GET"} ${entry.route}`, async () => {
      for (const who of EVERYONE) {
        const { status, location } = await statusOf(entry, cookies.get(who), ids);
        const label = `${who} → ${entry.method ?? "GET"} ${entry.route}`;
        if (who === "anonymous") {
          // Everything outside /api (pages, the dashboard's download links) sends a signed-out browser to sign in.
          if (!entry.route.startsWith("/api/")) {
            expect.soft([303, 307, 308].includes(status) && location.includes("/sign-in"), `${label}: ${status} ${location}`).toBe(true);
          } else {
            expect.soft(status, label).toBe(401);
          }
        } else if (entry.allowed.includes(who)) {
          expect.soft(status, label).toBe(entry.allowedStatus ?? 200);
        } else {
          expect.soft(status, label).toBe(403);
        }
      }
    });
  }

  /*
   * The origin rule (docs/decisions/060): every state-changing request the session cookie could
   * authenticate — an upload, a server action, Auth.js' sign-out and sign-in — is refused 403 in
   * the JSON family's shape when it does not come from the portal's own origin, whoever holds the
   * cookie, and audited as denied. The same request from the portal's origin still works.
   */
  const CROSS_ORIGIN: { label: string; headers: Record<string, string> }[] = [
    { label: "Origin https://evil.example", headers: { origin: "https://evil.example" } },
    { label: "Origin null", headers: { origin: "null" } },
    { label: "another port of the same host (the sandbox's)", headers: { origin: `http://localhost:${new URL(BASE_URL).port ? Number(new URL(BASE_URL).port) + 6000 : 9210}` } },
    { label: "Sec-Fetch-Site same-site", headers: { "sec-fetch-site": "same-site" } },
    { label: "a form post from another site", headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site", "content-type": "text/plain" } },
    { label: "neither Origin nor Sec-Fetch-Site", headers: {} },
  ];
  const actionId = () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(process.cwd(), ".next", "server", "server-reference-manifest.json"), "utf8")) as { node: Record<string, unknown> };
    return Object.keys(manifest.node)[0]!;
  };
  const WRITES: { name: string; path: string; headers: () => Record<string, string>; body: string | Uint8Array<ArrayBuffer> }[] = [
    { name: "POST /api/attachments (upload)", path: "/api/attachments", headers: () => ({ "x-file-name": "x.pdf" }), body: new TextEncoder().encode("%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n") },
    { name: "POST /eligibility (server action)", path: "/eligibility", headers: () => ({ "next-action": actionId(), "content-type": "text/plain;charset=UTF-8", accept: "text/x-component" }), body: '["en"]' },
    { name: "POST /api/auth/signout", path: "/api/auth/signout", headers: () => ({ "content-type": "application/x-www-form-urlencoded" }), body: "csrfToken=x" },
    { name: "POST /api/auth/callback/credentials (sign-in)", path: "/api/auth/callback/credentials", headers: () => ({ "content-type": "application/x-www-form-urlencoded" }), body: "csrfToken=x&email=a%40b.c&password=x" },
  ];
  const send = (write: (typeof WRITES)[number], cookie: string | undefined, extra: Record<string, string>) =>
    fetch(`${BASE_URL}${write.path}`, { method: "POST", redirect: "manual", headers: { ...write.headers(), ...(cookie ? { cookie } : {}), ...extra }, body: write.body });

  for (const write of WRITES) {
    test(`cross-origin: ${write.name} is refused 403 for every role`, async () => {
      for (const who of EVERYONE) {
        for (const variant of CROSS_ORIGIN) {
          const res = await send(write, cookies.get(who), variant.headers);
          const label = `${who} → ${write.name} with ${variant.label}`;
          expect.soft(res.status, label).toBe(403);
          expect.soft(await res.json().catch(() => undefined), label).toMatchObject({ error: "forbidden", reason: "cross_origin" });
        }
      }
    });
  }

  test("cross-origin: the same upload from the portal's own origin is stored, and the refusals are audited as denied", async () => {
    const upload = WRITES[0]!;
    const res = await send(upload, cookies.get("billing"), { origin: BASE_URL, "sec-fetch-site": "same-origin" });
    expect(res.status).toBe(201);
    const audit = await fetch(`${BASE_URL}/audit?action=request.cross_origin&outcome=denied`, { headers: { cookie: cookies.get("admin")! } });
    expect(audit.status).toBe(200);
    expect(await audit.text()).toContain("request.cross_origin");
  });

  test("every page and route of the portal is in the matrix or named as not for staff", () => {
    const listed = new Set(MATRIX.map((e) => e.route));
    const unlisted = appRoutes().filter((r) => !listed.has(r) && !NOT_STAFF.has(r) && !MACHINE_API_PREFIXES.some((p) => r === p || r.startsWith(`${p}/`)));
    expect(unlisted, "add these to the authorization matrix (or to NOT_STAFF with a reason)").toEqual([]);
  });
});
