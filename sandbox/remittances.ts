import { randomUUID } from "node:crypto";
import type { ClaimResponse, Money, Organization, PaymentReconciliation, PaymentReconciliationDetail, Reference } from "@medplum/fhirtypes";
import { z } from "zod";
import { FIXED_DISPOSITIONS, PAYMENT_SYSTEMS, PAYMENT_NOTICE_STATUS_CODES, NATIONAL_EXCHANGE, PLATFORM_CURRENCY, fromMinorUnits, money, nphies, toMinorUnits } from "../lib/fhir";
import { ANSWER_STYLES } from "./answer-style";
import type { SandboxContext } from "./context";
import { ApiError } from "./http";
import type { ReceivedPaymentNotice } from "./store";

const { EXTENSIONS } = nphies;

/**
 * The payer paying adjudicated claims (docs/decisions/047), the sandbox's extension of the spec in both
 * protocols:
 *  - a remittance is a PaymentReconciliation with one `detail` per claim paid; it reaches the
 *    clinic ONLY through the mailbox (`ctx.mailbox.post`, event `payment-reconciliation`): a
 *    `resource.available` webhook + `GET /PaymentReconciliation/{id}` in REST, a poll in messaging.
 *    Trainers and tests originate one with `POST /_admin/remittances` (below).
 *  - the clinic acknowledges it with a PaymentNotice (`paymentStatus` paid, then cleared): REST
 *    `POST /PaymentNotice` (201 + the stored notice), messaging event `payment-notice` addressed to
 *    the exchange (reply event `acknowledgement`, `response.code` ok). A notice about a remittance
 *    the clinic never received, or with an unknown status, is refused (400, OperationOutcome).
 */

const Sar = z.number().nonnegative().max(10_000_000);

export const RemittanceRequestSchema = z.object({
  /**
   * Claims to pay, by platform Claim id. `amount` (SAR, decimal) overrides the benefit: a short
   * payment. `earlyFee` / `exchangeFee` (SAR) are the exchange's components (docs/decisions/098):
   * the detail then states component-payment (the benefit or `amount`), component-early-fee and
   * component-nphies-fee, and its amount is what reaches the clinic: payment − fees. `reverse`
   * takes back the claim's latest payment not yet reversed (a negative detail naming it as
   * predecessor, its components negated).
   */
  claims: z
    .array(
      z.object({
        id: z.string().min(1).max(64),
        amount: Sar.optional(),
        earlyFee: Sar.optional(),
        exchangeFee: Sar.optional(),
        reverse: z.boolean().optional(),
      }),
    )
    .min(1)
    .max(500),
  /** An advance paid with the remittance (SAR): a detail of type advance naming no claim. */
  advance: Sar.positive().optional(),
  paymentDate: z.iso.date().optional(),
  /** The payer, when no claim is known (all lines unmatched); otherwise the first claim's payer. */
  payerId: z.string().min(1).max(64).optional(),
  /** The answer style to write it in; unset: the sandbox's (REST's) own (sandbox/answer-style.ts). */
  style: z.enum(ANSWER_STYLES).optional(),
});
export type RemittanceRequest = z.infer<typeof RemittanceRequestSchema>;

function benefitMinor(response: ClaimResponse): number {
  const total = response.total?.find((t) => t.category?.coding?.some((c) => c.code === "benefit"));
  return toMinorUnits(total?.amount?.value ?? 0) ?? 0;
}

/** Signed halalas → FHIR Money (a reversal is negative; lib/fhir `money` takes only amounts ≥ 0). */
const signedMoney = (minor: number): Money => (minor < 0 ? { value: -fromMinorUnits(-minor), currency: PLATFORM_CURRENCY as Money["currency"] } : money(minor));
const component = (url: string, minor: number) => ({ url, valueMoney: signedMoney(minor) });
const amountOf = (m: Money | undefined): number => (m?.value === undefined ? 0 : m.value < 0 ? -(toMinorUnits(-m.value) ?? 0) : (toMinorUnits(m.value) ?? 0));

