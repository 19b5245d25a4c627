/**
 * Why a message is in "Received, not matched": one table of reasons (docs/decisions/096). The
 * stored text is English and free of patient data (it names element paths, event codes, resource
 * types and error names only); the page reads it back into a key and values to say it in the
 * page's language, with the technical part (a path, a code) shown as it is.
 */
export const INBOX_REASONS = {
  unreadable: (detail: string) => `not a readable FHIR R4 message: ${detail}`,
  notJson: () => "not JSON",
  notWebhook: (issues: string) => `not a webhook this portal reads: ${issues}`,
  unknownEvent: (event: string) => `unknown message event "${event}": kept, not applied`,
  empty: (event: string) => `a ${event} with nothing in it to apply`,
  matchedNothing: (types: string, event: string) => `matched nothing here: ${types} (${event})`,
  handlerFailed: (name: string) => `handling failed (${name}); retried later`,
  neverRead: () => "the announced resource was never read; the platform delivers it again",
} as const;
export type InboxReasonKey = keyof typeof INBOX_REASONS;

/** The stored shapes, read back (the same words as above, their variable parts captured). */
const SHAPES: readonly { key: InboxReasonKey; pattern: RegExp; names: readonly string[] }[] = [
  { key: "unreadable", pattern: /^not a readable FHIR R4 message: (.+)$/s, names: ["detail"] },
  { key: "notJson", pattern: /^not JSON$/, names: [] },
  { key: "notWebhook", pattern: /^not a webhook this portal reads: (.+)$/s, names: ["issues"] },
  { key: "unknownEvent", pattern: /^unknown message event "(.*)": kept, not applied$/, names: ["event"] },
  { key: "empty", pattern: /^a (.+) with nothing in it to apply$/, names: ["event"] },
  { key: "matchedNothing", pattern: /^matched nothing here: (.+) \((.+)\)$/, names: ["types", "event"] },
  { key: "handlerFailed", pattern: /^handling failed \((.+)\); retried later$/, names: ["name"] },
  { key: "neverRead", pattern: /^the announced resource was never read; the platform delivers it again$/, names: [] },
];

/** A stored reason as a key and its values; undefined for a text of no known shape (shown as it is). */
export function readInboxReason(text: string): { key: InboxReasonKey; values: Record<string, string> } | undefined {
  for (const shape of SHAPES) {
    const match = shape.pattern.exec(text);
    if (match) return { key: shape.key, values: Object.fromEntries(shape.names.map((name, i) => [name, match[i + 1] ?? ""])) };
  }
  return undefined;
}
