/** What client components may use of lib/deadlines (pure). */
export { WARN_DAYS, type Deadline, type DeadlineKind } from "./deadline";
export { saveInsurerAction } from "./actions";
export type { InsurerFormInput } from "./schema";
