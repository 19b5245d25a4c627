/**
 * Helpers for the sandbox's own tests (real mTLS over loopback with undici). Not a test file itself.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Agent, request } from "undici";
import { afterAll } from "vitest";
import { CODE_SYSTEMS } from "../lib/fhir";
import { startSandbox, type RunningSandbox, type SandboxOptions } from "./server";

const createdDirs: string[] = [];
// Registered on the root suite of every test file importing this module (files run isolated).
afterAll(() => {
  for (const dir of createdDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh data folder under the OS temp dir, removed after the test file. */
export function tempDataDir(prefix = "sandbox-test-"): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  createdDirs.push(dir);
  return dir;
}

export interface TlsMaterial {
  ca: string;
  cert?: string;
  key?: string;
}

export function agentFor(material: TlsMaterial): Agent {
  return new Agent({ connect: { ca: material.ca, cert: material.cert, key: material.key }, keepAliveTimeout: 5_000 });
}

export interface TestSandbox {
  sandbox: RunningSandbox;
  dataDir: string;
  agent: Agent;
  ca: string;
  cert: string;
  key: string;
  token(agent?: Agent): Promise<string>;
  call(method: string, pathAndQuery: string, options?: CallOptions): Promise<CallResult>;
  admin(method: string, pathAndQuery: string, body?: unknown): Promise<CallResult>;
  stop(): Promise<void>;
}

export interface CallOptions {
  body?: unknown;
  token?: string | null;
  headers?: Record<string, string | undefined>;
  agent?: Agent;
  rawBody?: string;
}

export interface CallResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // Parsed JSON (or the raw text when not JSON). Tests narrow it with the lib/fhir schemas.
  body: Record<string, unknown> & { [key: string]: unknown };
  text: string;
}

async function toResult(res: Awaited<ReturnType<typeof request>>): Promise<CallResult> {
  const text = await res.body.text();
  let body: Record<string, unknown> = {};
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = { text };
  }
  return { status: res.statusCode, headers: res.headers, body, text };
}

