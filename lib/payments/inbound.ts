import type { PaymentReconciliation } from "@medplum/fhirtypes";
import { eq } from "drizzle-orm";
import { tables, type Db } from "@/lib/db";
import { submissionForRequest, type InboundHandler } from "@/lib/exchange";
import { isFhirReadError, readReference, readResource, referenceId, toMinorUnits } from "@/lib/fhir";

const { remittances, remittanceLines } = tables;

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
    return "applied";
  });
}
