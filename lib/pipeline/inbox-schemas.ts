import { z } from "zod";

/** The "Received, not matched" actions' input (one schema each, shared by the form and the server). */
const inboxId = z.string().uuid();
export const DismissInboxSchema = z.object({ id: inboxId, reason: z.string().trim().min(3, "reasonTooShort").max(500, "reasonTooLong") }).strict();
export const MatchInboxSchema = z.object({ id: inboxId, submissionId: z.string().trim().uuid("submissionIdInvalid") }).strict();
export const OpenInboxSchema = z.object({ id: inboxId }).strict();
