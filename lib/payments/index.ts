/**
 * lib/payments (docs/decisions/047): remittances (PaymentReconciliation) arriving from the platform, matched
 * to claims; payment notices back (paid, then cleared); accounts-receivable aging. Decision 047.
 */
export { paymentReconciliationInbound } from "./inbound";
export { sendRemittanceNotice, type NoticeDeps, type NoticeResult } from "./notices";
export {
  AGING_BUCKETS,
  arAging,
  claimPayments,
  getRemittance,
  listRemittances,
  paidVsAdjudicated,
  type AgingBucket,
  type AgingRow,
  type ClaimPayment,
  type PaidVsAdjudicatedRow,
  type PaymentNoticeRow,
  type RemittanceLine,
  type RemittanceSummary,
} from "./queries";
