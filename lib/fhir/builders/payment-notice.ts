import type { PaymentNotice } from "@medplum/fhirtypes";
import { money } from "../money";
import { NATIONAL_EXCHANGE, PAYMENT_SYSTEMS, type PaymentNoticeStatusCode } from "../systems";

/**
 * The PaymentNotice a clinic sends when a remittance has been received (`paid`) and when the money
 * has cleared (`cleared`): `payment` = the PaymentReconciliation, `recipient` = the national
 * exchange, `amount` = the remittance's amount. The id derives from the remittance and the status,
 * so a resend is the same notice.
 */
export interface PaymentNoticeInput {
  id: string;
  paymentId: string;
  paymentStatus: PaymentNoticeStatusCode;
  amountMinor: number;
  currency: string;
  providerOrgId: string;
  /** Day the money was received / cleared (YYYY-MM-DD). */
  paymentDate: string;
  created: Date;
  identifierSystem: string;
  /** The PaymentReconciliation's own identifier: the payment is named by it (decision 073). */
  paymentIdentifier?: { system?: string; value: string };
}

export function buildPaymentNotice(input: PaymentNoticeInput): PaymentNotice {
  return {
    resourceType: "PaymentNotice",
    id: input.id,
    identifier: [{ system: input.identifierSystem, value: input.id }],
    status: "active",
    created: input.created.toISOString(),
    provider: { reference: `Organization/${input.providerOrgId}` },
    // By the payment's identifier when known, as the exchange names payments; else by its id.
    payment: input.paymentIdentifier
      ? { type: "PaymentReconciliation", identifier: { ...(input.paymentIdentifier.system ? { system: input.paymentIdentifier.system } : {}), value: input.paymentIdentifier.value } }
      : { reference: `PaymentReconciliation/${input.paymentId}` },
    paymentDate: input.paymentDate,
    payee: { reference: `Organization/${input.providerOrgId}` },
    recipient: { type: "Organization", identifier: { system: NATIONAL_EXCHANGE.exchangeLicense, value: "NPHIES" } },
    amount: money(input.amountMinor, input.currency),
    paymentStatus: { coding: [{ system: PAYMENT_SYSTEMS.paymentStatus, code: input.paymentStatus }] },
  };
}
