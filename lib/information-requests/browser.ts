/** What client components may import from information requests (no database). */
export { answerInformationRequestAction } from "./actions";
export type { AnswerInput } from "./schema";

/** The form's schema (and zod), loaded when the form is first used: not in the page's first-load JavaScript. */
export const loadAnswerSchema = () => import("./schema").then((m) => m.answerSchema);
