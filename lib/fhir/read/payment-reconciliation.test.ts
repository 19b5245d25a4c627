import { describe, expect, it } from "vitest";
import { EXTENSIONS } from "../nphies/extensions";
import { readPaymentReconciliation } from "./payment-reconciliation";

/**
 * A remittance as a payer on the national exchange writes it (guide v2.7, profile release note 4.1:
 * the detail's component extensions): claim C-1 approved 20,000.00, paid early — the payer keeps a
 * 1,000.00 early-payment discount and the exchange a 95.00 fee, so 18,905.00 reaches the clinic; a
 * second claim paid in full; an advance; and the reversal of an earlier payment of 300.50.
 */
const sar = (value: number) => ({ value, currency: "SAR" });
const payType = (code: string) => ({ coding: [{ system: "http://terminology.hl7.org/CodeSystem/payment-type", code }] });
const claimRef = (value: string) => ({ type: "Claim", identifier: { system: "https://clinic.example/fhir/claim-id/clinic-001", value } });

const remittance = {
  resourceType: "PaymentReconciliation",
  id: "pr-1",
  identifier: [{ system: "https://payer.example/payment", value: "PAY-77" }],
  status: "active",
  created: "2026-11-25T08:00:00+03:00",
  paymentIssuer: { type: "Organization", identifier: { system: "http://nphies.sa/license/payer-license", value: "7000000101" } },
  outcome: "complete",
  paymentDate: "2026-11-25",
  paymentAmount: sar(18905 + 412.25 + 500 - 300.5),
  paymentIdentifier: { system: "https://payer.example/payment", value: "PAY-77" },
  detail: [
    {
      identifier: { value: "D-1" },
      type: payType("payment"),
      request: claimRef("C-1"),
      extension: [
        { url: EXTENSIONS.componentPayment, valueMoney: sar(20000) },
        { url: EXTENSIONS.componentEarlyFee, valueMoney: sar(1000) },
        { url: EXTENSIONS.componentNphiesFee, valueMoney: sar(95) },
      ],
      amount: sar(18905),
    },
    { identifier: { value: "D-2" }, type: payType("payment"), request: claimRef("C-2"), amount: sar(412.25) },
    { identifier: { value: "D-3" }, type: payType("advance"), amount: sar(500) },
    { identifier: { value: "D-4" }, predecessor: { value: "D-0" }, type: payType("adjustment"), request: claimRef("C-3"), amount: sar(-300.5) },
  ],
};

describe("readPaymentReconciliation: components, advances, reversals, to the halala", () => {
  it("a claim short by exactly its fees settles its benefit in full; the remittance adds up to the halala", () => {
    const { view } = readPaymentReconciliation(remittance);
    const [fee, plain, advance, reversal] = view.details;
    expect(fee).toMatchObject({ kind: "payment", amountMinor: 1_890_500, paymentMinor: 2_000_000, earlyFeeMinor: 100_000, exchangeFeeMinor: 9_500, settledMinor: 2_000_000 });
    expect(fee!.componentGapMinor).toBeUndefined();
    // What reached the clinic is 1,095.00 below the benefit — and the claim is not short.
    expect(2_000_000 - fee!.amountMinor!).toBe(109_500);
    expect(2_000_000 - fee!.settledMinor!).toBe(0);
    expect(plain).toMatchObject({ kind: "payment", amountMinor: 41_225, settledMinor: 41_225 });
    expect(advance).toMatchObject({ kind: "advance", amountMinor: 50_000 });
    expect(advance!.request).toBeUndefined();
    expect(reversal).toMatchObject({ kind: "reversal", amountMinor: -30_050, settledMinor: -30_050, predecessor: { value: "D-0" } });
    expect(view.paymentAmountMinor).toBe(1_890_500 + 41_225 + 50_000 - 30_050);
    expect(view.totals).toEqual({ amountMinor: 1_951_675, settledMinor: 2_000_000 + 41_225 + 50_000 - 30_050, earlyFeeMinor: 100_000, exchangeFeeMinor: 9_500 });
    expect(view.unallocatedMinor).toBe(0);
  });

  it("fees without a payment component settle amount + fees; components that do not add up are flagged by the halala", () => {
    const noPayment = { ...remittance, detail: [{ type: payType("payment"), request: claimRef("C-1"), extension: [{ url: EXTENSIONS.componentEarlyFee, valueMoney: sar(-1000) }], amount: sar(19000) }] };
    expect(readPaymentReconciliation(noPayment).view.details[0]).toMatchObject({ earlyFeeMinor: 100_000, settledMinor: 2_000_000 });
    const gap = {
      ...remittance,
      detail: [{ type: payType("payment"), request: claimRef("C-1"), extension: [{ url: EXTENSIONS.componentPayment, valueMoney: sar(20000) }, { url: EXTENSIONS.componentNphiesFee, valueMoney: sar(95) }], amount: sar(19905.01) }],
    };
    expect(readPaymentReconciliation(gap).view.details[0]!.componentGapMinor).toBe(1);
    expect(readPaymentReconciliation(gap).view.unallocatedMinor).toBe(1_890_500 + 41_225 + 50_000 - 30_050 - 1_990_501);
  });

  it("a reversal of a payment with fees takes the fees back too", () => {
    const reversed = {
      ...remittance,
      detail: [
        {
          predecessor: { value: "D-1" },
          type: payType("adjustment"),
          request: claimRef("C-1"),
          extension: [
            { url: EXTENSIONS.componentPayment, valueMoney: sar(-20000) },
            { url: EXTENSIONS.componentEarlyFee, valueMoney: sar(-1000) },
            { url: EXTENSIONS.componentNphiesFee, valueMoney: sar(-95) },
          ],
          amount: sar(-18905),
        },
      ],
    };
    const [line] = readPaymentReconciliation(reversed).view.details;
    expect(line).toMatchObject({ kind: "reversal", amountMinor: -1_890_500, settledMinor: -2_000_000, earlyFeeMinor: 100_000, exchangeFeeMinor: 9_500 });
    expect(line!.componentGapMinor).toBeUndefined();
  });
});
