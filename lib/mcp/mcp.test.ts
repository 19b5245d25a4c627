import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { auditEvents } from "@/lib/db/schema";
import { parseGatewayConfig } from "@/lib/gateway";
import { agentClaim } from "./testing/claims";
import { HARNESS_AGENTS, startMcpHarness, type McpHarness } from "./testing/harness";
import { agentSession, connectAgent, structured } from "./testing/session";

/*
 * The MCP server with the SDK's own client over real HTTP: lib/mcp behind a node HTTP server (as
 * app/mcp/[agent]/route.ts hands it requests), a PGlite database, the sandbox over real mTLS and
 * the outbox worker. e2e/mcp.spec.ts runs the same client against the production build.
 */

/** The role matrix as the issue and docs/mcp-tools.md state it — written out, not derived from TOOLS. */
const EXPECTED: Record<string, readonly string[]> = {
  record: ["find_patient", "check_eligibility", "last_eligibility", "estimate_share", "visits_ahead"],
  authorization: ["find_patient", "check_eligibility", "last_eligibility", "estimate_share", "request_authorization", "submission_status", "wait_for_decision", "answer_information_request"],
  claim: ["find_patient", "last_eligibility", "estimate_share", "submit_claim", "submission_status", "wait_for_decision", "denials_queue", "answer_information_request"],
  notification: ["submission_status", "wait_for_decision", "status_changes"],
};
const ALL_TOOLS = [...new Set(Object.values(EXPECTED).flat())].sort();
const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;

