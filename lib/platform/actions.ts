"use server";

import { z } from "zod";
import { staffAction, AREAS } from "@/lib/auth";
import type { ActionResult } from "@/lib/auth";
import { testConnection, type ConnectionStep } from "./status";

export type TestConnectionResult = ActionResult<{ steps: ConnectionStep[] }>;

/** Settings → "Test connection": administrators only; audited with the outcome of each step. */
export const testPlatformConnectionAction = staffAction(
  AREAS.settings.roles,
  // No input: the main facility; or one facility's id (decision 049).
  z.object({ facilityId: z.uuid() }).optional(),
  async (input, ctx): Promise<TestConnectionResult> => {
    const steps = await testConnection({ db: ctx.db, facilityId: input?.facilityId ?? null });
    await ctx.audit({
      action: "platform.connection_test",
      target: { type: "platform", id: input?.facilityId ? `facility:${input.facilityId}` : "connection" },
      outcome: steps.every((s) => s.ok) && steps.length === 3 ? "success" : "failure",
      details: { steps: steps.map((s) => ({ step: s.step, ok: s.ok, ms: s.ms })) },
    });
    return { ok: true, steps };
  },
  { name: "platform" },
);