/** The latest detail paying a claim that no later detail reverses (searched in the clinic's mail). */
function latestPayment(ctx: SandboxContext, claimId: string): PaymentReconciliationDetail | undefined {
  const details = ctx.mailbox
    .forClinic(ctx.providerOrgId)
    .filter((m) => m.resourceType === "PaymentReconciliation")
    .flatMap((m) => (m.resource as PaymentReconciliation).detail ?? []);
  const reversed = new Set(details.flatMap((d) => (d.predecessor?.value ? [d.predecessor.value] : [])));
  // By id (default style) or by the clinic's identifier (national style names the claim by it alone).
  const identifier = ctx.store.getClaim(claimId)?.claim.identifier?.[0]?.value;
  const paysClaim = (d: PaymentReconciliationDetail) => d.request?.reference?.endsWith(`Claim/${claimId}`) || (identifier !== undefined && d.request?.identifier?.value === identifier);
  return details.filter((d) => paysClaim(d) && amountOf(d.amount) > 0 && d.identifier?.value && !reversed.has(d.identifier.value)).at(-1);
}

/** Builds the remittance and posts it to the clinic's mailbox; unknown claim ids become lines the clinic cannot match (an amount is then required). */
export function originateRemittance(ctx: SandboxContext, request: RemittanceRequest): PaymentReconciliation {
  const now = new Date(ctx.clock.now());
  const date = request.paymentDate ?? now.toISOString().slice(0, 10);
  const national = (request.style ?? ctx.answerStyle.get("rest")) === "national";
  let payerId = request.payerId;
  const details: PaymentReconciliationDetail[] = request.claims.map((line, i) => {
    const record = ctx.store.getClaim(line.id);
    if (record && record.providerOrgId !== ctx.providerOrgId) throw ApiError.plain(404, "not-found", `claims[${i}].id: no such claim`);
    if (record) payerId ??= ctx.reference.coverages.get(record.coverageId)?.payerId;
    const identifier = record?.claim.identifier?.[0];
    // National style names the claim by the clinic's identifier only, as the exchange does (decision 073).
    const claimRef: Reference = national && identifier ? { type: "Claim", identifier } : { reference: `Claim/${line.id}`, ...(identifier ? { identifier } : {}) };
    const base = {
      identifier: { system: `${PAYMENT_SYSTEMS.sandboxPaymentIdentifier}/detail`, value: randomUUID() },
      request: claimRef,
      ...(record?.response.id && !national ? { response: { reference: `ClaimResponse/${record.response.id}` } } : {}),
      date,
      payee: { reference: `Organization/${ctx.providerOrgId}` },
    };
    if (line.reverse) {
      const earlier = latestPayment(ctx, line.id);
      if (!earlier) throw ApiError.plain(409, "business-rule", `claims[${i}].reverse: the claim has no payment to reverse`);
      const taken = (earlier.extension ?? []).filter((e) => [EXTENSIONS.componentPayment, EXTENSIONS.componentEarlyFee, EXTENSIONS.componentNphiesFee].includes(e.url));
      return {
        ...base,
        type: { coding: [{ system: PAYMENT_SYSTEMS.paymentType, code: "adjustment" }] },
        predecessor: earlier.identifier!,
        amount: signedMoney(-amountOf(earlier.amount)),
        ...(taken.length > 0 ? { extension: taken.map((e) => component(e.url, -amountOf(e.valueMoney))) } : {}),
      };
    }
    if (record && !["complete", "partial"].includes(record.status)) {
      throw ApiError.plain(409, "business-rule", `claims[${i}].id: the claim is ${record.status}; only adjudicated claims (complete or partial) are paid`);
    }
    if (!record && line.amount === undefined) throw ApiError.plain(400, "required", `claims[${i}].amount: a claim the sandbox does not know needs an amount`);
    const paymentMinor = line.amount !== undefined ? (toMinorUnits(line.amount) ?? 0) : benefitMinor(record!.response);
    const earlyFee = line.earlyFee !== undefined ? (toMinorUnits(line.earlyFee) ?? 0) : undefined;
    const exchangeFee = line.exchangeFee !== undefined ? (toMinorUnits(line.exchangeFee) ?? 0) : undefined;
    const net = paymentMinor - (earlyFee ?? 0) - (exchangeFee ?? 0);
    if (net < 0) throw ApiError.plain(400, "invalid", `claims[${i}]: the fees (${fromMinorUnits((earlyFee ?? 0) + (exchangeFee ?? 0))}) exceed the payment (${fromMinorUnits(paymentMinor)})`);
    const components =
      earlyFee !== undefined || exchangeFee !== undefined
        ? [
            component(EXTENSIONS.componentPayment, paymentMinor),
            ...(earlyFee !== undefined ? [component(EXTENSIONS.componentEarlyFee, earlyFee)] : []),
            ...(exchangeFee !== undefined ? [component(EXTENSIONS.componentNphiesFee, exchangeFee)] : []),
          ]
        : [];
    return {
      ...base,
      type: { coding: [{ system: PAYMENT_SYSTEMS.paymentType, code: "payment" }] },
      ...(components.length > 0 ? { extension: components } : {}),
      amount: money(net),
    };
  });
  if (request.advance !== undefined) {
    details.push({
      identifier: { system: `${PAYMENT_SYSTEMS.sandboxPaymentIdentifier}/detail`, value: randomUUID() },
      type: { coding: [{ system: PAYMENT_SYSTEMS.paymentType, code: "advance" }] },
      date,
      payee: { reference: `Organization/${ctx.providerOrgId}` },
      amount: money(toMinorUnits(request.advance) ?? 0),
    });
  }
  const total = details.reduce((sum, d) => sum + amountOf(d.amount), 0);
  const paymentNumber = `PAY-${now.getTime().toString(36).toUpperCase()}-${randomUUID().slice(0, 4).toUpperCase()}`;
  const payerLicense = payerId ? ctx.reference.payers.find((p) => p.id === payerId)?.license : undefined;
  const issuer: Reference<Organization> | undefined = national && payerLicense ? { type: "Organization", identifier: { system: NATIONAL_EXCHANGE.payerLicense, value: payerLicense } } : payerId ? { reference: `Organization/${payerId}` } : undefined;
  const resource: PaymentReconciliation = {
    resourceType: "PaymentReconciliation",
    id: randomUUID(),
    identifier: [{ system: PAYMENT_SYSTEMS.sandboxPaymentIdentifier, value: paymentNumber }],
    status: "active",
    created: now.toISOString(),
    ...(issuer ? { paymentIssuer: issuer } : {}),
    requestor: { reference: `Organization/${ctx.providerOrgId}` },
    outcome: "complete",
    disposition: FIXED_DISPOSITIONS.remittance,
    paymentDate: date,
    paymentAmount: signedMoney(total),
    paymentIdentifier: { system: PAYMENT_SYSTEMS.sandboxPaymentIdentifier, value: paymentNumber },
    detail: details,
  };
  ctx.mailbox.post(ctx.providerOrgId, resource, "payment-reconciliation");
  return resource;
}