describe("MCP server of the agent gateway (SDK client over HTTP)", () => {
  let h: McpHarness;
  const tokens: Record<string, string> = {};
  let claimTokenId: string;
  const clients: Client[] = [];
  const connect = async (agent: string, token = tokens[agent]) => {
    const c = await connectAgent(h.url, agent, token);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    h = await startMcpHarness();
    for (const role of ["record", "authorization", "claim", "notification"]) {
      const t = await h.token(`${role} assistant`);
      tokens[role] = t.token;
      if (role === "claim") claimTokenId = t.id;
    }
  }, 180_000);
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await h?.close();
  });

  it("lists to each agent exactly its tools, with JSON Schemas and descriptions, and refuses the others as unknown", async () => {
    const matrix: string[] = [`| tool | ${Object.keys(EXPECTED).join(" | ")} |`];
    const rows = new Map<string, string[]>(ALL_TOOLS.map((t) => [t, []]));
    for (const role of Object.keys(EXPECTED)) {
      const client = await connect(role);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...EXPECTED[role]!].sort());
      for (const t of tools) {
        expect(t.description!.length).toBeGreaterThan(60);
        expect(t.inputSchema.type).toBe("object");
        expect(t.outputSchema?.type).toBe("object");
        expect((t._meta?.["clinic-exchange/ar"] as { description: string }).description).toMatch(/[\u0600-\u06FF]/);
      }
      for (const tool of ALL_TOOLS) {
        const expected = EXPECTED[role]!.includes(tool);
        // Called with empty arguments: an allowed tool answers (a tool error in words); a refused one is unknown.
        const actual = await client.callTool({ name: tool, arguments: {} }).then(
          () => true,
          (error: Error) => {
            expect(error.message).toMatch(/Unknown tool/);
            return false;
          },
        );
        expect(actual, `${role} × ${tool}`).toBe(expected);
        rows.get(tool)!.push(`${expected ? "yes" : "no"}/${actual ? "yes" : "no"}`);
      }
    }
    for (const [tool, cells] of rows) matrix.push(`| ${tool} | ${cells.join(" | ")} |`);
    console.log(`role matrix (expected/actual):\n${matrix.join("\n")}`);
  });

  it("answers bad input with a tool error in words naming each field and the fix", async () => {
    const record = await connect("record");
    const bad = await record.callTool({ name: "check_eligibility", arguments: { patientId: "not-a-uuid", coverageId: randomUUID(), servicedDate: "2026-02-30", purposes: ["everything"] } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toContain("nothing was done");
    expect(text(bad)).toMatch(/- patientId: expected the portal's patient id from find_patient \(a UUID\)/);
    expect(text(bad)).toMatch(/- servicedDate: not a calendar date/);
    expect(text(bad)).toMatch(/- purposes\.0: /);
    const unknownPatient = await record.callTool({ name: "check_eligibility", arguments: { patientId: randomUUID(), coverageId: randomUUID() } });
    expect(unknownPatient.isError).toBe(true);
    expect(text(unknownPatient)).toMatch(/- patientId: no patient with this id is registered in the portal/);
    const badId = await record.callTool({ name: "find_patient", arguments: { nationalId: "1234567890" } });
    expect(badId.isError).toBe(true);
    expect(text(badId)).toMatch(/nationalId/);
    expect(text(badId)).not.toMatch(/data\./);
    const claim = await connect("claim");
    const badClaim = agentClaim({ nationalId: "1000000001", coverageRef: "cov-1000000001", items: [{ code: "99213", price: 250 }], servicedDate: "2026-02-30" });
    const refused = await claim.callTool({ name: "submit_claim", arguments: { idempotencyKey: randomUUID(), claim: badClaim } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/- claim\.item\[0\]\.servicedDate: not a real calendar date/);
    const noKey = await claim.callTool({ name: "submit_claim", arguments: { claim: badClaim } });
    expect(text(noKey)).toMatch(/- idempotencyKey: /);
  });

  it("calls every tool: eligibility, estimate, authorization, scrubbed claim, status, queues, feed, resources", async () => {
    const record = await connect("record");
    const found = structured<{ found: boolean; patient: { patientId: string }; coverages: { coverageId: string; platformCoverageId: string }[] }>(
      await record.callTool({ name: "find_patient", arguments: { nationalId: "1000000001" } }),
    );
    expect(found.found).toBe(true);
    expect(structured(await record.callTool({ name: "find_patient", arguments: { nationalId: "1000000099" } }))).toEqual({ found: false, patient: null, coverages: [] });
    const coverage = found.coverages[0]!;
    const check = structured<{ checkId: string; outcome: string; benefits: unknown }>(
      await record.callTool({ name: "check_eligibility", arguments: { patientId: found.patient.patientId, coverageId: coverage.coverageId } }),
    );
    expect(check.outcome).toBe("in_force");
    const last = structured<{ found: boolean; check: { checkId: string } }>(await record.callTool({ name: "last_eligibility", arguments: { patientId: found.patient.patientId } }));
    expect(last.check.checkId).toBe(check.checkId);
    const estimate = structured<{ lines: { code: string; patientMinor: number; payerMinor: number }[]; unpriced: string[]; patient?: unknown }>(
      await record.callTool({ name: "estimate_share", arguments: { checkId: check.checkId, services: [{ code: "99213" }, { code: "99999" }] } }),
    );
    expect(estimate.lines[0]!.code).toBe("99213");
    expect(estimate.lines[0]!.payerMinor + estimate.lines[0]!.patientMinor).toBe(25_000);
    expect(estimate.unpriced).toContain("99999");
    expect(estimate.patient).toBeUndefined();
    const ahead = structured<{ visits: unknown[] }>(await record.callTool({ name: "visits_ahead", arguments: {} }));
    expect(Array.isArray(ahead.visits)).toBe(true);

    // The claim agent: the scrubber's findings come back as a tool error with the fix; nothing is queued.
    const claim = await connect("claim");
    const mri = { code: "70553", price: 2500 };
    const blocked = await claim.callTool({ name: "submit_claim", arguments: { idempotencyKey: randomUUID(), claim: agentClaim({ nationalId: "1000000001", coverageRef: coverage.platformCoverageId, items: [mri] }) } });
    expect(blocked.isError).toBe(true);
    expect(text(blocked)).toMatch(/claim scrubber found 1 problem/);
    expect(text(blocked)).toMatch(/needs a prior authorization.*Fix: /s);

    // The whole flow through the authorization and claim agents (the scripted session).
    const session = await agentSession(h.url, { authorization: tokens.authorization!, claim: tokens.claim! });
    expect(session.eligibility.outcome).toBe("in_force");
    expect(session.authorization.decided).toBe(true);
    expect(session.authorization.preAuthRef).toBeTruthy();
    expect(["complete", "partial"]).toContain(session.claim.status);

    // Idempotency: the same key answers the first submission.
    const key = randomUUID();
    const args = { idempotencyKey: key, claim: agentClaim({ nationalId: "1000000001", coverageRef: coverage.platformCoverageId, items: [{ code: "99213", price: 250 }] }) };
    const first = structured<{ submissionId: string; replay: boolean }>(await claim.callTool({ name: "submit_claim", arguments: args }));
    const again = structured<{ submissionId: string; replay: boolean }>(await claim.callTool({ name: "submit_claim", arguments: args }));
    expect(again).toMatchObject({ submissionId: first.submissionId, replay: true });
    expect(first.replay).toBe(false);
    const byKey = structured<{ submissionId: string }>(await claim.callTool({ name: "submission_status", arguments: { identifier: key } }));
    expect(byKey.submissionId).toBe(first.submissionId);

    // The claim agent does not see authorization requests (same words as for nothing at all).
    const hidden = await claim.callTool({ name: "submission_status", arguments: { submissionId: session.authorization.submissionId } });
    expect(hidden.isError).toBe(true);
    expect(text(hidden)).toBe("No submission with this id or identifier that this agent may read.");
    const queue = structured<{ items: unknown[]; totalAtStake: { currency: string } }>(await claim.callTool({ name: "denials_queue", arguments: { limit: 5 } }));
    expect(queue.totalAtStake.currency).toBe("SAR");
    const noRequest = await claim.callTool({ name: "answer_information_request", arguments: { submissionId: first.submissionId, informationRequestId: randomUUID(), text: "Report attached." } });
    expect(text(noRequest)).toBe("No information request with this id about this submission.");

    // The notification agent: the feed and the timeline resource.
    const notify = await connect("notification");
    const feed = structured<{ events: { submissionId: string }[] }>(await notify.callTool({ name: "status_changes", arguments: { limit: 200 } }));
    expect(feed.events.some((e) => e.submissionId === session.claim.submissionId)).toBe(true);
    const timeline = await notify.readResource({ uri: `clinic-exchange://submissions/${session.claim.submissionId}/timeline` });
    const parsed = JSON.parse((timeline.contents[0] as { text: string }).text) as { timeline: { to: string }[] };
    expect(parsed.timeline.map((e) => e.to)).toContain("sent");
    await expect(notify.readResource({ uri: `clinic-exchange://patients/${found.patient.patientId}/coverages` })).rejects.toThrow(/No such resource for this agent/);
    const coverages = await record.readResource({ uri: `clinic-exchange://patients/${found.patient.patientId}/coverages` });
    expect(JSON.parse((coverages.contents[0] as { text: string }).text).coverages[0].coverageId).toBe(coverage.coverageId);
    const templates = await record.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.name)).toEqual(["patient-coverages"]);
  });

  it("refuses a missing or bad token with the gateway's 401, and an unknown agent with 404", async () => {
    await expect(connectAgent(h.url, "claim", undefined)).rejects.toThrow(/401|unauthenticated|Bearer/i);
    await expect(connectAgent(h.url, "claim", `cxg_${"a".repeat(40)}`)).rejects.toThrow(/401|not valid/i);
    const res = await fetch(`${h.url}/mcp/claim`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: "unauthenticated", message: "Send the gateway token as Authorization: Bearer <token>." });
    const unknown = await fetch(`${h.url}/mcp/BillingBot`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${tokens.claim}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: "not_found", reason: "unknown_agent" });
    const get = await fetch(`${h.url}/mcp/claim`, { headers: { authorization: `Bearer ${tokens.claim}`, accept: "text/event-stream" } });
    expect(get.status).toBe(405);
  });

  it("rate-limits per token like the gateway: 429 with Retry-After once the bucket is spent", async () => {
    const limited = await h.token("limited assistant");
    h.config = parseGatewayConfig({ GATEWAY_AGENTS: HARNESS_AGENTS, PROVIDER_ORG_ID: h.sandbox.config.providerOrgId, PLATFORM_ENV: "sandbox", GATEWAY_RATE_PER_MINUTE: "4" });
    try {
      // initialize + notifications/initialized + tools/list = 3 requests; the 5th is refused.
      const client = await connect("record", limited.token);
      await client.listTools();
      await client.callTool({ name: "find_patient", arguments: { nationalId: "1000000001" } });
      await expect(client.callTool({ name: "find_patient", arguments: { nationalId: "1000000001" } })).rejects.toThrow(/429|Rate limit/);
      const res = await fetch(`${h.url}/mcp/record`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${limited.token}` },
        body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
      });
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(await res.json()).toMatchObject({ error: "rate_limited" });
    } finally {
      h.config = parseGatewayConfig({ GATEWAY_AGENTS: HARNESS_AGENTS, PROVIDER_ORG_ID: h.sandbox.config.providerOrgId, PLATFORM_ENV: "sandbox", GATEWAY_RATE_PER_MINUTE: "100000" });
    }
  });

  it("never answers junk with a 5xx or a stack: any body, method, tool name and arguments", async () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    const message = fc.oneof(
      fc.string({ maxLength: 200 }),
      json.map((v) => JSON.stringify(v)),
      fc
        .record({
          jsonrpc: fc.oneof(fc.constant("2.0"), fc.string({ maxLength: 5 })),
          id: fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.constant(null)),
          method: fc.oneof(fc.constantFrom("initialize", "tools/list", "tools/call", "resources/read", "resources/templates/list", "ping", "notifications/initialized"), fc.string({ maxLength: 30 })),
          params: fc.oneof(
            json,
            fc.record({ name: fc.oneof(fc.constantFrom("submit_claim", "find_patient", "check_eligibility", "wait_for_decision", "status_changes"), fc.string({ maxLength: 20 })), arguments: json }),
            fc.record({ uri: fc.oneof(fc.constant("clinic-exchange://patients/00000000-0000-4000-8000-000000000000/coverages"), fc.string({ maxLength: 80 })) }),
          ),
        })
        .map((m) => JSON.stringify(m)),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("claim", "record", "notification"), message, async (agent, body) => {
        const res = await fetch(`${h.url}/mcp/${agent}`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${tokens[agent]}` },
          body,
        });
        const answer = await res.text();
        expect(res.status, answer).toBeLessThan(500);
        expect(answer).not.toMatch(/at .*\.ts:\d+|Internal error|\bselect\b .* from /i);
      }),
      { numRuns: 120 },
    );
  });

  it("audits every call with the token, the tool and its target — and no patient identifiers", async () => {
    const rows = await h.database.db.select().from(auditEvents).where(and(eq(auditEvents.actorKind, "api"), eq(auditEvents.actorId, claimTokenId)));
    const actions = rows.map((r) => r.action);
    expect(actions).toContain("mcp.claim.initialize");
    expect(actions).toContain("mcp.claim.tools/list");
    const submits = rows.filter((r) => r.action === "mcp.claim.submit_claim");
    expect(submits.some((r) => r.targetType === "submission" && r.targetId)).toBe(true);
    expect(submits.some((r) => (r.details as { toolError?: string }).toolError === "scrubber")).toBe(true);
    expect(rows.some((r) => r.action === "mcp.claim.submission_status" && (r.details as { toolError?: string }).toolError === "not_found")).toBe(true);
    const all = await h.database.db.select().from(auditEvents);
    const mcpRows = all.filter((r) => r.action.startsWith("mcp."));
    expect(mcpRows.length).toBeGreaterThan(20);
    expect(JSON.stringify(mcpRows)).not.toMatch(/1000000001|Patient One|RML-GOLD/);
    expect(all.some((r) => r.action === "mcp.record.find_patient" && r.targetType === "patient")).toBe(true);
    expect(all.some((r) => r.action === "mcp.record.unknown_tool")).toBe(true);
  });
});
