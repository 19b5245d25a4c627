"use server";

import { getLocale } from "next-intl/server";
import { z } from "zod";
import { AREAS, staffAction, type ActionResult } from "@/lib/auth";
import { liveBoardView, type LiveBoardView } from "./live-board";

const managers = AREAS.dashboard.roles;

/** The live board again (its TanStack query, refreshed by live events). */
export const liveBoardAction = staffAction(
  managers,
  z.object({}),
  async (_input, ctx): Promise<ActionResult<LiveBoardView>> => ({ ok: true, ...(await liveBoardView(ctx.db, await getLocale())) }),
  { name: "dashboard" },
);
