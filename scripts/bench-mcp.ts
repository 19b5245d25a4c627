/**
 * Latency of one MCP tool call over the gateway path (docs/decisions/095): the SDK's client → HTTP →
 * lib/mcp → the gateway's kernel (token lookup, rate bucket, audit row) → a fresh stateless MCP
 * server → the tool's service → JSON answer. In-process portal on PGlite, sandbox over mTLS.
 * Prints p50/p95 per tool. `npm run bench:mcp` (BENCH_CALLS, default 200).
 */
// The owner reads boot hands down (the scrubber's payer filing windows among them): this process queues or sends itself.
import "@/lib/server/testing/owner-reads";
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { createGateway } from "@/lib/gateway";
import { startMcpHarness } from "@/lib/mcp/testing/harness";
import { agentClaim } from "@/lib/mcp/testing/claims";
import { connectAgent, structured } from "@/lib/mcp/testing/session";

const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main() {
  const h = await startMcpHarness();
  try {
    const token = (await h.token("bench")).token;
    const claim = await connectAgent(h.url, "claim", token);
    const submitted = structured<{ submissionId: string }>(
      await claim.callTool({ name: "submit_claim", arguments: { idempotencyKey: randomUUID(), claim: agentClaim({ nationalId: "1000000001", coverageRef: "cov-1000000001", items: [{ code: "99213", price: 250 }] }) } }),
    );
    const measure = async (label: string, call: () => Promise<void>) => {
      for (let i = 0; i < 20; i++) await call();
      const times: number[] = [];
      for (let i = 0; i < CALLS; i++) {
        const start = performance.now();
        await call();
        times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      console.log(`${label.padEnd(40)} p50 ${pct(times, 50).toFixed(1)} ms   p95 ${pct(times, 95).toFixed(1)} ms   max ${times[times.length - 1]!.toFixed(1)} ms`);
    };
    const cases: [string, Record<string, unknown>][] = [
      ["find_patient", { nationalId: "1000000001" }],
      ["submission_status", { submissionId: submitted.submissionId }],
      ["denials_queue", { limit: 10 }],
    ];
    console.log(`MCP tool call over the gateway path, ${CALLS} calls each (after 20 warm-up), one client, node ${process.version}`);
    for (const [name, args] of cases) {
      await measure(`MCP tools/call ${name}`, async () => void structured(await claim.callTool({ name, arguments: args })));
    }
    // For scale: the same lookup as POST /query record.lookup, in process (kernel + service, no HTTP, no MCP).
    const gateway = createGateway({ db: async () => h.database.db, config: () => h.config, port: h.client, warn: () => undefined });
    await measure("/query record.lookup (in process, baseline)", async () => {
      const res = await gateway.query(
        new Request("http://portal.test/query", {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify({ agent: "record", task: "lookup", data: { nationalId: "1000000001" } }),
        }),
      );
      if (res.status !== 200) throw new Error(`query ${res.status}`);
    });
    await claim.close();
  } finally {
    await h.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
