import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, request as playwrightRequest, test as base, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { SignJWT, exportJWK, generateKeyPair } from "jose";
import { Agent, request as undiciRequest } from "undici";
import { nationalIdCheckDigit } from "../lib/fhir/national-id";
import { CODE_SYSTEMS, nphies } from "../lib/fhir";
import * as mds from "../lib/fhir/mds";
import { E2E_PORTAL_DATA_DIR } from "../playwright.config";

/*
 * Playwright fixtures (docs/decisions/040-browser-test-fixtures.md): every test signs in its own
 * user and creates its own patients and claims, so no spec depends on another's data or order.
 * The seeded demo users and the sandbox's published patients stay as read-only reference data.
 */

export const DEMO_PASSWORD = "demo-pass-2026";
export const PORT = Number(process.env.E2E_PORT ?? 3210);
export const BASE_URL = `http://localhost:${PORT}`;

export const DEMO = {
  frontDesk: "frontdesk@clinic.example",
  billing: "billing@clinic.example",
  manager: "manager@clinic.example",
  admin: "admin@clinic.example",
  prescriber: "prescriber@clinic.example",
} as const;

export type Role = "front_desk" | "billing" | "manager" | "admin" | "prescriber";
export const ROLES: readonly Role[] = ["front_desk", "billing", "manager", "admin", "prescriber"];

/** Runs the real admin CLI against the running portal (through its admin socket). */
export function adminCli(args: string[], input?: string): unknown {
  let out: string;
  try {
    out = execFileSync(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args, "--json"], {
      input,
      env: { ...process.env, DATA_DIR: E2E_PORTAL_DATA_DIR },
      encoding: "utf8",
    });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`admin ${args[0]} failed: ${stderr || stdout || (error as Error).message}`);
  }
  return JSON.parse(out);
}

export interface TestUser {
  email: string;
  password: string;
  roles: Role[];
}

/** A fresh user: tests that change account state, or that must not share a session with another test. */
export function createUser(roles: Role[] | string[], password = "e2e-password-123"): TestUser {
  const email = `e2e-${Date.now()}-${randomUUID().slice(0, 8)}@clinic.example`;
  adminCli(["user:create", "--email", email, ...roles.flatMap((r) => ["--role", r]), "--password-stdin"], password);
  return { email, password, roles: roles as Role[] };
}

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel(/work email|البريد الإلكتروني/i).fill(email);
  await page.getByLabel(/^password$|كلمة المرور/i).fill(password);
  await page.getByRole("button", { name: /^sign in$|^دخول$/i }).click();
  await expect(page.getByTestId("current-user")).toBeVisible();
}

/** Signs in through Auth.js's endpoints without a page; the context then carries the session cookie. */
export async function signInRequest(email: string, password = DEMO_PASSWORD): Promise<APIRequestContext> {
  const ctx = await playwrightRequest.newContext({ baseURL: BASE_URL });
  const { csrfToken } = (await (await ctx.get("/api/auth/csrf")).json()) as { csrfToken: string };
  // A browser sends its Origin with every POST; the portal refuses a sign-in without one (docs/decisions/060).
  await ctx.post("/api/auth/callback/credentials", { form: { csrfToken, email, password }, headers: { origin: BASE_URL }, maxRedirects: 0 });
  const cookies = (await ctx.storageState()).cookies;
  if (!cookies.some((c) => /session-token/.test(c.name))) throw new Error(`sign-in of ${email} gave no session cookie`);
  return ctx;
}

/** Picks a patient in a claim or authorization form (the search box, first match). */
export async function pickPatient(page: Page, query: string): Promise<void> {
  const box = page.getByTestId("patient-search");
  await box.fill(query);
  await expect(page.locator('ul[role="listbox"]:not([hidden]) [role="option"]').first()).toBeVisible();
  await box.press("Enter");
  await expect(page.getByTestId("selected-patient")).toBeVisible();
}

