/**
 * What the browser may import from lib/prescriptions: server-action references — never the
 * database (docs/decisions/041-module-entries.md).
 */
export { appealPrescriptionAction, searchPatientsForPrescriptionAction, submitPrescriptionAction, verifiedPrescriptionsAction } from "./actions";
export type { PrescriptionView } from "@/lib/submissions";
