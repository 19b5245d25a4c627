/**
 * Helpers for the platform client's tests and benchmark (not a test file): a real sandbox over
 * mTLS on port 0 in a temporary folder, the PlatformConfig pointing at it, admin calls, fixtures.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Claim, CoverageEligibilityRequest } from "@medplum/fhirtypes";
import { Agent, request } from "undici";
import { CODE_SYSTEMS } from "@/lib/fhir";
import { startSandbox, type RunningSandbox, type SandboxOptions } from "@/sandbox";
import type { PlatformConfig } from "../config";

export interface PlatformSandbox {
  url: string;
  dataDir: string;
  config: PlatformConfig;
  /** A bare mTLS agent with the client certificate (for admin calls and comparisons). */
  agent: Agent;
  admin(method: "GET" | "PUT" | "DELETE" | "POST", pathAndQuery: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  stop(): Promise<void>;
}

/**
 * What a test needs to talk to a running sandbox as the portal does: the PlatformConfig pointing at
 * it, a bare mTLS agent with its client certificate, and its admin API. The one place a sandbox's
 * credentials become a configuration (docs/decisions/063): the pipeline's harness and the
 * eligibility tests build on it too.
 */
export interface SandboxConnection {
  config: PlatformConfig;
  agent: Agent;
  admin(method: "GET" | "PUT" | "DELETE" | "POST", pathAndQuery: string, body?: unknown): Promise<{ status: number; body: unknown }>;
}

export function sandboxConnection(sandbox: RunningSandbox, agentOptions: { keepAliveTimeout?: number } = {}): SandboxConnection {
  const creds = sandbox.credentials;
  const agent = new Agent({
    connect: { ca: fs.readFileSync(creds.ca, "utf8"), cert: fs.readFileSync(creds.cert, "utf8"), key: fs.readFileSync(creds.key, "utf8") },
    ...agentOptions,
  });
  const config: PlatformConfig = {
    environment: "sandbox",
    baseUrl: sandbox.url,
    tokenUrl: `${sandbox.url}/oauth/token`,
    clientId: creds.clientId,
    clientSecret: creds.clientSecret,
    tls: { certFile: creds.cert, keyFile: creds.key, caFile: creds.ca },
    providerOrgId: creds.providerOrgId,
  };
  return {
    config,
    agent,
    async admin(method, pathAndQuery, body) {
      const res = await request(`${sandbox.url}${pathAndQuery}`, {
        method,
        dispatcher: agent,
        headers: { "x-sandbox-admin-token": creds.adminToken, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.body.text();
      return { status: res.statusCode, body: text ? (JSON.parse(text) as unknown) : undefined };
    },
  };
}

export async function startPlatformSandbox(options: Omit<SandboxOptions, "port" | "dataDir"> = {}): Promise<PlatformSandbox> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "platform-client-"));
  // Lenient unless a test asks: these suites post the spec's REST-dialect claims through messaging
  // too; the portal's own messages meet a strict sandbox in the browser runs (decision 092).
  const sandbox = await startSandbox({ port: 0, quiet: !options.logger, adjudicationDelayMs: 60_000, conformance: "lenient", ...options, dataDir });
  const { config, agent, admin } = sandboxConnection(sandbox, { keepAliveTimeout: 30_000 });
  return {
    url: sandbox.url,
    dataDir,
    config,
    agent,
    admin,
    async stop() {
      await sandbox.close();
      await agent.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function eligibilityRequest(patientId: string, insurer: string, providerOrgId = "clinic-001"): CoverageEligibilityRequest {
  return {
    resourceType: "CoverageEligibilityRequest",
    identifier: [{ system: "https://clinic.example/eligibility", value: randomUUID() }],
    status: "active",
    purpose: ["benefits", "validation"],
    patient: { reference: `Patient/${patientId}` },
    created: new Date().toISOString(),
    provider: { reference: `Organization/${providerOrgId}` },
    insurer: { reference: `Organization/${insurer}` },
  };
}

export interface ClaimFixture {
  use?: "claim" | "preauthorization";
  patientId?: string;
  coverageId?: string;
  identifier?: string;
  items?: { code: string; price: number; quantity?: number }[];
  diagnoses?: string[];
}

export function claimFixture(spec: ClaimFixture = {}): Claim {
  const today = new Date().toISOString().slice(0, 10);
  const patientId = spec.patientId ?? "1000000001";
  return {
    resourceType: "Claim",
    identifier: [{ system: "https://clinic.example/claims", value: spec.identifier ?? randomUUID() }],
    status: "active",
    type: { coding: [{ system: CODE_SYSTEMS.claimType, code: "institutional" }] },
    use: spec.use ?? "claim",
    patient: { reference: `Patient/${patientId}` },
    created: new Date().toISOString(),
    provider: { reference: "Organization/clinic-001" },
    priority: { coding: [{ system: CODE_SYSTEMS.processPriority, code: "normal" }] },
    insurance: [{ sequence: 1, focal: true, coverage: { reference: `Coverage/${spec.coverageId ?? `cov-${patientId}`}` } }],
    diagnosis: (spec.diagnoses ?? ["J06.9"]).map((code, i) => ({
      sequence: i + 1,
      diagnosisCodeableConcept: { coding: [{ system: CODE_SYSTEMS.icd10am, code }] },
    })),
    item: (spec.items ?? [{ code: "99213", price: 250 }]).map((item, i) => ({
      sequence: i + 1,
      productOrService: { coding: [{ system: CODE_SYSTEMS.cpt, code: item.code }] },
      servicedDate: today,
      quantity: { value: item.quantity ?? 1 },
      unitPrice: { value: item.price, currency: "SAR" },
    })),
  };
}
