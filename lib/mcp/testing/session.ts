import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult, JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { agentClaim } from "./claims";

/** A transport that reports every JSON-RPC message it sends and receives (the demo prints them). */
export class LoggingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];
  constructor(
    private readonly inner: Transport,
    private readonly log: (direction: "→" | "←", message: JSONRPCMessage) => void,
  ) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      this.log("←", message);
      this.onmessage?.(message, extra);
    };
  }
  get sessionId() {
    return this.inner.sessionId;
  }
  setProtocolVersion(version: string) {
    this.inner.setProtocolVersion?.(version);
  }
  start() {
    return this.inner.start();
  }
  send(message: JSONRPCMessage, options?: TransportSendOptions) {
    this.log("→", message);
    return this.inner.send(message, options);
  }
  close() {
    return this.inner.close();
  }
}

/** An MCP client of the SDK connected to /mcp/{agent} with a gateway token. */
export async function connectAgent(baseUrl: string, agent: string, token: string | undefined, log?: (direction: "→" | "←", message: JSONRPCMessage) => void): Promise<Client> {
  const client = new Client({ name: `clinic-${agent}-agent`, version: "1.0.0" });
  const http = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp/${encodeURIComponent(agent)}`), {
    requestInit: { headers: token ? { Authorization: `Bearer ${token}` } : {} },
  });
  await client.connect(log ? new LoggingTransport(http, log) : http);
  return client;
}

/** The structured answer of a successful tool call (throws with the tool's words otherwise). */
export function structured<T = Record<string, unknown>>(result: unknown): T {
  const r = result as CallToolResult;
  if (r.isError) throw new Error(`tool error: ${(r.content[0] as { text?: string } | undefined)?.text ?? ""}`);
  return r.structuredContent as T;
}

export interface SessionStep {
  agent: string;
  direction: "→" | "←";
  message: JSONRPCMessage;
}

/**
 * The scripted agent session (scripts/mcp-demo.ts prints it; lib/mcp/mcp.test.ts checks it): the
 * authorization agent finds the patient, checks eligibility, requests an authorization for an MRI
 * and waits for the payer's decision (status notifications arrive on the call's stream); the claim
 * agent then submits the claim with the authorization's reference, and waits for its decision.
 */
export async function agentSession(baseUrl: string, tokens: { authorization: string; claim: string }, onStep: (step: SessionStep) => void = () => undefined) {
  const auth = await connectAgent(baseUrl, "authorization", tokens.authorization, (direction, message) => onStep({ agent: "authorization", direction, message }));
  const claims = await connectAgent(baseUrl, "claim", tokens.claim, (direction, message) => onStep({ agent: "claim", direction, message }));
  try {
    const found = structured<{ patient: { patientId: string }; coverages: { coverageId: string; platformCoverageId: string }[] }>(
      await auth.callTool({ name: "find_patient", arguments: { nationalId: "1000000001" } }),
    );
    const coverage = found.coverages[0]!;
    const eligibility = structured<{ checkId: string; outcome: string }>(
      await auth.callTool({ name: "check_eligibility", arguments: { patientId: found.patient.patientId, coverageId: coverage.coverageId } }),
    );
    const mri = { code: "70553", price: 2500 };
    const requested = structured<{ submissionId: string }>(
      await auth.callTool({ name: "request_authorization", arguments: { idempotencyKey: randomUUID(), claim: agentClaim({ nationalId: "1000000001", coverageRef: coverage.platformCoverageId, items: [mri] }) } }),
    );
    const notifications: unknown[] = [];
    auth.fallbackNotificationHandler = async (n) => {
      notifications.push(n);
    };
    const authDecision = structured<{ status: string; decided: boolean }>(
      await auth.callTool({ name: "wait_for_decision", arguments: { submissionId: requested.submissionId, timeoutSeconds: 60 } }, undefined, {
        onprogress: (p) => notifications.push({ progress: p }),
        timeout: 90_000,
      }),
    );
    const authStatus = structured<{ decision: { preAuthRef?: string } | null }>(await auth.callTool({ name: "submission_status", arguments: { submissionId: requested.submissionId } }));
    const preAuthRef = authStatus.decision?.preAuthRef;
    const submitted = structured<{ submissionId: string; status: string }>(
      await claims.callTool({
        name: "submit_claim",
        arguments: { idempotencyKey: randomUUID(), claim: agentClaim({ nationalId: "1000000001", coverageRef: coverage.platformCoverageId, items: [mri], ...(preAuthRef ? { preAuthRef } : {}) }) },
      }),
    );
    const claimDecision = structured<{ status: string; decided: boolean }>(
      await claims.callTool({ name: "wait_for_decision", arguments: { submissionId: submitted.submissionId, timeoutSeconds: 60 } }, undefined, { timeout: 90_000 }),
    );
    return { patientId: found.patient.patientId, eligibility, authorization: { ...requested, ...authDecision, preAuthRef }, notifications, claim: { ...submitted, ...claimDecision } };
  } finally {
    await auth.close();
    await claims.close();
  }
}
