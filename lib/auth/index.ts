/** lib/auth: sign-in, sessions, roles and guards, and the typed staff-action client (docs/decisions/041-module-entries.md). */
import { authBodyRefusal, withSafeCallbackUrl } from "./route-body";

/**
 * Auth.js's own routes (/api/auth/*). The instance is loaded on the first request, not when this
 * entry is imported: the admin CLI and the tests import lib/auth where Next.js does not run.
 */
export const authRoutes = {
  GET: async (request: Request) => (await import("./auth")).handlers.GET((await withSafeCallbackUrl(request)) as import("next/server").NextRequest),
  POST: async (request: Request) => authBodyRefusal(request) ?? (await import("./auth")).handlers.POST((await withSafeCallbackUrl(request)) as import("next/server").NextRequest),
};
export { signOutAction } from "./actions";
export { authConfig, needsStaffSession } from "./config";
export { DEMO_USERS, seedDemoUsers } from "./demo-users";
export { AccessError, actorOf, authorize, currentUser, requireArea, requireUser } from "./guards";
export type { StaffUser } from "./guards";
export { AREAS, areasFor, canAccess, homeFor } from "./roles";
export { safeCallbackPath } from "./schemas";
export type { SignInInput } from "./schemas";
export { manyValues, staffAction, staffFormAction } from "./staff-action";
export { staffPage } from "./staff-page";
export type { PageAuditEntry, StaffPageContext } from "./staff-page";
export type { ActionFailure, ActionResult, StaffActionContext } from "./staff-action";
export { UserInputError, createUser, listUsers } from "./users";
export type { UserRefusal } from "./users";
export { accountState, changeOwnPassword, getUserAccount, listUserAccounts, resetUserPassword, setAccountDisabled, setUserRoles, temporaryPassword, unlockUser } from "./accounts";
export type { AccountState, UserAccount, UserRef } from "./accounts";
export { CHANGE_PASSWORD_PATH } from "./guards";
