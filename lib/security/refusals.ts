/**
 * The audit of requests proxy.ts refuses (docs/decisions/060). proxy.ts runs in the portal's own
 * process but imports single files, never the database (docs/decisions/041): the boot code hands
 * it a writer (lib/audit's, the only writer of audit_events) through this hook, kept on
 * globalThis because Next.js loads proxy.ts as a separate bundle in the same process. Without a
 * writer (tests, a request before boot finished) the refusal is still answered and counted.
 */

export interface RefusalEntry {
  actor: { kind: "user"; id: string; email: string; roles: readonly string[] } | { kind: "anonymous"; label: string };
  action: string;
  outcome: "denied";
  requestId: string;
  ip?: string;
  details: Record<string, unknown>;
}

type Writer = (entry: RefusalEntry) => Promise<void>;

const KEY = Symbol.for("clinic-exchange.refusal-writer");
const holder = globalThis as { [KEY]?: Writer };

/** Called once at boot with the audit writer. */
export function setRefusalWriter(writer: Writer | undefined): void {
  holder[KEY] = writer;
}

/** Records a refusal; never throws, never delays the answer by more than the write itself. */
export async function recordRefusal(entry: RefusalEntry): Promise<boolean> {
  const writer = holder[KEY];
  if (!writer) return false;
  try {
    await writer(entry);
    return true;
  } catch {
    return false;
  }
}