export async function startTestSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const dataDir = options.dataDir ?? tempDataDir();
  // Lenient unless a test asks (the corpus runs strict): most engine tests post the spec's dialect.
  const sandbox = await startSandbox({ port: 0, quiet: true, adjudicationDelayMs: 50, conformance: "lenient", ...options, dataDir });
  const creds = sandbox.credentials;
  const ca = fs.readFileSync(creds.ca, "utf8");
  const cert = fs.readFileSync(creds.cert, "utf8");
  const key = fs.readFileSync(creds.key, "utf8");
  const agent = agentFor({ ca, cert, key });
  let cachedToken: string | undefined;

  const token = async (useAgent: Agent = agent) => {
    const res = await request(`${sandbox.url}/oauth/token`, {
      method: "POST",
      dispatcher: useAgent,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: creds.clientId, client_secret: creds.clientSecret }).toString(),
    });
    const result = await toResult(res);
    if (result.status !== 200) throw new Error(`token request failed: ${result.status} ${result.text}`);
    return String(result.body.access_token);
  };

  const call = async (method: string, pathAndQuery: string, opts: CallOptions = {}) => {
    let bearer = opts.token;
    if (bearer === undefined) bearer = cachedToken ??= await token();
    const headers: Record<string, string> = {
      accept: "application/fhir+json",
      "x-request-id": randomUUID(),
    };
    if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
    const payload = opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
    if (payload !== undefined) headers["content-type"] = "application/fhir+json";
    for (const [k, v] of Object.entries(opts.headers ?? {})) {
      if (v === undefined) delete headers[k.toLowerCase()];
      else headers[k.toLowerCase()] = v;
    }
    const res = await request(`${sandbox.url}${pathAndQuery}`, { method: method as "GET", dispatcher: opts.agent ?? agent, headers, body: payload });
    return toResult(res);
  };

  const admin = async (method: string, pathAndQuery: string, body?: unknown) => {
    const res = await request(`${sandbox.url}${pathAndQuery}`, {
      method: method as "GET",
      dispatcher: agent,
      headers: { "x-sandbox-admin-token": creds.adminToken, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return toResult(res);
  };

  return {
    sandbox,
    dataDir,
    agent,
    ca,
    cert,
    key,
    token,
    call,
    admin,
    stop: async () => {
      await sandbox.close();
      await agent.close();
    },
  };
}

// ---- request builders ------------------------------------------------------------------------

export function eligibilityRequest(patientId: string, insurer: string, categories?: string[], extra: Record<string, unknown> = {}) {
  return {
    resourceType: "CoverageEligibilityRequest",
    identifier: [{ system: "https://clinic.example/eligibility", value: randomUUID() }],
    status: "active",
    purpose: ["benefits", "validation"],
    patient: { reference: `Patient/${patientId}` },
    created: new Date().toISOString(),
    provider: { reference: "Organization/clinic-001" },
    insurer: { reference: `Organization/${insurer}` },
    ...(categories ? { item: categories.map((code) => ({ category: { coding: [{ system: CODE_SYSTEMS.benefitCategory, code }] } })) } : {}),
    ...extra,
  };
}

export interface ItemSpec {
  code: string;
  /** Unit price in riyals (wire number). */
  price: number;
  quantity?: number;
  servicedDate?: string;
}

export interface ClaimSpec {
  use: "claim" | "preauthorization";
  patientId: string;
  coverageId: string;
  items: ItemSpec[];
  identifier?: string;
  diagnoses?: string[];
  preAuthRef?: string[];
  created?: string;
  servicedDate?: string;
}

export function claimBody(spec: ClaimSpec): Record<string, unknown> {
  const servicedDate = spec.servicedDate ?? new Date().toISOString().slice(0, 10);
  return {
    resourceType: "Claim",
    identifier: [{ system: "https://clinic.example/claims", value: spec.identifier ?? randomUUID() }],
    status: "active",
    type: { coding: [{ system: CODE_SYSTEMS.claimType, code: "institutional" }] },
    use: spec.use,
    patient: { reference: `Patient/${spec.patientId}` },
    created: spec.created ?? new Date().toISOString(),
    provider: { reference: "Organization/clinic-001" },
    priority: { coding: [{ system: CODE_SYSTEMS.processPriority, code: "normal" }] },
    insurance: [
      { sequence: 1, focal: true, coverage: { reference: `Coverage/${spec.coverageId}` }, ...(spec.preAuthRef ? { preAuthRef: spec.preAuthRef } : {}) },
    ],
    diagnosis: (spec.diagnoses ?? ["J06.9"]).map((code, i) => ({
      sequence: i + 1,
      diagnosisCodeableConcept: { coding: [{ system: CODE_SYSTEMS.icd10am, code }] },
    })),
    item: spec.items.map((item, i) => ({
      sequence: i + 1,
      productOrService: { coding: [{ system: CODE_SYSTEMS.cpt, code: item.code }] },
      servicedDate: item.servicedDate ?? servicedDate,
      quantity: { value: item.quantity ?? 1 },
      unitPrice: { value: item.price, currency: "SAR" },
    })),
  };
}

/** Polls until `check` returns a value (not undefined) or the timeout passes. */
export async function waitFor<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 5_000, intervalMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`waitFor: timed out after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Finds the amount of an adjudication category on a ClaimResponse item (riyals). */
export function adjudicationAmount(response: Record<string, unknown>, itemSequence: number, category: string): number | undefined {
  const items = (response.item ?? []) as { itemSequence: number; adjudication: { category: { coding?: { code?: string }[] }; amount?: { value?: number } }[] }[];
  const item = items.find((i) => i.itemSequence === itemSequence);
  return item?.adjudication.find((a) => a.category.coding?.[0]?.code === category)?.amount?.value;
}

export function adjudicationReason(response: Record<string, unknown>, itemSequence: number): string | undefined {
  const items = (response.item ?? []) as { itemSequence: number; adjudication: { reason?: { coding?: { code?: string }[] } }[] }[];
  const item = items.find((i) => i.itemSequence === itemSequence);
  return item?.adjudication.map((a) => a.reason?.coding?.[0]?.code).find((c) => c !== undefined);
}

export function processingStatus(resource: Record<string, unknown>): string | undefined {
  const ext = (resource.extension ?? []) as { url: string; valueCode?: string }[];
  return ext.find((e) => e.url.endsWith("/claim-processing-status"))?.valueCode;
}

export function errorCode(body: Record<string, unknown>): string | undefined {
  const issues = (body.issue ?? []) as { details?: { coding?: { code?: string }[] } }[];
  return issues[0]?.details?.coding?.[0]?.code;
}
