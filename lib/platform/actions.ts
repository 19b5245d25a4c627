"use server";

import { audit } from "@/lib/audit";
import { AccessError, authorize } from "@/lib/auth/guards";
import { getDb } from "@/lib/db";
import { requestContext } from "@/lib/http/request-context";
import { testConnection, type ConnectionStep } from "./status";
import { log } from "@/lib/log";

export type TestConnectionResult = { ok: true; steps: ConnectionStep[] } | { ok: false; error: "unauthorized" | "forbidden" | "failed" };

/** Settings → "Test connection": administrators only; audited with the outcome of each step. */
export async function testPlatformConnectionAction(): Promise<TestConnectionResult> {
  let user;
  try {
    user = await authorize(["admin"]);
  } catch (error) {
    if (error instanceof AccessError) return { ok: false, error: error.status === 401 ? "unauthorized" : "forbidden" };
    throw error;
  }
  const db = await getDb();
  const ctx = await requestContext();
  let steps: ConnectionStep[];
  try {
    steps = await testConnection({ db });
  } catch (error) {
    log("platform").error(`connection test failed: ${(error as Error).message}`);
    return { ok: false, error: "failed" };
  }
  await audit(db, {
    actor: { kind: "user", id: user.id, email: user.email, roles: user.roles },
    action: "platform.connection_test",
    target: { type: "platform", id: "connection" },
    outcome: steps.every((s) => s.ok) && steps.length === 3 ? "success" : "failure",
    requestId: ctx.requestId,
    ip: ctx.ip,
    details: { steps: steps.map((s) => ({ step: s.step, ok: s.ok, ms: s.ms })) },
  });
  return { ok: true, steps };
}
