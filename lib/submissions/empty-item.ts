import type { SubmissionItemInput } from "./form-schema";

/** A new, empty service line of the authorization / claim form (one of the service, on that day). */
export function emptyItem(servicedDate: string): SubmissionItemInput {
  return { code: "", servicedDate, quantity: "1", unitPrice: "" };
}