/** Checks and records a clinic's PaymentNotice (either protocol). Throws ApiError 400 naming the path. */
export function receivePaymentNotice(ctx: SandboxContext, providerOrgId: string, body: Record<string, unknown>, protocol: "rest" | "messaging"): ReceivedPaymentNotice {
  const bad = (path: string, reason: string) => ApiError.plain(400, "invalid", `${path}: ${reason}`);
  if (body.resourceType !== "PaymentNotice") throw bad("resourceType", "expected a PaymentNotice");
  if (body.status !== "active") throw bad("PaymentNotice.status", "must be active");
  const named = body.payment as { reference?: string; identifier?: { system?: string; value?: string } } | undefined;
  // By reference, or by the payment's identifier as the exchange names it (decision 073).
  const paymentId =
    /(?:^|\/)PaymentReconciliation\/([A-Za-z0-9\-.]{1,64})$/.exec(named?.reference ?? "")?.[1] ??
    (named?.identifier?.value
      ? ctx.mailbox
          .forClinic(providerOrgId)
          .find((m) => m.resourceType === "PaymentReconciliation" && (m.resource as PaymentReconciliation).identifier?.some((i) => i.value === named.identifier!.value))?.id
      : undefined);
  if (!paymentId || !ctx.mailbox.read(providerOrgId, "PaymentReconciliation", paymentId)) {
    throw bad("PaymentNotice.payment", "must refer to a PaymentReconciliation sent to this clinic");
  }
  const coding = (body.paymentStatus as { coding?: { system?: string; code?: string }[] } | undefined)?.coding ?? [];
  const status = coding.find((c) => c.system === PAYMENT_SYSTEMS.paymentStatus)?.code;
  if (!status || !(PAYMENT_NOTICE_STATUS_CODES as readonly string[]).includes(status)) {
    throw bad("PaymentNotice.paymentStatus", `a coding of ${PAYMENT_SYSTEMS.paymentStatus}: paid or cleared`);
  }
  const amount = body.amount as { value?: unknown } | undefined;
  if (typeof amount?.value !== "number") throw bad("PaymentNotice.amount", "is required");
  if (typeof body.created !== "string") throw bad("PaymentNotice.created", "is required");
  const notice: ReceivedPaymentNotice = {
    id: typeof body.id === "string" && /^[A-Za-z0-9\-.]{1,64}$/.test(body.id) ? body.id : randomUUID(),
    providerOrgId,
    paymentId,
    paymentStatus: status as "paid" | "cleared",
    protocol,
    receivedAt: new Date(ctx.clock.now()).toISOString(),
    resource: { ...(body as object), resourceType: "PaymentNotice" } as ReceivedPaymentNotice["resource"],
  };
  notice.resource = { ...notice.resource, id: notice.id };
  ctx.store.recordPaymentNotice(notice);
  return notice;
}

