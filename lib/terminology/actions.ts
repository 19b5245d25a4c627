"use server";

import { z } from "zod";
import { AREAS, staffAction } from "@/lib/auth";
import type { ActionResult } from "@/lib/auth";
import { lookupCodes, searchCodes, type CodeHit } from "./catalogue";
import { CATALOGUE_SYSTEMS } from "./systems";

/**
 * The code pickers' server side (docs/decisions/086): staff who fill the forms (front desk,
 * billing) and administrators (the catalogue's page in Settings) search the catalogue. Codes are
 * not patient data: no audit entry per keystroke.
 */
const pickerRoles = [...new Set([...AREAS.authorizations.roles, ...AREAS.claims.roles, ...AREAS.settings.roles, ...AREAS.prescriptions.roles])];

/** At most every system the catalogue holds (the Settings picker searches them all). */
const systems = z.array(z.string().max(200)).min(1).max(CATALOGUE_SYSTEMS.length);

export const searchCodesAction = staffAction(
  pickerRoles,
  z.object({ systems, q: z.string().max(100) }),
  async ({ systems: list, q }, ctx): Promise<ActionResult<{ codes: CodeHit[] }>> => ({ ok: true, codes: await searchCodes(ctx.db, list, q, 20) }),
  { name: "terminology" },
);

/** The words of codes already chosen (a saved draft reopened, a chip), for one system. */
export const describeCodesAction = staffAction(
  pickerRoles,
  z.object({ system: z.string().max(200), codes: z.array(z.string().max(64)).max(100) }),
  async ({ system, codes }, ctx): Promise<ActionResult<{ codes: CodeHit[] }>> => ({ ok: true, codes: await lookupCodes(ctx.db, system, codes) }),
  { name: "terminology" },
);
