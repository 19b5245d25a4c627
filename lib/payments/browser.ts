/** What client components may use of lib/payments. */
export { sendPaymentNoticeAction } from "./actions";
