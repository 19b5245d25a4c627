import type { SentUnder } from "./registry";

/*
 * The correction of a patient's national ID asks whether anything was sent under the number. The
 * submissions are a higher layer's (docs/decisions/127), so the staff action cannot ask them
 * itself: the composition (lib/server, at boot; the tests' setup) hands it lib/submissions'
 * `hasSubmissionsFor` through this hook, kept on globalThis because Next.js loads the actions and
 * instrumentation.ts as separate bundles in the same process.
 */

const KEY = Symbol.for("clinic-exchange.patients.sent-under");
const holder = globalThis as { [KEY]?: SentUnder };

/** Called once at boot with the owner's read. */
export function provideSentUnder(reader: SentUnder | undefined): void {
  holder[KEY] = reader;
}

/** The read given at boot; refuses (rather than guess "nothing sent") when none was given. */
export function sentUnderProvided(): SentUnder {
  const reader = holder[KEY];
  if (!reader) throw new Error("no reader of the submissions under a patient: the composition (lib/server boot) provides it");
  return reader;
}
