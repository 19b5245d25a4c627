"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { AREAS, staffAction, type ActionResult } from "@/lib/auth";
import { env } from "@/lib/env";
import { getPlatformPort } from "@/lib/platform";
import { sendRemittanceNotice } from "./notices";

/** Billing marks a remittance received (PaymentNotice paid) or cleared (PaymentNotice cleared). */
const input = z.object({ remittanceId: z.uuid(), status: z.enum(["paid", "cleared"]) });

export const sendPaymentNoticeAction = staffAction(
  AREAS.claims.roles,
  input,
  async ({ remittanceId, status }, ctx): Promise<ActionResult<{ already: boolean }>> => {
    const result = await sendRemittanceNotice({ db: ctx.db, port: await getPlatformPort(), providerOrgId: env().PROVIDER_ORG_ID }, remittanceId, status, ctx.caller.userId);
    await ctx.audit({
      action: "payment.notice",
      target: { type: "remittance", id: remittanceId },
      outcome: result.ok ? "success" : "failure",
      details: { status, ...(result.ok ? { already: result.already } : { error: result.error }) },
    });
    revalidatePath(`/payments/${remittanceId}`);
    if (result.ok) return { ok: true, already: result.already };
    return { ok: false, error: result.error, ...(result.message ? { detail: result.message } : {}) };
  },
  { name: "payments", invalid: () => ({ ok: false, error: "not_found" }) },
);
