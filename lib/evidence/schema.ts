import { z } from "zod";
import { MAX_FILES } from "@/lib/attachments/browser";

/** The most the clinic writes to the payer in one message (the payer reads it whole; nothing is cut). */
export const EVIDENCE_TEXT_MAX = 4000;

/**
 * Information sent to the payer unasked (docs/decisions/115), shared by the browser form, the
 * server action and the machine APIs: text and/or files, optionally the lines it is about.
 */
export const evidenceSchema = z
  .object({
    submissionId: z.uuid(),
    text: z.string().max(EVIDENCE_TEXT_MAX, "tooLong").default(""),
    attachmentIds: z.array(z.uuid()).max(MAX_FILES, "tooMany").default([]),
    /** The claim lines (sequences) the information is about; empty: the whole claim or authorization. */
    sequences: z.array(z.number().int().positive()).max(100).default([]),
  })
  .refine((v) => v.text.trim() !== "" || v.attachmentIds.length > 0, { message: "empty", path: ["text"] });
export type EvidenceInput = z.input<typeof evidenceSchema>;
