"use server";

import { staffAction, type ActionResult } from "@/lib/auth";
import { ROLES } from "@/lib/db";
import { InboxStateError, advancedAuthorizationOpener, dismissMessage, getInboxMessage, markMatched } from "@/lib/inbox";
import { InboxMatchError, matchInboxMessage } from "./inbox-review";
import { DismissInboxSchema, MatchInboxSchema, OpenInboxSchema } from "./inbox-schemas";
import { liveStamp, liveStampQuery } from "./live-stamp";

/** The live stamp of a server-rendered page (any signed-in staff; only events their roles may see count). */
export const liveStampAction = staffAction(
  ROLES,
  liveStampQuery,
  async (query, ctx): Promise<ActionResult<{ stamp: number }>> => ({ ok: true, stamp: await liveStamp(ctx.db, ctx.user.roles, query) }),
  { name: "exchange" },
);

// ---- "Received, not matched" (docs/decisions/096): billing settles what the exchange sent and nothing matched ----


const settled = (error: unknown) => (error instanceof InboxStateError || (error instanceof InboxMatchError && error.code === "settled") ? { ok: false as const, error: "settled" } : undefined);

/** Dismiss with a reason (audited: the reason stays with the message, never in a log). */
export const dismissInboxMessageAction = staffAction(
  ["billing"],
  DismissInboxSchema,
  async (input, ctx): Promise<ActionResult> => {
    const row = await dismissMessage(ctx.db, input.id, { userId: ctx.user.id, reason: input.reason });
    await ctx.audit({ action: "inbox.dismiss", target: { type: "inbox_message", id: row.id }, outcome: "success", details: { event: row.event, status: row.status } });
    return { ok: true };
  },
  { name: "inbox.dismiss", refusal: settled },
);

/** Match to a submission: the decision it carries is applied there (a decided one is reissued). */
export const matchInboxMessageAction = staffAction(
  ["billing"],
  MatchInboxSchema,
  async (input, ctx): Promise<ActionResult<{ status: string }>> => {
    const done = await matchInboxMessage(ctx.db, { inboxId: input.id, submissionId: input.submissionId, userId: ctx.user.id });
    await ctx.audit({ action: "inbox.match", target: { type: "inbox_message", id: input.id }, outcome: "success", details: { submissionId: input.submissionId, result: done.result } });
    return { ok: true, status: done.status };
  },
  {
    name: "inbox.match",
    refusal: (error) => settled(error) ?? (error instanceof InboxMatchError ? { ok: false, error: error.code, field: error.code === "no_submission" ? "submissionId" : undefined } : undefined),
  },
);

/** The seam of the advanced-authorization area (lib/inbox opener.ts): offered only when an opener is registered. */
export const openAdvancedAuthorizationAction = staffAction(
  ["billing"],
  OpenInboxSchema,
  async (input, ctx): Promise<ActionResult<{ href: string }>> => {
    const opener = advancedAuthorizationOpener();
    if (!opener) return { ok: false, error: "not_available" };
    const row = await getInboxMessage(ctx.db, input.id);
    if (!row || (row.status !== "unmatched" && row.status !== "failed")) return { ok: false, error: row ? "settled" : "not_found" };
    const opened = await opener({ inboxId: row.id, body: row.fetched ?? row.body, userId: ctx.user.id });
    await markMatched(ctx.db, row.id, { userId: ctx.user.id, submissionId: opened.submissionId });
    await ctx.audit({ action: "inbox.open_advanced_authorization", target: { type: "inbox_message", id: row.id }, outcome: "success", details: { submissionId: opened.submissionId } });
    return { ok: true, href: opened.href };
  },
  { name: "inbox.open", refusal: settled },
);
