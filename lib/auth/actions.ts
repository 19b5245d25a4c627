"use server";

import { audit } from "@/lib/audit";
import { getDb } from "@/lib/db";
import { requestContext } from "@/lib/http/request-context";
import { currentUser } from "./guards";
import { signOut } from "./index";
import { endSession } from "./sessions";

/** Ends the server-side session first, so the old cookie is worthless even if it was copied. */
export async function signOutAction(): Promise<void> {
  const user = await currentUser();
  if (user) {
    const db = await getDb();
    await endSession(db, user.sessionId, "sign_out");
    const ctx = await requestContext();
    await audit(db, {
      actor: { kind: "user", id: user.id, email: user.email, roles: user.roles },
      action: "auth.sign_out",
      outcome: "success",
      requestId: ctx.requestId,
      ip: ctx.ip,
    });
  }
  await signOut({ redirectTo: "/sign-in" });
}