/** Picks the first code a code search offers (diagnoses, procedures, services). */
export async function pickCode(page: Page, combobox: Locator, query: string): Promise<void> {
  await combobox.click();
  await combobox.fill(query);
  await expect(page.locator('ul[role="listbox"]:not([hidden]) [role="option"]').first()).toBeVisible();
  await combobox.press("Enter");
}

/**
 * Clicks the claim form's "Submit claim"; when the scrubber only warns (docs/decisions/090 — a
 * service this patient already had claimed that day, a price off the contract), answers "Send
 * anyway" once. Browser tests reuse patients, services and days, so such warnings are expected.
 */
export async function sendClaimForm(page: Page): Promise<void> {
  if (MESSAGING) await fillVisitDetails(page);
  await page.getByRole("button", { name: "Submit claim" }).click();
  const sent = /\/claims\/new\?submitted=[0-9a-f-]{36}$/;
  await expect.poll(async () => sent.test(page.url()) || (await page.getByTestId("scrub-findings").isVisible()), { timeout: 30_000 }).toBe(true);
  if (!sent.test(page.url())) await page.getByRole("button", { name: "Send anyway" }).click();
}

/** Runs `fn` with the Arabic interface (RTL), then goes back to English. */
export async function inArabic(page: Page, fn: () => Promise<void>): Promise<void> {
  const url = new URL(page.url());
  await page.context().addCookies([{ name: "cx_locale", value: "ar", domain: url.hostname, path: "/" }]);
  try {
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await fn();
  } finally {
    await page.context().addCookies([{ name: "cx_locale", value: "en", domain: url.hostname, path: "/" }]);
    // The root layout (lang, dir, messages) is not re-rendered by client navigations: reload.
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
  }
}

/**
 * The care setting's common answers (decision 083): the primary practitioner ticked (a demo
 * practitioner the sandbox knows) and the chief complaint — the default type, professional
 * outpatient, needs both.
 */
export async function fillCareSetting(page: Page, complaint = "Pain for a week"): Promise<void> {
  await page.getByTestId("practitioner-PRAC-10001").check();
  await page.getByTestId("chief-complaint").fill(complaint);
  if (MESSAGING) await fillVisitDetails(page);
}

/** The browser run speaks the national exchange's messaging (E2E_PLATFORM_PROTOCOL=messaging). */
export const MESSAGING = process.env.E2E_PLATFORM_PROTOCOL === "messaging";

/** Plausible measurements of an adult, in each sign's unit (the exchange's Minimum Data Set, decision 103). */
const VITAL_SIGN_VALUES: Record<string, string> = {
  "vital-sign-weight": "70",
  "vital-sign-height": "168",
  "vital-sign-systolic": "118",
  "vital-sign-diastolic": "76",
  temperature: "36.8",
  pulse: "74",
  "respiratory-rate": "15",
  "oxygen-saturation": "98",
};

/**
 * Answers what the "Visit details" section asks and is still empty (messaging; decision 105), as
 * staff would: the first listed option of each question (visit kind, first visit, triage, admit
 * source, specialty, disposition, each diagnosis's onset), a plausible measurement of each vital
 * sign, a line of each clinical note, the investigation result's first option and the visit's start.
 * The accident stays as it is (optional unless a diagnosis asks). Nothing happens where the section
 * is not shown.
 */
export async function fillVisitDetails(page: Page): Promise<void> {
  const section = page.getByTestId("visit-details");
  if ((await section.count()) === 0) return;
  for (const select of await section.locator("select[name^='clinical.']").all()) {
    const name = (await select.getAttribute("name")) ?? "";
    if (/accident|\.absent$/.test(name) || (await select.inputValue()) !== "") continue;
    const first = await select.locator("option:not([value=''])").first().getAttribute("value");
    if (first) await select.selectOption(first);
  }
  for (const input of await section.locator("input[name^='clinical.vitalSigns.'][name$='.value']").all()) {
    const sign = (await input.getAttribute("name"))!.split(".")[2]!;
    if ((await input.inputValue()) === "" && (await section.locator(`[name='clinical.vitalSigns.${sign}.absent']`).inputValue()) === "") await input.fill(VITAL_SIGN_VALUES[sign] ?? "1");
  }
  for (const note of await section.locator("textarea[name^='clinical.notes.']").all()) if ((await note.inputValue()) === "") await note.fill("As examined today.");
  for (const moment of await section.locator("input[type='datetime-local'][name^='clinical.']").all()) if ((await moment.inputValue()) === "") await moment.fill(`${clinicDay()}T08:00`);
}

