import { and, eq } from "drizzle-orm";
import { tables, type Db } from "@/lib/db";
import { PORTAL_URI_BASE, buildPaymentNotice, type PaymentNoticeStatusCode } from "@/lib/fhir";
import { stableUuid, type PlatformPort } from "@/lib/platform";

const { remittances, paymentNotices } = tables;

export interface NoticeDeps {
  db: Db;
  port: Pick<PlatformPort, "sendPaymentNotice">;
  providerOrgId: string;
  clock?: () => Date;
}

export type NoticeResult =
  | { ok: true; status: PaymentNoticeStatusCode; already: boolean }
  | { ok: false; error: "not_found" | "not_paid_yet" | "platform"; message?: string };

/**
 * Billing marks a remittance received (`paid`) or, later, cleared at the bank (`cleared`): the portal
 * sends the PaymentNotice and records the answer. `cleared` needs an accepted `paid` first. A notice
 * already accepted is not sent again (`already`); a failed one may be tried again — same notice id,
 * so the platform sees one notice however often it is sent.
 */
export async function sendRemittanceNotice(deps: NoticeDeps, remittanceId: string, status: PaymentNoticeStatusCode, sentBy: string): Promise<NoticeResult> {
  const clock = deps.clock ?? (() => new Date());
  const [remittance] = await deps.db.select().from(remittances).where(eq(remittances.id, remittanceId)).limit(1);
  if (!remittance) return { ok: false, error: "not_found" };
  if (status === "paid" ? remittance.paidAt : remittance.clearedAt) return { ok: true, status, already: true };
  if (status === "cleared" && !remittance.paidAt) return { ok: false, error: "not_paid_yet" };

  const now = clock();
  const id = stableUuid(`payment-notice|${remittance.platformId}|${status}`);
  const notice = buildPaymentNotice({
    id,
    paymentId: remittance.platformId,
    paymentStatus: status,
    amountMinor: remittance.amountMinor,
    currency: remittance.currency,
    providerOrgId: deps.providerOrgId,
    paymentDate: now.toISOString().slice(0, 10),
    created: now,
    identifierSystem: `${PORTAL_URI_BASE}/payment-notice-id/${deps.providerOrgId}`,
    ...paymentIdentifierOf(remittance.resource),
  });
  try {
    const answer = await deps.port.sendPaymentNotice(notice);
    await deps.db.transaction(async (tx) => {
      await tx.insert(paymentNotices).values({ remittanceId, paymentStatus: status, outcome: "accepted", requestId: answer.requestId, notice: notice as unknown as Record<string, unknown>, sentBy, sentAt: now });
      await tx
        .update(remittances)
        .set(status === "paid" ? { paidAt: now } : { clearedAt: now })
        .where(and(eq(remittances.id, remittanceId)));
    });
    return { ok: true, status, already: false };
  } catch (error) {
    const e = error as { message?: string; requestId?: string; diagnostics?: string };
    const message = (e.diagnostics ?? e.message ?? "the platform did not accept the notice").slice(0, 500);
    await deps.db.insert(paymentNotices).values({ remittanceId, paymentStatus: status, outcome: "failed", requestId: e.requestId ?? "", notice: notice as unknown as Record<string, unknown>, error: message, sentBy, sentAt: now });
    return { ok: false, error: "platform", message };
  }
}

/** The PaymentReconciliation's identifier as received (its first one), to name the payment by. */
function paymentIdentifierOf(resource: unknown): { paymentIdentifier?: { system?: string; value: string } } {
  const identifier = (resource as { identifier?: { system?: unknown; value?: unknown }[] } | null)?.identifier?.[0];
  if (typeof identifier?.value !== "string" || !identifier.value) return {};
  return { paymentIdentifier: { ...(typeof identifier.system === "string" ? { system: identifier.system } : {}), value: identifier.value } };
}
