import { randomUUID } from "node:crypto";
import type { ClaimResponse, ClaimResponseItemAdjudication, Money } from "@medplum/fhirtypes";
import { z } from "zod";
import { CODE_SYSTEMS, NATIONAL_EXCHANGE, claimProcessingStatusExtension } from "../lib/fhir";
import type { SandboxContext } from "./context";

/**
 * The payer reissues a claim's or an authorization's decision (docs/decisions/097; the sandbox's admin
 * command `POST /_admin/claims/{id}/reissue`): a new ClaimResponse — a new id, the reissue-reason
 * extension — becomes the claim's answer. It reaches the clinic as every late answer does, in
 * both protocols and in either answer style: a `claim.status.changed` webhook and
 * `GET /ClaimResponse?request=` (REST), a poll in messaging (a new version of the claim is a new
 * message). `approved` pays every line in full (less its copay); `denied` pays nothing.
 */
/** The sandbox's reissue reason for a decision revised on information sent (not a code the guide prints: see below). */
export const REVISED_ON_INFORMATION = "correction";

export const ReissueRequestSchema = z
  .object({
    outcome: z.enum(["approved", "denied"]).default("approved"),
    /**
     * The reissue-reason code (extension-adjudication-reissue, guide Table 10); `cancel` withdraws
     * the decision. The guide v2.7 prints only `cancel` (3.5 Note for Implementers, printed p. 43;
     * 7.9.2, p. 110); the other codes of its value set are in the exchange's code lists, not in the
     * guide. `correction` is ours for a decision revised on information the clinic sent (7.4.2.3)
     * until a clinic imports the exchange's list (docs/decisions/121).
     */
    reason: z.string().regex(/^[A-Za-z0-9-]{1,40}$/).default(REVISED_ON_INFORMATION),
    /** Leave the extension out (a second answer without it: the portal must apply it just the same). */
    withoutReason: z.boolean().default(false),
  })
  .strict();
export type ReissueRequest = z.infer<typeof ReissueRequestSchema>;

const DECIDED = new Set(["complete", "partial", "denied"]);
const minor = (v: number | undefined) => Math.round((v ?? 0) * 100);
const amount = (m: number, currency: Money["currency"]): Money => ({ value: m / 100, currency });

function category(a: ClaimResponseItemAdjudication): string | undefined {
  return a.category?.coding?.[0]?.code;
}

export function reissueDecision(ctx: SandboxContext, claimId: string, input: ReissueRequest): { id: string; status: string; responseId: string } | "not-found" | "not-decided" {
  const record = ctx.store.getClaim(claimId);
  if (!record) return "not-found";
  if (!DECIDED.has(record.status)) return "not-decided";
  const status = input.reason === "cancel" ? "cancelled" : input.outcome === "approved" ? "complete" : "denied";
  const previous = record.response;
  const currency: Money["currency"] = previous.total?.[0]?.amount?.currency ?? "SAR";
  let benefitTotal = 0;
  let eligibleTotal = 0;
  let copayTotal = 0;
  let submittedTotal = 0;
  const items = (previous.item ?? []).map((item) => {
    const find = (code: string) => item.adjudication.find((a) => category(a) === code)?.amount?.value;
    const submitted = minor(find("submitted"));
    const copay = input.outcome === "approved" ? minor(find("copay")) : 0;
    const eligible = input.outcome === "approved" ? submitted : 0;
    const benefit = input.outcome === "approved" ? Math.max(0, submitted - copay) : 0;
    submittedTotal += submitted;
    eligibleTotal += eligible;
    copayTotal += copay;
    benefitTotal += benefit;
    const entry = (code: string, m: number, reason?: string): ClaimResponseItemAdjudication => ({
      category: { coding: [{ system: CODE_SYSTEMS.adjudication, code }] },
      ...(reason ? { reason: { coding: [{ system: CODE_SYSTEMS.adjudicationReason, code: reason }] } } : {}),
      amount: amount(m, currency),
    });
    return {
      itemSequence: item.itemSequence,
      adjudication: [entry("submitted", submitted), entry("eligible", eligible), entry("copay", copay), entry("benefit", benefit, input.outcome === "denied" ? "ar001" : undefined)],
    };
  });
  const total = (code: string, m: number) => ({ category: { coding: [{ system: CODE_SYSTEMS.adjudication, code }] }, amount: amount(m, currency) });
  const now = new Date(ctx.clock.now()).toISOString();
  const response: ClaimResponse = {
    ...previous,
    id: randomUUID(),
    created: now,
    meta: { ...previous.meta, lastUpdated: now },
    outcome: "complete",
    disposition: input.reason === "cancel" ? "Withdrawn by the payer" : input.outcome === "approved" ? "Reissued: approved in full" : "Reissued: not covered",
    extension: [
      ...(previous.extension ?? []).filter((e) => e.url !== claimProcessingStatusExtension("complete").url && e.url !== NATIONAL_EXCHANGE.reissueExtension),
      claimProcessingStatusExtension(status === "cancelled" ? "complete" : status),
      ...(input.withoutReason ? [] : [{ url: NATIONAL_EXCHANGE.reissueExtension, valueCodeableConcept: { coding: [{ system: NATIONAL_EXCHANGE.reissueReasonSystem, code: input.reason }] } }]),
    ],
    item: items,
    total: [total("submitted", submittedTotal), total("eligible", eligibleTotal), total("copay", copayTotal), total("benefit", benefitTotal)],
    ...(previous.payment ? { payment: { ...previous.payment, amount: amount(benefitTotal, currency) } } : {}),
  };
  ctx.store.updateClaim({ id: record.id, at: now, status, dueAt: undefined, response, consumption: record.consumption, preAuthRef: record.preAuthRef });
  ctx.webhooks.enqueue(record.id, status === "cancelled" ? "cancelled" : status);
  return { id: record.id, status, responseId: response.id! };
}
