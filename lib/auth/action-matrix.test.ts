import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { listAuditEvents } from "@/lib/audit";
import type { Database } from "@/lib/db";
import { testDatabases } from "@/lib/testing/databases";
import { signInWithPassword } from "./credentials";
import { ROLES, type Role } from "./roles";
import { checkSession } from "./sessions";
import { staffActionInfo } from "./staff-action";
import { createUser } from "./users";

/*
 * Every exported server action × every role (and no session), against the declared matrix below.
 * Users and their server-side sessions are real (argon2 sign-in, `auth_sessions` rows, checked by
 * `checkSession` exactly as the Auth.js jwt callback does); only the cookie transport of Auth.js
 * and Next's request headers are replaced, since no HTTP request exists here. Each call carries
 * input the schema refuses, so an admitted role gets `invalid` (or `not_found` for ids) and does
 * no work, while any other role gets `forbidden` — the role is checked before the input.
 *
 * Adding an action without a row here fails the test.
 */
type Access = readonly Role[] | "public";
const MATRIX: Record<string, Access> = {
  // lib/api-access: administrators manage machine credentials
  "api-access.createApiKeyAction": ["admin"],
  "api-access.revokeApiKeyAction": ["admin"],
  "api-access.createOAuthClientAction": ["admin"],
  "api-access.revokeOAuthClientAction": ["admin"],
  "api-access.createGatewayTokenAction": ["admin"],
  "api-access.revokeGatewayTokenAction": ["admin"],
  "api-access.createOrgClientAction": ["admin"],
  "api-access.setOrgClientDisabledAction": ["admin"],
  "api-access.addOrgKeyAction": ["admin"],
  "api-access.revokeOrgKeyAction": ["admin"],
  // lib/auth: no role to check
  "auth.signInAction": "public",
  "auth.signOutAction": "public",
  // lib/auth (decision 102): administrators run accounts; everyone changes their own password
  "auth.setUserRolesAction": ["admin"],
  "auth.resetUserPasswordAction": ["admin"],
  "auth.unlockUserAction": ["admin"],
  "auth.setUserDisabledAction": ["admin"],
  "auth.changeOwnPasswordAction": ["front_desk", "billing", "manager", "admin", "prescriber"],
  // lib/authorizations: front desk and billing fill the form; claims from it are billing's
  "authorizations.searchPatientsForFormAction": ["front_desk", "billing"],
  "authorizations.saveDraftAction": ["front_desk", "billing"],
  "authorizations.submitAction": ["front_desk", "billing"],
  "authorizations.createClaimFromAuthorizationAction": ["billing"],
  // The visit details' prefill from earlier visits (decision 103): whoever fills the form
  "authorizations.visitPrefillAction": ["front_desk", "billing"],
  // A payer's advanced authorization (docs/decisions/101): changed or questioned by whoever works authorizations
  "authorizations.changePayerAuthorizationAction": ["front_desk", "billing"],
  "authorizations.askPayerChangeAction": ["front_desk", "billing"],
  // decision 114: a change of the clinic's own authorization (extend, add or remove, resubmit)
  "authorizations.changeAuthorizationAction": ["front_desk", "billing"],
  // lib/claims: billing
  "claims.copyClaimAction": ["billing"],
  "claims.fixClaimAction": ["billing"],
  "claims.retryClaimAction": ["billing"],
  "claims.submitSelectedAction": ["billing"],
  "claims.batchProgressAction": ["billing"],
  "claims.claimListAction": ["billing"],
  // decisions 080, 081: the work queue's assignment and notes, and appeals, are billing's
  "claims.fileAppealAction": ["billing"],
  "claims.assignWorkAction": ["billing"],
  "claims.addWorkNoteAction": ["billing"],
  "dashboard.liveBoardAction": ["manager"],
  // lib/pipeline: any signed-in staff member reads the live stamp of the pages they may open
  "pipeline.liveStampAction": ["front_desk", "billing", "manager", "admin", "prescriber"],
  // lib/pipeline: "Received, not matched" (docs/decisions/096) is billing's
  "pipeline.dismissInboxMessageAction": ["billing"],
  "pipeline.matchInboxMessageAction": ["billing"],
  "pipeline.openAdvancedAuthorizationAction": ["billing"],
  "claims.reconcileAction": ["billing"],
  // lib/cancellation, lib/information-requests (docs/decisions/045): claims billing's, authorizations front desk's too (checked by kind inside)
  "cancellation.cancelSubmissionAction": ["front_desk", "billing", "prescriber"],
  "cancellation.statusCheckAction": ["front_desk", "billing", "prescriber"],
  // lib/prescriptions (docs/decisions/116): prescribers write them; billing picks the verified ones on a pharmacy claim
  "prescriptions.searchPatientsForPrescriptionAction": ["prescriber"],
  "prescriptions.submitPrescriptionAction": ["prescriber"],
  "prescriptions.verifiedPrescriptionsAction": ["billing"],
  // Decision 121: a prescriber appeals a prescription, sends information about it and answers the payer's requests about it.
  "prescriptions.appealPrescriptionAction": ["prescriber"],
  "information-requests.answerInformationRequestAction": ["front_desk", "billing", "prescriber"],
  // lib/evidence (decision 115): information sent unasked — claims billing's, authorizations front desk's too (checked by kind inside)
  "evidence.sendEvidenceAction": ["front_desk", "billing", "prescriber"],
  // lib/payments: billing sends payment notices; lib/deadlines: administrators set insurers' filing windows
  "payments.sendPaymentNoticeAction": ["billing"],
  "deadlines.saveInsurerAction": ["admin"],
  // lib/contracts: administrators import payer price lists
  "contracts.importContractsAction": ["admin"],
  "contracts.claimSharesAction": ["billing"],
  "contracts.contractPricesAction": ["front_desk", "billing"],
  // lib/eligibility, lib/patients: front desk
  "eligibility.checkEligibilityAction": ["front_desk"],
  "eligibility.estimateVisitAction": ["front_desk"],
  "eligibility.registerDiscoveredCoverageAction": ["front_desk"],
  "eligibility.changeOfflineEligibilityAction": ["front_desk"],
  "eligibility.authorizationRequirementsAction": ["front_desk", "billing"],
  "patients.registerPatientAction": ["front_desk"],
  "patients.updatePatientAction": ["front_desk"],
  "patients.addCoverageAction": ["front_desk"],
  "patients.registerNewbornAction": ["front_desk"],
  "patients.recordOfflineEligibilityAction": ["front_desk"],
  "patients.searchPatientsAction": ["front_desk"],
  // lib/i18n: before and after sign-in
  "i18n.setLocaleAction": "public",
  // lib/visits: the visits area (front desk, manager); a prior authorization from a visit is the authorizations area's
  "visits.uploadVisitListAction": ["front_desk", "manager"],
  "visits.startRunAction": ["front_desk", "manager"],
  "visits.cancelRunAction": ["front_desk", "manager"],
  "visits.authorizationFromVisitAction": ["front_desk", "billing"],
  // lib/terminology: the code pickers (staff who fill forms) and the catalogue's page in Settings (docs/decisions/086)
  "terminology.searchCodesAction": ["front_desk", "billing", "admin", "prescriber"],
  "terminology.describeCodesAction": ["front_desk", "billing", "admin", "prescriber"],
  // lib/platform: administrators
  "platform.testPlatformConnectionAction": ["admin"],
};

