/**
 * The scripted agent session over MCP (docs/decisions/095): with the SDK's client, the
 * authorization agent finds the patient, checks eligibility, requests an authorization and waits
 * for the payer's decision (status notifications on the call's stream); the claim agent submits the
 * claim with the authorization's reference and waits for its decision. Prints every JSON-RPC
 * message exchanged, and first the tool list each agent gets.
 *
 *   npm run mcp:demo                       # in-process portal (lib/mcp on HTTP), PGlite, sandbox over mTLS
 *   MCP_URL=http://127.0.0.1:3000 MCP_AUTHORIZATION_TOKEN=cxg_… MCP_CLAIM_TOKEN=cxg_… npm run mcp:demo
 */
// The owner reads boot hands down (the scrubber's payer filing windows among them): this process queues or sends itself.
import "@/lib/server/testing/owner-reads";
import { startMcpHarness, type McpHarness } from "@/lib/mcp/testing/harness";
import { agentSession, connectAgent } from "@/lib/mcp/testing/session";

const short = (value: unknown, max = 600) => {
  const text = JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
};

async function main() {
  let harness: McpHarness | undefined;
  let url = process.env.MCP_URL;
  let tokens = { authorization: process.env.MCP_AUTHORIZATION_TOKEN ?? "", claim: process.env.MCP_CLAIM_TOKEN ?? "" };
  if (!url) {
    harness = await startMcpHarness({ adjudicationDelayMs: 1_500 });
    url = harness.url;
    tokens = { authorization: (await harness.token("Authorization agent (demo)")).token, claim: (await harness.token("Claim agent (demo)")).token };
  }
  try {
    for (const agent of ["authorization", "claim"] as const) {
      const client = await connectAgent(url, agent, tokens[agent]);
      const { tools } = await client.listTools();
      console.log(`\n# tools/list as the ${agent} agent sees it (${tools.length})`);
      for (const t of tools) console.log(`- ${t.name} — ${t.title}: ${t.description?.split(". ")[0]}.`);
      await client.close();
    }
    console.log("\n# the session: messages exchanged (→ client to server, ← server to client)");
    const result = await agentSession(url, tokens, (step) => {
      const m = step.message as { method?: string; result?: { tools?: unknown } };
      // The tool lists were printed above; the schemas would drown the session.
      const body = m.result?.tools ? { ...m, result: { tools: "(as above)" } } : m;
      console.log(`[${step.agent}] ${step.direction} ${short(body)}`);
    });
    console.log("\n# outcome");
    console.log(short({ eligibility: result.eligibility.outcome, authorization: result.authorization, claim: result.claim, notificationsWhileWaiting: result.notifications.length }, 2000));
  } finally {
    await harness?.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
