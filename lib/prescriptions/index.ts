/**
 * lib/prescriptions: prescriptions sent for verification before they are dispensed (guide 7.11,
 * docs/decisions/116) — the prescriber's server actions and role rules. The prescription itself
 * (intake, Claim, states, reads) is a submission of its own kind in lib/submissions.
 */
export { appealablePrescriptionLines, refillsLeftOf, getPrescription, listPrescriptions, prescriptionSchema, submitPrescription, verifiedPrescriptionsFor, type PrescriptionView, type PrescriptionLineView } from "@/lib/submissions";
