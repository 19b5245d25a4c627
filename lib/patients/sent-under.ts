import type { PlannedUnder, SentUnder } from "./registry";

/*
 * The correction of a patient's national ID asks whether anything was sent or planned under the
 * number. The submissions and the visit lists are higher layers' (docs/decisions/127, 128), so the
 * staff action cannot ask them itself: the composition (lib/server, at boot; the tests' setup)
 * hands it lib/submissions' `hasSubmissionsFor` and lib/visits' `hasVisitsFor` through these
 * hooks, kept on globalThis because Next.js loads the actions and instrumentation.ts as separate
 * bundles in the same process.
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

const PLANNED_KEY = Symbol.for("clinic-exchange.patients.planned-under");
const plannedHolder = globalThis as { [PLANNED_KEY]?: PlannedUnder };

/** Called once at boot with the visit lists' read. */
export function providePlannedUnder(reader: PlannedUnder | undefined): void {
  plannedHolder[PLANNED_KEY] = reader;
}

/** The read given at boot; refuses (rather than guess "nothing planned") when none was given. */
export function plannedUnderProvided(): PlannedUnder {
  const reader = plannedHolder[PLANNED_KEY];
  if (!reader) throw new Error("no reader of the visits planned under a patient: the composition (lib/server boot) provides it");
  return reader;
}
