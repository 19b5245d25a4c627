import { ROLES } from "@/lib/db";
import type { Role } from "@/lib/db";

export { ROLES, type Role };

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/**
 * The staff areas and who may open them. Navigation, page guards and server actions all read
 * this one table, so what a role sees and what it may do cannot drift apart.
 */
export const AREAS = {
  patients: { href: "/patients", roles: ["front_desk"] },
  eligibility: { href: "/eligibility", roles: ["front_desk"] },
  // Front desk and billing both request prior authorizations; claims stay billing.
  authorizations: { href: "/authorizations", roles: ["front_desk", "billing"] },
  claims: { href: "/claims", roles: ["billing"] },
  // Decision 045: the payers' information requests (claims: billing; authorizations: front desk too).
  informationRequests: { href: "/information-requests", roles: ["front_desk", "billing"] },
  // Remittances and payment notices (docs/decisions/047): billing's.
  payments: { href: "/payments", roles: ["billing"] },
  // Decision 096: what the exchange sent and nothing here matched — billing's to match or dismiss.
  inbox: { href: "/inbox", roles: ["billing"] },
  dashboard: { href: "/dashboard", roles: ["manager"] },
  // Eligibility ahead of the visit (docs/decisions/044): the front desk's morning worklist, and the manager's view of it.
  visits: { href: "/visits", roles: ["front_desk", "manager"] },
  // Prescriptions sent for verification (docs/decisions/116): the clinic's prescribers — a role of
  // its own, since none of the clerical roles may prescribe.
  prescriptions: { href: "/prescriptions", roles: ["prescriber"] },
  settings: { href: "/settings", roles: ["admin"] },
  audit: { href: "/audit", roles: ["admin"] },
} as const satisfies Record<string, { href: string; roles: readonly Role[] }>;

export type Area = keyof typeof AREAS;

export function canAccess(roles: readonly Role[], area: Area): boolean {
  const allowed: readonly Role[] = AREAS[area].roles;
  return roles.some((role) => allowed.includes(role));
}

/** The areas a user with these roles sees in the navigation, in display order. */
export function areasFor(roles: readonly Role[]): Area[] {
  return (Object.keys(AREAS) as Area[]).filter((area) => canAccess(roles, area));
}

/** Where a user lands after signing in: their first area. */
export function homeFor(roles: readonly Role[]): string {
  const first = areasFor(roles)[0];
  return first ? AREAS[first].href : "/no-access";
}
