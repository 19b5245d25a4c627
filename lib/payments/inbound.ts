import type { PaymentReconciliation } from "@medplum/fhirtypes";
import { eq } from "drizzle-orm";
import { tables, type Db } from "@/lib/db";
import { emitGeneralLive, submissionForRequest, type InboundHandler } from "@/lib/pipeline";
import { noteOnTimeline } from "@/lib/submissions";
import { isFhirReadError, readReference, readResource, referenceId, toMinorUnits } from "@/lib/fhir";

const { remittances, remittanceLines, submissions } = tables;

/** The live event of a remittance's arrival (the Payments page, the dashboard): ids, counts, amounts. */
export const REMITTANCE_EVENT = "payments.remittance";
const REMITTANCE_AUDIENCE = ["billing", "manager"] as const;
/** The live event on each claim a remittance pays (its page, the live board), with its timeline entry. */
export const CLAIM_PAID_EVENT = "payment.remittance";

/**
 * A remittance (PaymentReconciliation) the platform sent on its own: stored once (by its platform
 * id; a repeated delivery is `unchanged`), each detail line matched to a claim of this portal — by
 * the platform's Claim id first, then by the claim's business identifier — or kept unmatched.
 * Amounts are exact halalas; an amount with more than two decimals is refused (not stored wrongly).
 */
export const paymentReconciliationInbound: InboundHandler = async (context, resource) => {
  let remittance: PaymentReconciliation;
  try {
    remittance = readResource<PaymentReconciliation>(resource, "PaymentReconciliation").raw;
  } catch (error) {
    if (!isFhirReadError(error)) throw error;
    context.log(`[payments] a PaymentReconciliation that is not valid R4 (${error.path})`);
    return "unrouted";
  }
  if (!remittance.id) return "unrouted";
  const [known] = await context.db.select({ id: remittances.id }).from(remittances).where(eq(remittances.platformId, remittance.id)).limit(1);
  if (known) return "unchanged";

  const amountMinor = toMinorUnits(remittance.paymentAmount?.value ?? Number.NaN);
  if (amountMinor === undefined || !remittance.paymentDate) {
    context.log("[payments] a PaymentReconciliation without a usable paymentAmount or paymentDate");
    return "unrouted";
  }
  const lines = [];
  for (const [position, detail] of (remittance.detail ?? []).entries()) {
    const request = readReference(detail.request);
    const row = request ? await submissionForRequest(context.db, request) : undefined;
    lines.push({
      position,
      requestPlatformId: referenceId(request, "Claim") ?? null,
      requestIdentifierSystem: request?.identifier?.system ?? null,
      requestIdentifierValue: request?.identifier?.value ?? null,
      type: detail.type?.coding?.[0]?.code ?? null,
      amountMinor: toMinorUnits(detail.amount?.value ?? 0) ?? 0,
      submissionId: row?.kind === "claim" ? row.id : null,
    });
  }
  const issuer = readReference(remittance.paymentIssuer);
  return insertRemittance(context.db, {
    platformId: remittance.id,
    paymentIdentifier: remittance.paymentIdentifier?.value ?? remittance.identifier?.[0]?.value ?? null,
    insurerId: referenceId(issuer, "Organization") ?? null,
    paymentDate: remittance.paymentDate,
    amountMinor,
    currency: remittance.paymentAmount?.currency ?? "SAR",
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
      const [claim] = await tx.select().from(submissions).where(eq(submissions.id, id));
      if (!claim) continue;
      const amountMinor = lines.filter((l) => l.submissionId === id).reduce((sum, l) => sum + (l.amountMinor ?? 0), 0);
      await noteOnTimeline(tx, claim, { kind: CLAIM_PAID_EVENT, note: "remittanceReceived", source: remittance.source === "webhook" ? "webhook" : "poll", payload: { remittanceId: inserted.id, amountMinor } }, at);
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