export interface JourneyService {
  /** The line's code list as the form names it. */
  list: string;
  system: string;
  code: string;
  /** The sandbox's price-list price, as typed. */
  price: string;
  /** Its Arabic words, as the decision shows them. */
  ar: string;
}

/**
 * What the journeys bill, by protocol (decision 092): the spec's CPT in REST; in messaging, where
 * the national exchange refuses CPT and the forms do not offer it, the exchange's own lists (demo
 * codes the sandbox prices the same way: a consultation, an MRI that needs authorization, a blood count).
 */
export const SERVICES: Record<"visit" | "mri" | "bloodCount", JourneyService> = MESSAGING
  ? {
      visit: { list: "Services", system: nphies.SYSTEMS.services, code: "SVC-0102", price: "300", ar: "استشارة طبيب أخصائي" },
      mri: { list: "Imaging", system: nphies.SYSTEMS.imaging, code: "IMG-3003", price: "2500", ar: "رنين مغناطيسي للدماغ بالصبغة" },
      bloodCount: { list: "Laboratory", system: nphies.SYSTEMS.laboratory, code: "LAB-4001", price: "60", ar: "صورة دم كاملة" },
    }
  : {
      visit: { list: "CPT", system: CODE_SYSTEMS.cpt, code: "99213", price: "250", ar: "زيارة عيادة لمريض مراجع، عادية" },
      mri: { list: "CPT", system: CODE_SYSTEMS.cpt, code: "72148", price: "2000", ar: "رنين مغناطيسي لأسفل الظهر بدون صبغة" },
      bloodCount: { list: "CPT", system: CODE_SYSTEMS.cpt, code: "85025", price: "60", ar: "" },
    };

/** Codes line `line` (1-based) of the form: its code list, then the code through the catalogue's picker. */
export async function pickService(page: Page, line: number, service: JourneyService): Promise<void> {
  await page.getByTestId(`item-${line - 1}-system`).selectOption({ label: service.list });
  await pickCode(page, page.getByRole("combobox", { name: `Service of line ${line}` }), service.code);
}

/**
 * Fills the prior-authorization form with the usual request: an MRI (SERVICES.mri, M54.5) for
 * 1000000001 at `price` (by default the payer's contract price, SERVICES.mri.price, approved as asked; more is reduced).
 */
export async function fillAuthorizationRequest(page: Page, price = SERVICES.mri.price): Promise<void> {
  await pickPatient(page, "1000000001");
  await expect(page.getByLabel("Coverage", { exact: true })).not.toHaveValue("");
  await pickCode(page, page.getByRole("combobox", { name: "Diagnoses (ICD-10-AM)" }), "m545");
  await expect(page.getByTestId("diagnoses")).toContainText("M54.5");
  // The exchange takes no CPT procedures: the picker is the spec's REST only.
  if (!MESSAGING) {
    await pickCode(page, page.getByRole("combobox", { name: "Procedures (CPT)" }), "lower back mri");
    await expect(page.getByTestId("procedures")).toContainText("72148");
  }
  await fillCareSetting(page);
  await pickService(page, 1, SERVICES.mri);
  await page.getByLabel("Quantity of line 1").fill("1");
  await page.getByLabel("Unit price of line 1").fill(price);
  if (MESSAGING) await fillVisitDetails(page);
}