const session: { database?: Database; sid?: string } = {};

vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-request-id": "00000000-0000-4000-8000-000000000016", "x-forwarded-for": "10.1.2.3" }),
  cookies: async () => ({ get: () => undefined, set: () => undefined }),
}));
vi.mock("next-auth", () => ({ AuthError: class AuthError extends Error {} }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
// Auth.js's cookie layer, replaced by the server-side session check its jwt callback makes.
vi.mock("./auth", () => ({
  auth: async () => {
    if (!session.database || !session.sid) return null;
    const check = await checkSession(session.database.db, session.sid);
    return check.ok ? { user: check.user, sessionId: session.sid } : null;
  },
  signIn: async () => undefined,
  signOut: async () => undefined,
}));

const modules = import.meta.glob<Record<string, unknown>>("/lib/*/actions.ts", { eager: true });
const actions = Object.entries(modules).flatMap(([file, exports]) => {
  const domain = file.split("/")[2]!;
  return Object.entries(exports)
    .filter(([, value]) => typeof value === "function")
    .map(([name, fn]) => ({ key: `${domain}.${name}`, fn: fn as (...args: unknown[]) => Promise<{ ok: boolean; error?: string }> }));
});
const staffActions = actions.filter((a) => MATRIX[a.key] !== "public");
const NOT_INPUT = Symbol("not an input");

function call(action: (typeof actions)[number]) {
  return staffActionInfo(action.fn)!.form ? action.fn(undefined, new FormData()) : action.fn(NOT_INPUT);
}

describe("the action × role matrix", () => {
  it("has a row for every exported action, and every row names an action", () => {
    expect(actions.length).toBeGreaterThan(20);
    expect(actions.map((a) => a.key).filter((key) => !(key in MATRIX))).toEqual([]);
    expect(Object.keys(MATRIX).filter((key) => !actions.some((a) => a.key === key))).toEqual([]);
  });

  it("declares the same roles as each action admits (public ones are not staff actions)", () => {
    for (const action of actions) {
      const declared = MATRIX[action.key]!;
      const info = staffActionInfo(action.fn);
      if (declared === "public") expect(info, action.key).toBeUndefined();
      else expect([...(info?.roles ?? [])].sort(), action.key).toEqual([...declared].sort());
    }
  });

  it("keeps every server action in lib/<domain>/actions.ts", () => {
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.tsx?$/.test(entry.name) && /^\s*["']use server["']/.test(fs.readFileSync(full, "utf8"))) found.push(path.relative(process.cwd(), full));
      }
    };
    for (const root of ["app", "components", "lib"]) walk(path.join(process.cwd(), root));
    expect(found.filter((f) => !/^lib\/[a-z0-9-]+\/actions\.ts$/.test(f))).toEqual([]);
  });
});

describe.each(testDatabases())("staff actions × roles on $name", (target) => {
  let database: Awaited<ReturnType<typeof target.open>>;
  const sessions = new Map<Role, string>();
  const holder = globalThis as typeof globalThis & { __clinicDb?: Promise<Database> };

  beforeAll(async () => {
    database = await target.open();
    holder.__clinicDb = Promise.resolve(database);
    session.database = database;
    for (const role of ROLES) {
      await createUser(database.db, { email: `${role}@matrix.example`, roles: [role], password: "matrix-pass-2026" });
      const signedIn = await signInWithPassword(database.db, { email: `${role}@matrix.example`, password: "matrix-pass-2026" });
      if (!signedIn.ok) throw new Error(`sign-in failed for ${role}`);
      sessions.set(role, signedIn.user.sessionId);
    }
  });
  afterAll(async () => {
    holder.__clinicDb = undefined;
    session.database = undefined;
    await database?.dispose();
  });

  it.each(ROLES)("%s: admitted where the matrix says, forbidden (and audited) elsewhere", async (role) => {
    session.sid = sessions.get(role);
    const before = (await listAuditEvents(database.db, { action: "access.denied", actor: `${role}@matrix.example`, limit: 500 })).rows.length;
    let denied = 0;
    for (const action of staffActions) {
      const admitted = (MATRIX[action.key] as readonly Role[]).includes(role);
      const result = await call(action);
      expect(result.ok, action.key).toBe(false);
      if (admitted) expect(["invalid", "not_found"], `${action.key} as ${role}`).toContain(result.error);
      else {
        expect(result.error, `${action.key} as ${role}`).toBe("forbidden");
        denied++;
      }
    }
    const after = (await listAuditEvents(database.db, { action: "access.denied", actor: `${role}@matrix.example`, limit: 500 })).rows.length;
    expect(after - before).toBe(denied);
  });

  it("refuses text with control characters and impossible dates in every action's input, naming the field", async () => {
    for (const role of ROLES) {
      session.sid = sessions.get(role);
      for (const action of staffActions) {
        if (!(MATRIX[action.key] as readonly Role[]).includes(role)) continue;
        const form = staffActionInfo(action.fn)!.form;
        const nul = new FormData();
        nul.set("name", "a\u0000b");
        const withNul = form ? await action.fn(undefined, nul) : await action.fn({ name: "a\u0000b" });
        expect(withNul, `${action.key} as ${role}`).toMatchObject({ ok: false, error: "invalid", field: "name", fieldErrors: { name: ["controlCharacters"] } });
        const date = new FormData();
        date.set("servicedDate", "2026-02-30");
        const withDate = form ? await action.fn(undefined, date) : await action.fn({ servicedDate: "2026-02-30" });
        expect(withDate, `${action.key} as ${role}`).toMatchObject({ ok: false, error: "invalid", field: "servicedDate" });
      }
    }
  });

  it("answers unauthorized to every staff action without a session", async () => {
    session.sid = undefined;
    for (const action of staffActions) expect((await call(action)).error, action.key).toBe("unauthorized");
  });

  it("while a password must change, refuses every action but changing it (decision 102)", async () => {
    await createUser(database.db, { email: "pending@matrix.example", roles: [...ROLES], password: "matrix-pass-2026" });
    const signedIn = await signInWithPassword(database.db, { email: "pending@matrix.example", password: "matrix-pass-2026" }, { publishedPassword: "matrix-pass-2026" });
    if (!signedIn.ok) throw new Error("sign-in failed");
    session.sid = signedIn.user.sessionId;
    for (const action of staffActions) {
      const result = await call(action);
      if (action.key === "auth.changeOwnPasswordAction") expect(result.error, action.key).toBe("invalid");
      else expect(result.error, action.key).toBe("forbidden");
    }
  });

  it("applies the narrower rule once the input is known: claims are billing's", async () => {
    const form = { form: { use: "claim" } };
    const { saveDraftAction } = modules["/lib/authorizations/actions.ts"] as Record<string, (input: unknown) => Promise<{ ok: boolean; error?: string }>>;
    session.sid = sessions.get("front_desk");
    expect((await saveDraftAction!(form)).error).toBe("forbidden");
    session.sid = sessions.get("billing");
    // Billing passes the role check; the service then refuses the incomplete form.
    expect((await saveDraftAction!(form)).error).toBe("invalid");
  });
});