/**
 * Optional automatic payer (`SANDBOX_AUTO_REMIT_MS`, option `autoRemitMs`; off by default): every
 * `delayMs`, each payer pays — in one remittance per payer — the clinic's claims that were decided
 * complete or partial with a benefit at least `delayMs` ago and appear in no remittance yet. What
 * was paid is read back from the mailbox (journaled), so a restart never pays a claim twice.
 */
export class AutoRemitter {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ctx: SandboxContext,
    private readonly delayMs: number,
  ) {}

  start(): void {
    if (this.delayMs <= 0 || this.timer) return;
    this.timer = setInterval(() => this.runOnce(), this.delayMs);
    this.timer.unref();
  }

  /** One round; answers the remittances posted (for tests). */
  runOnce(): PaymentReconciliation[] {
    const { ctx } = this;
    const paid = new Set(
      ctx.mailbox
        .forClinic(ctx.providerOrgId)
        .filter((m) => m.resourceType === "PaymentReconciliation")
        // By id (default style) or by the clinic's identifier (national style names the claim by it alone).
        .flatMap((m) => ((m.resource as PaymentReconciliation).detail ?? []).flatMap((d) => [d.request?.reference?.replace(/^.*Claim\//, "") ?? "", d.request?.identifier?.value ?? ""])),
    );
    const due = ctx.clock.now() - this.delayMs;
    const byPayer = new Map<string, string[]>();
    for (const record of ctx.store.allClaims()) {
      if (record.providerOrgId !== ctx.providerOrgId || record.use !== "claim" || paid.has(record.id) || paid.has(record.claim.identifier?.[0]?.value ?? "-")) continue;
      if (!["complete", "partial"].includes(record.status) || Date.parse(record.lastUpdated) > due || benefitMinor(record.response) <= 0) continue;
      const payer = ctx.reference.coverages.get(record.coverageId)?.payerId ?? "";
      byPayer.set(payer, [...(byPayer.get(payer) ?? []), record.id]);
    }
    return [...byPayer.values()].map((ids) => originateRemittance(ctx, { claims: ids.map((id) => ({ id })) }));
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
