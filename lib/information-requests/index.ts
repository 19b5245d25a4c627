/**
 * Information requests (docs/decisions/045): a payer's CommunicationRequest about a claim or an
 * authorization, received by poll or webhook (inbound routing, decision 042), shown in the
 * "Information requested" work queue, on the claim page and live; answered with a Communication.
 */
export { INFORMATION_REQUEST_EVENT, acknowledgementInbound, informationRequestInbound } from "./inbound";
export {
  QUEUE_FILTERS,
  answerInformationRequest,
  countInformationRequests,
  isOverdue,
  listInformationRequests,
  type AnswerDeps,
  type AnswerResult,
  type InformationRequestRow,
  type QueueFilter,
} from "./service";
