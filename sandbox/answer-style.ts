import { z } from "zod";

/**
 * The form of the sandbox's answers (sandbox/README.md, "Answer styles" — the sandbox's extension of
 * the spec). `default`: the spec's own form. `national`: the same adjudication, answered the way a
 * national exchange writes it (absolute and identifier-only references, per-item outcome
 * extensions, added items, process notes, network/unit/term on benefits). Set at start with
 * `SANDBOX_ANSWER_STYLE` and changed at run time with `PUT /_admin/answer-style`; not persisted.
 */
export const ANSWER_STYLES = ["default", "national"] as const;
export type AnswerStyle = (typeof ANSWER_STYLES)[number];

export const AnswerStylePatchSchema = z.object({ style: z.enum(ANSWER_STYLES) }).strict();

export class AnswerStyleSetting {
  constructor(private style: AnswerStyle = "default") {}

  get(): AnswerStyle {
    return this.style;
  }

  set(style: AnswerStyle): AnswerStyle {
    this.style = style;
    return this.style;
  }
}
