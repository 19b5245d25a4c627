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
  page("/claims", BILLING),
  page("/claims/new", BILLING),
  page("/claims/[id]", BILLING, (ids) => `/claims/${ids.claim}`),
  page("/claims/reconcile", BILLING),
  page("/claims/work-queue", BILLING),
  page("/visits", VISITS),
  page("/visits/new", VISITS),
  page("/visits/lists/[id]", VISITS, () => `/visits/lists/${randomUUID()}`, 404),
  page("/information-requests", AUTHORIZATIONS),
  page("/payments", BILLING),
  page("/payments/[id]", BILLING, () => `/payments/${randomUUID()}`, 404),
  page("/dashboard", MANAGER),
  page("/dashboard/live", MANAGER),
  page("/settings", ADMIN),
  page("/settings/api-access", ADMIN),
  page("/settings/gateway-tokens", ADMIN),
  page("/settings/organization-keys", ADMIN),
  page("/settings/system-status", ADMIN),
  page("/settings/insurers", ADMIN),
  page("/audit", ADMIN),
  { route: "/dashboard/export", url: () => "/dashboard/export?table=insurers", allowed: MANAGER },
  { route: "/api/attachments/[id]", url: () => `/api/attachments/${randomUUID()}`, allowed: ["front_desk", "billing", "manager"], allowedStatus: 404 },
  { route: "/api/attachments", url: () => "/api/attachments", method: "POST", allowed: ["front_desk", "billing"], allowedStatus: 415 },
  { route: "/api/system-status", url: () => "/api/system-status", allowed: ADMIN },
];

/** Pages and routes that are not for signed-in staff, with the reason (checked for completeness only). */
const NOT_STAFF = new Set([
  "/", // redirects each role to its first area (foundation.spec.ts)
  "/sign-in",
  "/api/auth/[...nextauth]", // Auth.js
  "/api/events", // any signed-in user; filtered per role inside the stream (dashboard.spec.ts)
  "/api/health",
  "/api/ready",
  "/api/metrics", // metrics token (operations.spec.ts)
  "/api/webhooks/platform", // the platform's signed webhooks
  "/api/[...path]", // unknown API paths: 404 in the API's style
]);
const MACHINE_API_PREFIXES = ["/api/exchange", "/v1", "/oauth", "/query", "/fhir"];

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
    headers: cookie ? { cookie } : {},
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

  test("every page and route of the portal is in the matrix or named as not for staff", () => {
    const listed = new Set(MATRIX.map((e) => e.route));
    const unlisted = appRoutes().filter((r) => !listed.has(r) && !NOT_STAFF.has(r) && !MACHINE_API_PREFIXES.some((p) => r === p || r.startsWith(`${p}/`)));
    expect(unlisted, "add these to the authorization matrix (or to NOT_STAFF with a reason)").toEqual([]);
  });
});
