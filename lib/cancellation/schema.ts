import { z } from "zod";
import { CANCEL_REASONS } from "@/lib/fhir/browser";

/** Cancel / nullify: which submission, and the exchange's reason code (task-reason-code). */
export const cancelSchema = z.object({ id: z.uuid(), reason: z.enum(CANCEL_REASONS) });
export type CancelInput = z.infer<typeof cancelSchema>;
