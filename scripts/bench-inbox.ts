/**
 * The inbox's cost per message (docs/decisions/096) on PGlite (in memory, this machine): what every polled
 * message now costs on top of applying it — reading a poll reply (each message on its own),
 * storing the reply whole in one transaction (one row per message, idempotent by message id), and
 * routing each stored message from the inbox into the pipeline (take with SKIP LOCKED, read,
 * apply the decision, settle). Also the cost of a repeat delivery (stored once, applied once).
 *
 *   npm run bench:inbox -- [--messages 500] [--per-poll 100]
 *
 * Prints milliseconds per message per step. Timing never fails the script.
 */
// The owner reads boot hands down (the scrubber's payer filing windows among them): this process queues or sends itself.
import "@/lib/server/testing/owner-reads";
import { randomUUID } from "node:crypto";
import { openDatabase } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { readClaimResponse, readMessage, type MessagePart } from "@/lib/fhir";
import { routeDue, storePollReply } from "@/lib/inbox";
import { seedDemoPatients } from "@/lib/patients/demo-data";
import { PIPELINE_INBOUND, incomingOf, routeInboxMessage } from "@/lib/pipeline";
import { applyPlatformNews } from "@/lib/submissions";
import { getSubmission, submit } from "@/lib/submissions";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number ≥ 1`);
  return value;
}

const BASE = "https://sandbox.example/fhir";

function claimResponseMessage(identifier: { system: string; value: string }, i: number) {
  const crId = randomUUID();
  const money = (value: number) => ({ value, currency: "SAR" });
  const cat = (code: string) => ({ coding: [{ system: "http://terminology.hl7.org/CodeSystem/adjudication", code }] });
  return {
    resourceType: "Bundle",
    id: randomUUID(),
    type: "message",
    timestamp: new Date().toISOString(),
    entry: [
      {
        fullUrl: `${BASE}/MessageHeader/${randomUUID()}`,
        resource: { resourceType: "MessageHeader", id: randomUUID(), eventCoding: { system: "http://nphies.sa/terminology/CodeSystem/ksa-message-events", code: "claim-response" }, source: { endpoint: BASE }, focus: [{ reference: `${BASE}/ClaimResponse/${crId}` }] },
      },
      {
        fullUrl: `${BASE}/ClaimResponse/${crId}`,
        resource: {
          resourceType: "ClaimResponse",
          id: crId,
          status: "active",
          type: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/claim-type", code: "institutional" }] },
          use: "claim",
          patient: { identifier: { value: "1000000001" } },
          created: new Date().toISOString(),
          insurer: { identifier: { value: "INS-BENCH" } },
          request: { identifier },
          outcome: "complete",
          item: [{ itemSequence: 1, adjudication: [{ category: cat("submitted"), amount: money(60 + (i % 40)) }, { category: cat("eligible"), amount: money(60 + (i % 40)) }, { category: cat("benefit"), amount: money(60 + (i % 40)) }] }],
          total: [{ category: cat("benefit"), amount: money(60 + (i % 40)) }],
        },
      },
    ],
  };
}

async function main() {
  const messages = arg("messages", 500);
  const perPoll = Math.min(100, arg("per-poll", 100));
  const database = await openDatabase({ kind: "pglite-memory" });
  await runMigrations(database);
  const db = database.db;
  await seedDemoPatients(db);
  const claim = {
    resourceType: "Claim",
    status: "active",
    type: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/claim-type", code: "institutional" }] },
    use: "claim",
    patient: { reference: "Patient/1000000001" },
    created: new Date().toISOString(),
    provider: { reference: "Organization/clinic-001" },
    priority: { coding: [{ code: "normal" }] },
    insurance: [{ sequence: 1, focal: true, coverage: { reference: "Coverage/cov-1000000001" } }],
    item: [{ sequence: 1, productOrService: { coding: [{ code: "85025" }] }, quantity: { value: 1 }, unitPrice: { value: 60, currency: "SAR" } }],
  };
  // Sent claims waiting for their decisions.
  const identifiers: { system: string; value: string }[] = [];
  for (let i = 0; i < messages; i++) {
    const { id } = await submit({ db }, { kind: "claim", patientNationalId: "1000000001", claim });
    await applyPlatformNews({ db, pollAfterMs: 3_600_000 }, id, { status: "queued", source: "system" });
    const row = await getSubmission(db, id);
    identifiers.push({ system: row!.identifierSystem!, value: row!.identifierValue! });
  }
  const replies: Record<string, unknown>[] = [];
  for (let i = 0; i < messages; i += perPoll) {
    const batch = identifiers.slice(i, i + perPoll).map((identifier, j) => claimResponseMessage(identifier, i + j));
    replies.push({ resourceType: "Bundle", id: randomUUID(), type: "message", timestamp: new Date().toISOString(), entry: [{ fullUrl: `${BASE}/MessageHeader/${randomUUID()}`, resource: { resourceType: "MessageHeader", id: randomUUID(), eventCoding: { code: "poll-response" }, source: { endpoint: BASE } } }, ...batch.map((resource) => ({ fullUrl: `urn:uuid:${resource.id}`, resource }))] });
  }

  const ms = { read: 0, store: 0, route: 0, repeatStore: 0, repeatRoute: 0 };
  const lap = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e6;
  let applied = 0;
  const all: MessagePart[][] = [];
  for (const [n, reply] of replies.entries()) {
    let t = process.hrtime.bigint();
    const parts = readMessage(JSON.parse(JSON.stringify(reply))).view.parts;
    ms.read += lap(t);
    all.push(parts);
    t = process.hrtime.bigint();
    const pollId = randomUUID();
    await storePollReply(db, "bench", pollId, parts.map((p) => incomingOf(p, "poll")));
    ms.store += lap(t);
    t = process.hrtime.bigint();
    const pass = await routeDue(db, (row) => routeInboxMessage({ db, handlers: PIPELINE_INBOUND, clock: () => new Date(), pollAfterMs: 3_600_000, log: () => {} }, row));
    ms.route += lap(t);
    applied += pass.applied;
    if (n === 0) console.log(`first reply: ${parts.length} messages, ${pass.applied} applied`);
  }
  // The same replies delivered again: stored once (repeats found), nothing due, nothing applied twice.
  for (const parts of all) {
    let t = process.hrtime.bigint();
    await storePollReply(db, "bench", randomUUID(), parts.map((p) => incomingOf(p, "poll")));
    ms.repeatStore += lap(t);
    t = process.hrtime.bigint();
    const pass = await routeDue(db, (row) => routeInboxMessage({ db, handlers: PIPELINE_INBOUND, clock: () => new Date(), pollAfterMs: 3_600_000, log: () => {} }, row));
    ms.repeatRoute += lap(t);
    applied += pass.applied;
  }
  // Baseline: the same decisions applied straight (read + apply, no inbox), to show what the inbox adds.
  const direct: { id: string; identifier: { system: string; value: string } }[] = [];
  for (let i = 0; i < messages; i++) {
    const { id } = await submit({ db }, { kind: "claim", patientNationalId: "1000000001", claim });
    await applyPlatformNews({ db, pollAfterMs: 3_600_000 }, id, { status: "queued", source: "system" });
    const row = await getSubmission(db, id);
    direct.push({ id, identifier: { system: row!.identifierSystem!, value: row!.identifierValue! } });
  }
  let t0 = process.hrtime.bigint();
  for (const [i, d] of direct.entries()) {
    const message = readMessage(claimResponseMessage(d.identifier, i)).view;
    const read = readClaimResponse(message.focus[0]);
    await applyPlatformNews({ db, pollAfterMs: 3_600_000 }, d.id, { status: "complete", response: read as never, source: "poll" });
  }
  const directMs = lap(t0);
  t0 = process.hrtime.bigint();
  const per = (v: number) => (v / messages).toFixed(3);
  console.log(`inbox on PGlite (in memory), ${messages} messages in poll replies of ${perPoll}; applied ${applied} (expected ${messages})`);
  console.log(`  read (each message on its own)     ${per(ms.read)} ms/message`);
  console.log(`  store (whole, one tx per reply)     ${per(ms.store)} ms/message`);
  console.log(`  route (take, read, apply, settle)   ${per(ms.route)} ms/message`);
  console.log(`  inbox cost (store + route)          ${per(ms.store + ms.route)} ms/message`);
  console.log(`  repeat delivery: store ${per(ms.repeatStore)} + route ${per(ms.repeatRoute)} ms/message`);
  console.log(`  baseline without the inbox (read + apply) ${per(directMs)} ms/message → the inbox adds ${per(ms.read + ms.store + ms.route - directMs)} ms/message`);
  await database.close();
}

main().catch((error: unknown) => {
  console.error(`bench-inbox: ${(error as Error).message}`);
  process.exit(1);
});
