import { z } from "zod";

/**
 * The form of the sandbox's answers (sandbox/README.md, "Answer styles" — the sandbox's extension of
 * the spec). `default`: the spec's own form. `national`: the same adjudication, answered the way a
 * national exchange writes it (absolute and identifier-only references, per-item outcome
 * extensions, added items, process notes, network/unit/term on benefits). Set at start with
 * `SANDBOX_ANSWER_STYLE` and changed at run time with `PUT /_admin/answer-style`; not persisted.
 * Unset, REST answers in `default` and messages in `national`, as the national exchange writes them.
 */
export const ANSWER_STYLES = ["default", "national"] as const;
export type AnswerStyle = (typeof ANSWER_STYLES)[number];

export const AnswerStylePatchSchema = z.object({ style: z.enum(ANSWER_STYLES) }).strict();

/** The protocol an answer goes out in: unless set, messaging answers in the national style (decision 073). */
export type Protocol = "rest" | "messaging";

export class AnswerStyleSetting {
  constructor(private style?: AnswerStyle) {}

  /** The style set, else the protocol's own: `national` for messages, `default` for REST. */
  get(protocol: Protocol = "rest"): AnswerStyle {
    return this.style ?? (protocol === "messaging" ? "national" : "default");
  }

  set(style: AnswerStyle): AnswerStyle {
    this.style = style;
    return this.style;
  }

  /** Back to each protocol's own style. */
  reset(): AnswerStyle {
    this.style = undefined;
    return this.get();
  }
}
