/** What client components may import from lib/cancellation (no database). */
export { cancelSubmissionAction, statusCheckAction } from "./actions";
export type { CancelInput } from "./schema";
export type { StatusCheckResult } from "./service";
