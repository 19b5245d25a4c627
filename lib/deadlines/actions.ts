"use server";

import { revalidatePath } from "next/cache";
import { AREAS, staffAction, type ActionResult } from "@/lib/auth";
import { saveInsurer } from "./queries";
import { insurerSchema } from "./schema";

export const saveInsurerAction = staffAction(
  AREAS.settings.roles,
  insurerSchema,
  async (insurer, ctx): Promise<ActionResult<{ created: boolean }>> => {
    const result = await saveInsurer(ctx.db, insurer, ctx.caller.userId);
    await ctx.audit({
      action: "insurer.save",
      target: { type: "insurer", id: insurer.id },
      outcome: "success",
      details: { created: result.created, active: insurer.active, submissionDays: insurer.submissionDays, resubmissionDays: insurer.resubmissionDays },
    });
    revalidatePath("/settings/insurers");
    return { ok: true, created: result.created };
  },
  { name: "deadlines" },
);
