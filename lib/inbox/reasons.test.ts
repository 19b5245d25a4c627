import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { INBOX_REASONS, readInboxReason, type InboxReasonKey } from "./reasons";

/** Every reason the inbox stores reads back into words of both languages (docs/decisions/096). */
describe("the inbox's reasons", () => {
  const samples: Record<InboxReasonKey, { text: string; values: Record<string, string> }> = {
    unreadable: { text: INBOX_REASONS.unreadable("Bundle.timestamp: not a dateTime"), values: { detail: "Bundle.timestamp: not a dateTime" } },
    notJson: { text: INBOX_REASONS.notJson(), values: {} },
    notWebhook: { text: INBOX_REASONS.notWebhook("event, claim_id"), values: { issues: "event, claim_id" } },
    unknownEvent: { text: INBOX_REASONS.unknownEvent("mystery-notice"), values: { event: "mystery-notice" } },
    empty: { text: INBOX_REASONS.empty("claim-response"), values: { event: "claim-response" } },
    matchedNothing: { text: INBOX_REASONS.matchedNothing("ClaimResponse, Task", "claim-response"), values: { types: "ClaimResponse, Task", event: "claim-response" } },
    handlerFailed: { text: INBOX_REASONS.handlerFailed("TypeError"), values: { name: "TypeError" } },
    neverRead: { text: INBOX_REASONS.neverRead(), values: {} },
  };

  it("each stored reason reads back to its key and values", () => {
    for (const [key, sample] of Object.entries(samples)) expect(readInboxReason(sample.text), key).toEqual({ key, values: sample.values });
  });

  it("a text of no known shape is not guessed", () => {
    expect(readInboxReason("something else entirely")).toBeUndefined();
  });

  it("each reason has words in English and Arabic that use exactly its values", () => {
    for (const locale of ["en", "ar"]) {
      const messages = JSON.parse(readFileSync(join(__dirname, "..", "i18n", "messages", `${locale}.json`), "utf8")) as { inbox: { why: Record<string, string> } };
      expect(Object.keys(messages.inbox.why).sort(), locale).toEqual(Object.keys(INBOX_REASONS).sort());
      for (const [key, sample] of Object.entries(samples)) {
        const placeholders = [...(messages.inbox.why[key] ?? "").matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
        expect(placeholders, `${locale} ${key}`).toEqual(Object.keys(sample.values).sort());
      }
    }
  });
});