/** The platform's id of a claim sent through the exchange API, once the platform holds it (its status answer names it). */
export async function platformIdOf(orgClient: OrgClient, claimId: string): Promise<string> {
  const api = await playwrightRequest.newContext({ baseURL: BASE_URL });
  try {
    let found: string | undefined;
    await expect
      .poll(
        async () => {
          const res = await api.get(`/api/exchange/claims/${claimId}/status`, { headers: { authorization: `Bearer ${await orgClient.token()}`, accept: "application/fhir+json" } });
          const body = (await res.json()) as { parameter?: { name: string; valueReference?: { reference?: string } }[] };
          found = body.parameter?.find((p) => p.name === "platformClaim")?.valueReference?.reference?.replace(/^Claim\//, "");
          return found;
        },
        { timeout: 20_000 },
      )
      .toBeTruthy();
    return found!;
  } finally {
    await api.dispose();
  }
}

/** A small valid one-page PDF with `text` on it, generated here (uploads in the browser tests). */
export function pdfBytes(text: string): Buffer {
  const stream = `BT /F1 12 Tf 20 70 Td (${text}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

/** A full-page screenshot into `dir` (looked at by people, not compared). */
export async function screenshot(page: Page, dir: string, name: string): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, name), fullPage: true });
}

/** The page at a desktop (1280 px) and a phone (390 px) width, `<name>-<width>.png`; back to the desktop after. */
export async function shootBothWidths(page: Page, dir: string, name: string): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, dir, `${name}-${width}.png`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** First-load JavaScript of a page (compressed, as the accessibility walk counts it), noted in `<dir>/first-load.txt`; within 200 kB when budgeted. */
export async function noteFirstLoad(page: Page, url: string, label: string, dir: string, budgeted = true): Promise<void> {
  await page.goto(url);
  await page.waitForLoadState("networkidle");
  const js = await page.evaluate(() =>
    (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter((r) => r.initiatorType === "script" || r.name.endsWith(".js")).reduce((a, r) => a + r.encodedBodySize, 0),
  );
  fs.mkdirSync(dir, { recursive: true });
  fs.appendFileSync(`${dir}/first-load.txt`, `${label}\t${(js / 1024).toFixed(1)} kB\n`);
  if (budgeted) expect(js, `${label}: first-load JavaScript`).toBeLessThanOrEqual(200 * 1024);
}

export async function navLabels(page: Page): Promise<string[]> {
  const nav = page.getByRole("navigation", { name: /main navigation|القائمة الرئيسية/i });
  // Each entry's name without its count of waiting work (components/shell/nav-links.tsx).
  return (await nav.getByRole("link").locator("[data-nav-label]").allTextContents()).map((t) => t.trim());
}

/** A national ID no other test uses: 10 digits, first digit 1, valid check digit. */
export function uniqueNationalId(): string {
  const body = `1${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
  return `${body}${nationalIdCheckDigit(body)}`;
}

export interface TestPatient {
  id: string;
  nationalId: string;
  givenName: string;
  familyName: string;
  coverageIds: string[];
}

/**
 * Registers a patient that belongs to one test, through the admin CLI's `patient:import` (the same
 * schema as the registration form). Its coverage is with a demo insurer; the sandbox does not know
 * this patient, so an eligibility check or claim for it meets the platform's "coverage not found".
 */
export function createPatient(overrides: { givenName?: string; familyName?: string; insurerId?: string; withCoverage?: boolean } = {}): TestPatient {
  const nationalId = uniqueNationalId();
  const givenName = overrides.givenName ?? "Fixture";
  const familyName = overrides.familyName ?? `Patient ${nationalId.slice(-4)}`;
  const record = {
    patient: { nationalId, givenName, familyName, birthDate: "1987-06-15", gender: "female", phone: "" },
    coverages: overrides.withCoverage === false ? [] : [{ insurerId: overrides.insurerId ?? "payer-rimal", memberId: `FX-${nationalId}`, coverageRef: `cov-fx-${nationalId}` }],
  };
  const result = adminCli(["patient:import"], JSON.stringify([record])) as { lines: { outcome: string; patientId: string; coverageIds: string[]; problems?: string[] }[] };
  const line = result.lines[0];
  if (!line || line.outcome !== "created") throw new Error(`patient:import did not create the fixture patient: ${JSON.stringify(line?.problems)}`);
  return { id: line.patientId, nationalId, givenName, familyName, coverageIds: line.coverageIds };
}

/** The sandbox's admin API over mutual TLS with the portal's client certificate. */
export class SandboxAdmin {
  private readonly dir = path.join(path.dirname(E2E_PORTAL_DATA_DIR), "sandbox");
  private changedFaults = false;
  private changedStyle = false;

  /** One call of the sandbox's admin API; answers its JSON. */
  async call(method: "GET" | "POST" | "PUT" | "DELETE", route: string, body?: unknown): Promise<unknown> {
    const { adminToken } = JSON.parse(fs.readFileSync(path.join(this.dir, "secrets.json"), "utf8")) as { adminToken: string };
    const pem = (name: string) => fs.readFileSync(path.join(this.dir, "pki", name), "utf8");
    const agent = new Agent({ connect: { ca: pem("ca.pem"), cert: pem("client.pem"), key: pem("client-key.pem") } });
    try {
      const res = await undiciRequest(`https://localhost:${PORT + 6000}${route}`, {
        method,
        dispatcher: agent,
        headers: { "x-sandbox-admin-token": adminToken, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.body.text();
      expect(res.statusCode, `sandbox ${method} ${route}: ${text}`).toBeLessThan(300);
      return text ? (JSON.parse(text) as unknown) : undefined;
    } finally {
      await agent.close();
    }
  }

  /** Fault injection (latency, errors, rate limits …): see sandbox/faults.ts. */
  async faults(settings: Record<string, unknown>): Promise<void> {
    this.changedFaults = true;
    await this.call("PUT", "/_admin/faults", settings);
  }

  /** The sandbox answers in the national exchange's style, or its own. */
  async answerStyle(style: "default" | "national"): Promise<void> {
    this.changedStyle = true;
    await this.call("PUT", "/_admin/answer-style", { style });
  }

  /** Undoes what this test changed (the fixture calls it after every test). */
  async reset(): Promise<void> {
    if (this.changedFaults) await this.call("DELETE", "/_admin/faults");
    if (this.changedStyle) await this.call("DELETE", "/_admin/answer-style");
    this.changedFaults = this.changedStyle = false;
  }
}

/** An organization key registered for this worker: signs the exchange API's bearer tokens. */
export interface OrgClient {
  org: string;
  /** A fresh bearer token; signed with another key when given (to test refusals). */
  token(signWith?: CryptoKey): Promise<string>;
}

export async function registerOrgClient(name = "Browser-test HIS"): Promise<OrgClient> {
  const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
  const kid = `e2e-${randomUUID().slice(0, 8)}`;
  const org = `e2e-his-${randomUUID().slice(0, 6)}`;
  const jwkFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cx-e2e-")), "key.json");
  fs.writeFileSync(jwkFile, JSON.stringify({ ...(await exportJWK(publicKey)), kid }));
  adminCli(["org-key:add", "--org", org, "--jwk-file", jwkFile, "--name", name]);
  return {
    org,
    token: (signWith = privateKey) =>
      new SignJWT({})
        .setProtectedHeader({ alg: "ES256", kid })
        .setIssuer(org)
        .setSubject(org)
        .setAudience(`${BASE_URL}/api/exchange`)
        .setIssuedAt()
        .setExpirationTime("2m")
        .setJti(randomUUID())
        .sign(signWith),
  };
}

export interface ClaimOptions {
  nationalId?: string;
  coverage?: string;
  unitPrice?: number;
}

export interface TestClaim {
  /** The portal's submission id: /claims/{id}. */
  id: string;
  identifier: string;
}

/** Submits a claim through the exchange API as this organization (a sandbox member the platform knows by default). */
/**
 * What a careful HIS records of a professional visit for the exchange's Minimum Data Set (decision
 * 103): each vital sign measured, the clinical notes and the investigation result, as supportingInfo.
 */
function visitInformation(): Record<string, unknown>[] {
  const category = (code: string) => ({ coding: [{ system: nphies.SYSTEMS.claimInformationCategory, code }] });
  const measured: Record<mds.VitalSign, number> = { "vital-sign-weight": 70, "vital-sign-height": 168, "vital-sign-systolic": 118, "vital-sign-diastolic": 76, temperature: 36.8, pulse: 74, "respiratory-rate": 15, "oxygen-saturation": 98 };
  return [
    ...mds.VITAL_SIGN_KEYS.map((sign, i) => ({ sequence: 10 + i, category: category(sign), valueQuantity: { value: measured[sign], system: nphies.SYSTEMS.ucum, code: mds.VITAL_SIGNS[sign].unit } })),
    ...mds.CLINICAL_NOTE_KEYS.map((note, i) => ({ sequence: 20 + i, category: category(note), valueString: "Recorded at the visit." })),
    { sequence: 30, category: category("investigation-result"), code: { coding: [{ system: mds.MDS_SYSTEMS.investigationResult, code: "INP" }] } },
  ];
}

export async function submitClaim(orgClient: OrgClient, options: ClaimOptions = {}): Promise<TestClaim> {
  const api = await playwrightRequest.newContext({ baseURL: BASE_URL });
  try {
    const nationalId = options.nationalId ?? "1000000001";
    const identifier = `E2E-${randomUUID()}`;
    const claim = {
      resourceType: "Claim",
      status: "active",
      use: "claim",
      identifier: [{ system: "https://his.example/claims", value: identifier }],
      // The spec's REST takes its institutional Claim as it is; the national exchange wants a care
      // setting complete — subtype, care team, chief complaint (decision 092) — as a careful HIS sends it.
      ...(MESSAGING
        ? {
            type: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/claim-type", code: "professional" }] },
            subType: { coding: [{ system: nphies.SYSTEMS.claimSubtype, code: "op" }] },
            careTeam: [
              {
                sequence: 1,
                provider: { identifier: { system: nphies.LICENSES.practitioner, value: "PRAC-10001" } },
                role: { coding: [{ system: nphies.SYSTEMS.careTeamRole, code: "primary" }] },
                qualification: { coding: [{ system: nphies.SYSTEMS.practiceCodes, code: "08.00" }] },
              },
            ],
            supportingInfo: [{ sequence: 1, category: { coding: [{ system: nphies.SYSTEMS.claimInformationCategory, code: "chief-complaint" }] }, code: { text: "Headache for two days" } }, ...visitInformation()],
            // The visit's Encounter (the Minimum Data Set, decision 103), contained and named by extension-encounter.
            contained: [
              {
                resourceType: "Encounter",
                id: "encounter",
                status: "finished",
                class: { system: nphies.SYSTEMS.encounterClass, code: "AMB" },
                period: { start: `${new Date().toISOString().slice(0, 10)}T09:00:00Z` },
                extension: [{ url: mds.MDS_EXTENSIONS.serviceEventType, valueCodeableConcept: { coding: [{ system: mds.MDS_SYSTEMS.serviceEventType, code: "ICSE" }] } }],
              },
            ],
            extension: [{ url: nphies.EXTENSIONS.encounter, valueReference: { reference: "#encounter" } }],
          }
        : { type: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/claim-type", code: "institutional" }] } }),
      patient: { reference: `Patient/${nationalId}` },
      created: new Date().toISOString(),
      provider: { reference: "Organization/clinic-001" },
      priority: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/processpriority", code: "normal" }] },
      insurance: [{ sequence: 1, focal: true, coverage: { reference: `Coverage/${options.coverage ?? `cov-${nationalId}`}` } }],
      diagnosis: [{ sequence: 1, diagnosisCodeableConcept: { coding: [{ system: "http://hl7.org/fhir/sid/icd-10-am", code: "R51" }] } }],
      item: [
        {
          sequence: 1,
          productOrService: { coding: [{ system: SERVICES.visit.system, code: SERVICES.visit.code }] },
          servicedDate: new Date().toISOString().slice(0, 10),
          quantity: { value: 1 },
          unitPrice: { value: options.unitPrice ?? 180, currency: "SAR" },
          ...(MESSAGING ? { extension: [{ url: mds.MDS_EXTENSIONS.maternity, valueBoolean: false }] } : {}),
        },
      ],
    };
    const res = await api.post("/api/exchange/claims/submit", {
      headers: { authorization: `Bearer ${await orgClient.token()}`, "content-type": "application/fhir+json" },
      data: JSON.stringify(claim),
    });
    expect(res.status(), `claim submission answered ${res.status()}: ${await res.text()}`).toBe(202);
    const id = /\/claims\/([0-9a-f-]{36})\/status$/.exec(res.headers()["location"] ?? "")?.[1];
    if (!id) throw new Error(`no submission id in Location: ${res.headers()["location"]}`);
    return { id, identifier };
  } finally {
    await api.dispose();
  }
}

interface Fixtures {
  /** Signs the page in as a fresh user of these roles (its own session: signing out ends no one else's). */
  signInAs: (roles: Role | Role[]) => Promise<TestUser>;
  /** A patient (with a coverage by default) owned by this test. */
  newPatient: (overrides?: Parameters<typeof createPatient>[0]) => TestPatient;
  /** A claim owned by this test, submitted through the exchange API for a sandbox member the platform knows. */
  newClaim: (options?: ClaimOptions) => Promise<TestClaim>;
  /** The sandbox's admin API; whatever the test changed is undone after it. */
  sandbox: SandboxAdmin;
}

export const test = base.extend<Fixtures, { orgClient: OrgClient }>({
  orgClient: [async ({}, provide) => provide(await registerOrgClient()), { scope: "worker" }],
  signInAs: async ({ page }, provide) => {
    await provide(async (roles) => {
      const user = createUser(Array.isArray(roles) ? roles : [roles]);
      await signIn(page, user.email, user.password);
      return user;
    });
  },
  newPatient: async ({}, provide) => provide((overrides) => createPatient(overrides)),
  newClaim: async ({ orgClient }, provide) => provide((options) => submitClaim(orgClient, options)),
  sandbox: async ({}, provide) => {
    const sandbox = new SandboxAdmin();
    await provide(sandbox);
    await sandbox.reset();
  },
});

export { expect };

/** Marks the page: a full reload (navigation) drops the mark, a live update keeps it. */
export const markNoReload = (page: Page) => page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
/** Whether the page still carries the mark of markNoReload (no reload happened since). */
export const stillNoReload = async (page: Page): Promise<boolean> => (await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)) === true;

/**
 * A day of the clinic's calendar (YYYY-MM-DD), `offset` days from today, in the portal's time zone
 * (CLINIC_TIME_ZONE, Asia/Riyadh by default) — not UTC's, which is a day behind from 21:00 UTC.
 */
export function clinicDay(offset = 0): string {
  const zone = process.env.CLINIC_TIME_ZONE || "Asia/Riyadh";
  return new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date(Date.now() + offset * 86_400_000));
}

/** A page in English and Arabic at 1280 and 390 px (`<name>-en-1280.png` …), for looking at it; the viewport is restored. */
export async function shotFour(page: Page, dir: string, name: string): Promise<void> {
  const size = page.viewportSize() ?? { width: 1280, height: 900 };
  const take = async (lang: string) => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, dir, `${name}-${lang}-${width}.png`);
    }
  };
  try {
    await take("en");
    await inArabic(page, () => take("ar"));
  } finally {
    await page.setViewportSize(size);
  }
}
