import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../test-support";
import { env } from "./nphies-message";
import { corpusRunner } from "./runner";
import { INVALID_CASES } from "./invalid";
import { VALID_CASES } from "./valid";

/**
 * The corpus (docs/decisions/072): valid requests of every event and claim type are accepted with
 * the answer the exchange would give; strict conformance, as the exchange checks.
 */

type Json = Record<string, unknown>;

let t: TestSandbox;
let run: ReturnType<typeof corpusRunner>;
const table: { event: string; name: string; expected: string; actual: string }[] = [];
const measured: Record<string, unknown> = {};
const examples: Record<string, unknown> = {};

beforeAll(async () => {
  t = await startTestSandbox({ adjudicationDelayMs: 40, conformance: "strict" });
  run = corpusRunner(t);
});
afterAll(async () => {
  await t.stop();
  if (process.env.CORPUS_REPORT) {
    const fs = await import("node:fs");
    fs.writeFileSync(process.env.CORPUS_REPORT, JSON.stringify({ table, measured, examples }, null, 1));
  }
});

const header = (bundle: Json) => ((bundle.entry as Json[] | undefined)?.[0]?.resource ?? {}) as Json;

describe("corpus: valid requests are accepted with the exchange's answer", () => {
  for (const c of VALID_CASES) {
    it(`${c.event}: ${c.name}`, async () => {
      const e = env();
      const message = await c.build(e, run);
      const reply = await run.send(message);
      const h = header(reply.body);
      const actual = reply.status === 200 && (h.response as Json | undefined)?.code === "ok" ? "accepted" : `refused ${reply.status}`;
      table.push({ event: c.event, name: c.name, expected: "accepted", actual });
      expect(reply.status, JSON.stringify(reply.body).slice(0, 800)).toBe(200);
      expect((h.eventCoding as Json).code).toBe(c.replyEvent);
      expect(h.response).toMatchObject({ identifier: header(message).id, code: "ok" });
      // Every reply names its receiver and carries its profiles.
      expect((h.destination as Json[])[0]).toMatchObject({ receiver: { identifier: { system: "http://nphies.sa/license/provider-license", value: "PR-CLINIC-001" } } });
      expect((reply.body.meta as Json).profile).toBeDefined();
      const focusRef = ((h.focus as Json[] | undefined) ?? [])[0]?.reference;
      const focus = ((reply.body.entry as Json[]).find((x) => x.fullUrl === focusRef)?.resource ?? undefined) as Json | undefined;
      await c.check?.(focus, reply.body, run);
      if (c.measure) measured[c.name] = await c.measure(run);
    });
  }
});

/** The errors an answer carries: business answers (error[], Task.output) or an OperationOutcome. */
function errorsIn(body: Json): { code: string; expression: string }[] {
  const issues = body.resourceType === "OperationOutcome" ? (body.issue as Json[]) : undefined;
  if (issues) {
    return issues.map((i) => ({ code: String((((i.details as Json).coding as Json[])[0] ?? {}).code), expression: String((i.expression as string[])[0]) }));
  }
  const out: { code: string; expression: string }[] = [];
  for (const e of (body.entry as Json[] | undefined) ?? []) {
    const r = e.resource as Json;
    const lines = [...((r.error as Json[] | undefined) ?? []), ...((r.output as Json[] | undefined) ?? [])];
    for (const line of lines) {
      const concept = (line.code ?? line.valueCodeableConcept) as Json;
      const expression = ((line.extension as Json[] | undefined) ?? []).find((x) => String(x.url).endsWith("extension-error-expression"))?.valueString;
      out.push({ code: String(((concept.coding as Json[])[0] ?? {}).code), expression: String(expression) });
    }
    if (r.resourceType === "OperationOutcome") out.push(...errorsIn(r));
  }
  return out;
}

describe("corpus: invalid requests are refused in the exchange's style", () => {
  for (const c of INVALID_CASES) {
    it(`${c.rule}: ${c.name}`, async () => {
      const message = c.build(env());
      const reply = await run.send(message as Json);
      const errors = errorsIn(reply.body);
      const business = reply.status === 200 && (header(reply.body).response as Json | undefined)?.identifier === header(message as Json).id;
      const as = business ? "business" : reply.status === 400 ? "operation-outcome" : `status ${reply.status}`;
      const hit = errors.find((x) => x.code === c.expect.code && x.expression === c.expect.expression);
      table.push({ event: c.event, name: `${c.rule}: ${c.name}`, expected: `refused ${c.expect.code} @ ${c.expect.expression}`, actual: hit ? `refused ${hit.code} @ ${hit.expression}` : `${as} ${JSON.stringify(errors)}` });
      if (process.env.CORPUS_REPORT) examples[c.rule] = reply.body;
      expect(as, JSON.stringify(reply.body).slice(0, 600)).toBe(c.expect.as);
      expect(errors, JSON.stringify(errors)).toContainEqual({ code: c.expect.code, expression: c.expect.expression });
    });
  }
});
