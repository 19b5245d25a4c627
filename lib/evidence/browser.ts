/** What client components may import from evidence (no database). */
export { sendEvidenceAction } from "./actions";
export type { EvidenceInput } from "./schema";
