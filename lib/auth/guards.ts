import { forbidden, redirect } from "next/navigation";
import { cache } from "react";
import { actorOf, audit } from "@/lib/audit";
import { AppError } from "@/lib/errors";
import { getDb } from "@/lib/db";
import { requestContext } from "@/lib/http";
import { canAccess, type Area, type Role } from "./roles";

export interface StaffUser {
  id: string;
  email: string;
  name: string;
  roles: Role[];
  sessionId: string;
  /** Until it is changed, the user may only change their password (decision 102). */
  mustChangePassword: boolean;
}

/** Where a user whose password must change is sent (outside the portal's shell). */
export const CHANGE_PASSWORD_PATH = "/change-password";

export { actorOf };

/**
 * Auth.js's instance, loaded on first use: lib/auth's entry stays importable where Next.js is not
 * running (the admin CLI, unit tests) — docs/decisions/041.
 */
const authjs = () => import("./auth");

/** The signed-in user of this request, or null; checked against the database once per request. */
export const currentUser = cache(async (): Promise<StaffUser | null> => {
  const session = await (await authjs()).auth();
  if (!session?.user?.id || !session.sessionId) return null;
  const { id, email, name, roles, mustChangePassword } = session.user;
  return { id, email, name, roles, sessionId: session.sessionId, mustChangePassword: mustChangePassword === true };
});

/** For pages: the user, a redirect to sign-in, or to the password change a temporary password asks for. */
export async function requireUser(): Promise<StaffUser> {
  const user = await currentUser();
  if (!user) redirect("/sign-in");
  if (user.mustChangePassword) redirect(CHANGE_PASSWORD_PATH);
  return user;
}

async function auditDenied(user: StaffUser, area: string) {
  const ctx = await requestContext();
  await audit(await getDb(), {
    actor: actorOf(user),
    action: "access.denied",
    target: { type: "area", id: area },
    outcome: "denied",
    requestId: ctx.requestId,
    ip: ctx.ip,
  });
}

/** For pages of an area: the user, a redirect to sign-in, or the 403 page (audited). */
export async function requireArea(area: Area): Promise<StaffUser> {
  const user = await requireUser();
  if (!canAccess(user.roles, area)) {
    await auditDenied(user, area);
    forbidden();
  }
  return user;
}

/** Not signed in (401) or not allowed (403): an error of the one catalogue (lib/errors). */
export class AccessError extends AppError {
  override name = "AccessError";
  constructor(status: 401 | 403) {
    super(status === 401 ? "unauthenticated" : "forbidden", status === 401 ? "Sign in to continue." : "Your role does not allow this.");
  }
}

/**
 * For server actions and route handlers: the user if they hold one of the roles, else AccessError.
 * A user whose password must change is refused everything but that change (`passwordChange`).
 */
export async function authorize(roles: readonly Role[], options: { passwordChange?: boolean } = {}): Promise<StaffUser> {
  const user = await currentUser();
  if (!user) throw new AccessError(401);
  if (user.mustChangePassword && !options.passwordChange) throw new AccessError(403);
  if (!user.roles.some((r) => roles.includes(r))) {
    await auditDenied(user, roles.join("|"));
    throw new AccessError(403);
  }
  return user;
}
