import { z } from "zod";
import { MAX_FILES } from "@/lib/attachments/browser";

/** The answer form, shared by the browser form and the server action. */
export const answerSchema = z
  .object({
    id: z.uuid(),
    text: z.string().max(4000, "tooLong"),
    attachmentIds: z.array(z.uuid()).max(MAX_FILES, "tooMany"),
  })
  .refine((v) => v.text.trim() !== "" || v.attachmentIds.length > 0, { message: "empty", path: ["text"] });
export type AnswerInput = z.infer<typeof answerSchema>;
