import type { Role } from "@/lib/db";

/** The project's password policy: screens, server actions and the CLI apply these numbers. */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

/**
 * The roles, written out here (no imports at run time) so the browser's forms do not load the
 * database module or zod for them; a test checks they are lib/db's ROLES.
 */
export const ROLE_NAMES = ["front_desk", "billing", "manager", "admin", "prescriber"] as const satisfies readonly Role[];
