"use server";

import { staffAction, type ActionResult } from "@/lib/auth";
import { ROLES } from "@/lib/db";
import { liveStamp, liveStampQuery } from "./live-stamp";

/** The live stamp of a server-rendered page (any signed-in staff; only events their roles may see count). */
export const liveStampAction = staffAction(
  ROLES,
  liveStampQuery,
  async (query, ctx): Promise<ActionResult<{ stamp: number }>> => ({ ok: true, stamp: await liveStamp(ctx.db, ctx.user.roles, query) }),
  { name: "exchange" },
);
