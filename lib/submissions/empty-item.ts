import type { SubmissionItemInput } from "./form-schema";

/** A new, empty service line of the authorization / claim form (one of the service, on that day), coded in `system`. */
export function emptyItem(servicedDate: string, system = ""): SubmissionItemInput {
  return { system, code: "", servicedDate, quantity: "1", unitPrice: "", tooth: "", tax: "", patientShare: "", package: false };
}
