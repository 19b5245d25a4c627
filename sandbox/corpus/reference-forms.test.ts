import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../test-support";
import * as m from "./nphies-message";
import { corpusRunner } from "./runner";
import { claimMessage, eligibilityMessage } from "./valid";

/**
 * Property (docs/decisions/071): a request that is otherwise valid is accepted whatever R4
 * reference form it uses for its patient, coverage, provider, insurer and practitioner (absolute
 * fullUrl, urn:uuid, relative, identifier-only) and whichever serviced form its items use — under
 * strict conformance, as the exchange checks.
 */

type Json = Record<string, unknown>;

let t: TestSandbox;
let run: ReturnType<typeof corpusRunner>;
beforeAll(async () => {
  t = await startTestSandbox({ adjudicationDelayMs: 60_000, conformance: "strict" });
  run = corpusRunner(t);
});
afterAll(async () => {
  await t.stop();
});

const forms = fc.constantFrom<m.ReferenceForm>("absolute", "urn", "relative", "identifier");
const serviced = fc.constantFrom<m.ServicedForm>("date", "period");
const claimTypes = fc.constantFrom(
  { type: "professional" as const, items: [{ system: "services" as const, code: "SVC-0101", price: 150 }] },
  { type: "oral" as const, items: [{ system: "oralHealthOp" as const, code: "ORL-2003", price: 300, tooth: "21" }] },
  { type: "pharmacy" as const, items: [{ system: "medicationCodes" as const, code: "06280000000101", price: 8, quantity: 2, daysSupply: 5 }] },
  { type: "vision" as const, items: [{ system: "services" as const, code: "SVC-0401", price: 200 }] },
  { type: "institutional" as const, items: [{ system: "laboratory" as const, code: "LAB-4003", price: 120 }] },
);

const header = (bundle: Json) => ((bundle.entry as Json[])[0]!.resource ?? {}) as Json;
const focusOf = (bundle: Json) => {
  const ref = ((header(bundle).focus as Json[] | undefined) ?? [])[0]?.reference;
  return (bundle.entry as Json[]).find((e) => e.fullUrl === ref)?.resource as Json | undefined;
};

describe("every R4 reference form and both serviced forms are accepted", () => {
  it("claims and prior authorizations", async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(forms, serviced, claimTypes, fc.constantFrom("claim" as const, "preauthorization" as const), async (form, servicedForm, spec, use) => {
        n += 1;
        const e = m.env();
        const ps = m.parties({ doc: { kind: "iqama", value: "2456789011" }, memberId: "RML-55300", payer: m.PAYERS.rimal, form, practitionerLicense: "PRAC-10001" });
        const message = claimMessage(ps, e, { type: spec.type, use, serviced: servicedForm, identifier: `PROP-${n}-${form}-${servicedForm}`, items: spec.items.map((i) => ({ ...i })) });
        const reply = await run.send(message);
        expect(reply.status, JSON.stringify(reply.body).slice(0, 600)).toBe(200);
        const focus = focusOf(reply.body);
        expect(focus?.resourceType).toBe("ClaimResponse");
        expect(focus?.outcome, JSON.stringify(focus?.error ?? focus).slice(0, 600)).not.toBe("error");
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  it("eligibility requests", async () => {
    await fc.assert(
      fc.asyncProperty(forms, fc.boolean(), async (form, period) => {
        const e = m.env();
        const ps = m.parties({ doc: { kind: "national-id", value: "1087654321" }, memberId: "NKL-55400", payer: m.PAYERS.nakheel, form });
        const reply = await run.send(eligibilityMessage(ps, e, period ? { start: e.today, end: e.today } : { date: e.today }));
        expect(reply.status, JSON.stringify(reply.body).slice(0, 600)).toBe(200);
        const focus = focusOf(reply.body);
        expect(focus?.outcome, JSON.stringify(focus?.error ?? focus).slice(0, 600)).toBe("complete");
        expect((focus?.insurance as Json[])[0]?.inforce).toBe(true);
      }),
      { numRuns: 16 },
    );
  }, 60_000);
});
