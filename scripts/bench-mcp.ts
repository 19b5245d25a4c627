/**
 * Latency of one MCP tool call over the gateway path (issue 45): the SDK's client → HTTP →
 * lib/mcp → the gateway's kernel (token lookup, rate bucket, audit row) → a fresh stateless MCP
 * server → the tool's service → JSON answer. In-process portal on PGlite, sandbox over mTLS.
 * Prints p50/p95 per tool. `npm run bench:mcp` (BENCH_CALLS, default 200).
 */
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
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
    const cases: [string, Record<string, unknown>][] = [
      ["find_patient", { nationalId: "1000000001" }],
      ["submission_status", { submissionId: submitted.submissionId }],
      ["denials_queue", { limit: 10 }],
    ];
    console.log(`MCP tool call over the gateway path, ${CALLS} calls each (after 20 warm-up), one client, node ${process.version}`);
    for (const [name, args] of cases) {
      for (let i = 0; i < 20; i++) structured(await claim.callTool({ name, arguments: args }));
      const times: number[] = [];
      for (let i = 0; i < CALLS; i++) {
        const start = performance.now();
        structured(await claim.callTool({ name, arguments: args }));
        times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      console.log(`${name.padEnd(18)} p50 ${pct(times, 50).toFixed(1)} ms   p95 ${pct(times, 95).toFixed(1)} ms   max ${times[times.length - 1]!.toFixed(1)} ms`);
    }
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
