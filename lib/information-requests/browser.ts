/** What client components may import from information requests (no database). */
export { answerInformationRequestAction } from "./actions";
export { answerSchema, type AnswerInput } from "./schema";
