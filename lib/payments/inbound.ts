import { eq } from "drizzle-orm";
import { tables, type Db } from "@/lib/db";
import { emitGeneralLive, submissionForRequest, type InboundHandler } from "@/lib/pipeline";
import { getSubmission, noteOnTimeline } from "@/lib/submissions";
import { isFhirReadError, readPaymentReconciliation, referenceId } from "@/lib/fhir";

const { remittances, remittanceLines } = tables;

/** The live event of a remittance's arrival (the Payments page, the dashboard): ids, counts, amounts. */
export const REMITTANCE_EVENT = "payments.remittance";
const REMITTANCE_AUDIENCE = ["billing", "manager"] as const;
/** The live event on each claim a remittance pays (its page, the live board), with its timeline entry. */
export const CLAIM_PAID_EVENT = "payment.remittance";

/**
 * A remittance (PaymentReconciliation) the platform sent on its own, read once by lib/fhir's
 * reader: stored once (by its platform id; a repeated delivery is `unchanged`), each detail line
 * with its kind, its components (payment, early-payment fee, the exchange's fee) and what settles
 * the claim, matched to a claim of this portal — by the platform's Claim id first, then by the
 * claim's business identifier — or kept unmatched (an advance names no claim). Amounts are exact,
 * signed halalas (a reversal is negative); an amount with more than two decimals is refused.
 */
export const paymentReconciliationInbound: InboundHandler = async (context, resource) => {
  let read: ReturnType<typeof readPaymentReconciliation>;
  try {
    read = readPaymentReconciliation(resource);
  } catch (error) {
    if (!isFhirReadError(error)) throw error;
    context.log(`[payments] a PaymentReconciliation that is not valid R4 (${error.path})`);
    return "unrouted";
  }
  const view = read.view;
  if (!view.id) return "unrouted";
  const [known] = await context.db.select({ id: remittances.id }).from(remittances).where(eq(remittances.platformId, view.id)).limit(1);
  if (known) return "unchanged";

  // Signed and exact: a reversal's negative amounts are kept as such (never read as 0).
  if (view.paymentAmountMinor === undefined || !view.paymentDate) {
    context.log("[payments] a PaymentReconciliation without a usable paymentAmount or paymentDate");
    return "unrouted";
  }
  if (view.details.some((d) => d.amountMinor === undefined && d.settledMinor === undefined)) {
    context.log("[payments] a PaymentReconciliation with a detail amount that is not exact to the halala");
    return "unrouted";
  }
  const lines = [];
  for (const detail of view.details) {
    const request = detail.request;
    const row = request ? await submissionForRequest(context.db, request) : undefined;
    lines.push({
      position: detail.position,
      requestPlatformId: referenceId(request, "Claim") ?? null,
      requestIdentifierSystem: request?.identifier?.system ?? null,
      requestIdentifierValue: request?.identifier?.value ?? null,
      type: detail.typeCode ?? null,
      kind: detail.kind,
      amountMinor: detail.amountMinor ?? 0,
      settledMinor: detail.settledMinor ?? detail.amountMinor ?? 0,
      paymentMinor: detail.paymentMinor ?? null,
      earlyFeeMinor: detail.earlyFeeMinor ?? null,
      exchangeFeeMinor: detail.exchangeFeeMinor ?? null,
      componentGapMinor: detail.componentGapMinor ?? null,
      identifierValue: detail.identifier?.value ?? null,
      predecessorValue: detail.predecessor?.value ?? null,
      submissionId: row?.kind === "claim" ? row.id : null,
    });
  }
  return insertRemittance(context.db, {
    platformId: view.id,
    paymentIdentifier: view.paymentIdentifier?.value ?? view.identifiers[0]?.value ?? null,
    insurerId: referenceId(view.paymentIssuer, "Organization") ?? null,
    paymentDate: view.paymentDate,
    amountMinor: view.paymentAmountMinor,
    currency: view.currency ?? "SAR",
    resource,
    source: context.source,
    messageId: context.messageId ?? null,
    receivedAt: context.clock(),
    lines,
  });
};

async function insertRemittance(
  db: Db,
  row: Omit<typeof remittances.$inferInsert, "id"> & { lines: Omit<typeof remittanceLines.$inferInsert, "remittanceId">[] },
): Promise<"applied" | "unchanged"> {
  const { lines, ...remittance } = row;
  return db.transaction(async (tx) => {
    const [inserted] = await tx.insert(remittances).values(remittance).onConflictDoNothing().returning({ id: remittances.id });
    if (!inserted) return "unchanged"; // another delivery of the same remittance won the race
    if (lines.length > 0) await tx.insert(remittanceLines).values(lines.map((l) => ({ ...l, remittanceId: inserted.id })));
    // Each paid claim's timeline (and open claim pages, live); then the Payments page.
    const at = remittance.receivedAt ?? new Date();
    const matched = [...new Set(lines.flatMap((l) => (l.submissionId ? [l.submissionId] : [])))];
    for (const id of matched) {
      const claim = await getSubmission(tx, id);
      if (!claim) continue;
      const amountMinor = lines.filter((l) => l.submissionId === id).reduce((sum, l) => sum + (l.amountMinor ?? 0), 0);
      const settledMinor = lines.filter((l) => l.submissionId === id).reduce((sum, l) => sum + (l.settledMinor ?? 0), 0);
      await noteOnTimeline(tx, claim, { kind: CLAIM_PAID_EVENT, note: "remittanceReceived", source: remittance.source === "webhook" ? "webhook" : "poll", payload: { remittanceId: inserted.id, amountMinor, settledMinor, reversal: settledMinor < 0 } }, at);
    }
    await emitGeneralLive(tx, REMITTANCE_EVENT, REMITTANCE_AUDIENCE, {
      remittanceId: inserted.id,
      amountMinor: remittance.amountMinor,
      currency: remittance.currency,
      lines: lines.length,
      unmatched: lines.filter((l) => !l.submissionId).length,
    });
    return "applied";
  });
}
