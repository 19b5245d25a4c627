import { handedDown } from "@/lib/handed-down";
import type { PlannedUnder, SentUnder } from "./registry";

/*
 * The correction of a patient's national ID asks whether anything was sent or planned under the
 * number. The submissions and the visit lists are higher layers' (docs/decisions/127, 128), so the
 * staff action cannot ask them itself: the composition (lib/server, at boot; the tests' setup)
 * hands it lib/submissions' `hasSubmissionsFor` and lib/visits' `hasVisitsFor` through these
 * hooks (lib/handed-down.ts).
 */

const sentUnder = handedDown<SentUnder>("patients.sent-under", "no reader of the submissions under a patient: the composition (lib/server boot) provides it");
const plannedUnder = handedDown<PlannedUnder>("patients.planned-under", "no reader of the visits planned under a patient: the composition (lib/server boot) provides it");

/** Called once at boot with the owner's read. */
export const provideSentUnder = sentUnder.provide;
/** The read given at boot; refuses (rather than guess "nothing sent") when none was given. */
export const sentUnderProvided = sentUnder.provided;
/** Called once at boot with the visit lists' read. */
export const providePlannedUnder = plannedUnder.provide;
/** The read given at boot; refuses (rather than guess "nothing planned") when none was given. */
export const plannedUnderProvided = plannedUnder.provided;
