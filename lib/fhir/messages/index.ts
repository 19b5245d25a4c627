/**
 * The national exchange's FHIR messaging (docs/decisions/034): the strict writer of message Bundles, the
 * poll-request Task, the 10 MB limit. Replies are read by `readMessage` in lib/fhir/read.
 */
export { buildBatchMessage, buildMessage, checkMessageRules, claimInBatch, type BatchInput, MessageBuildError, type BuiltMessage, type MessageDestination, type MessageInput } from "./build";
export { assertMessageSize, attachmentSizes, MESSAGE_LIMIT_BYTES, MessageTooLargeError, type AttachmentSize } from "./size";
export { buildPollTask, MAX_CLAIMS_PER_BATCH, MAX_MESSAGES_PER_POLL, type PollRequestInput } from "./poll";
