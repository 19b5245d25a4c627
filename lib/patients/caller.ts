import type { Caller } from "@/lib/audit";
import type { StaffUser } from "@/lib/auth";
import { requestContext } from "@/lib/http";
import { actorOf } from "@/lib/auth";

/** Who is acting and from where, for audit entries of server actions and pages. */
export async function callerOf(user: StaffUser): Promise<Caller & { userId: string; requestId: string }> {
  const ctx = await requestContext();
  return {
    actor: actorOf(user),
    userId: user.id,
    userName: user.name,
    requestId: ctx.requestId,
    ...(ctx.ip ? { ip: ctx.ip } : {}),
  };
}
