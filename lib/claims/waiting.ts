import { canAccess } from "@/lib/auth";
import type { Db, Role, SubmissionKind } from "@/lib/db";
import { countInformationRequests } from "@/lib/information-requests";
import { clinicToday } from "@/lib/time";
import { rankedWorkQueue } from "./work-queue";

/** A menu entry's count: how many wait, and how many of them are due or past due (highlighted). */
export interface WaitingCount {
  waiting: number;
  due: number;
}

/** Counts per menu area (only the areas the roles open); absent when nothing waits there. */
export type WaitingWork = Partial<Record<"informationRequests" | "claims", WaitingCount>>;

/**
 * Work that waits, for the menu's counts (docs/decisions/106-every-amount-in-view.md): the payers'
 * information requests still open (due = past their due date) of the kinds the roles may answer,
 * and billing's claims work queue (refused, failed or appealable claims; due = their deadline is
 * soon or passed). The same rules as the two queues' own pages (decisions 045 and 080).
 */
export async function waitingWork(db: Db, roles: readonly Role[], timeZone: string, now: Date = new Date()): Promise<WaitingWork> {
  const kinds: SubmissionKind[] = [...(canAccess(roles, "authorizations") ? (["preauthorization"] as const) : []), ...(canAccess(roles, "claims") ? (["claim"] as const) : [])];
  const [requests, queue] = await Promise.all([
    canAccess(roles, "informationRequests") ? countInformationRequests(db, kinds, now) : undefined,
    canAccess(roles, "claims") ? rankedWorkQueue(db, { today: clinicToday(timeZone, now), timeZone, limit: 1000 }) : undefined,
  ]);
  const out: WaitingWork = {};
  if (requests && requests.open > 0) out.informationRequests = { waiting: requests.open, due: requests.overdue };
  if (queue && queue.length > 0) out.claims = { waiting: queue.length, due: queue.filter((i) => i.deadline && i.deadline.level !== "ok").length };
  return out;
}
