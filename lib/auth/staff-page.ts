import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { cookies } from "next/headers";
import type { ReactNode } from "react";
import { audit, type AuditEntry } from "@/lib/audit";
import { getDb, type Db } from "@/lib/db";
import { env } from "@/lib/env";
import { requestContext } from "@/lib/http";
import { actorOf, requireArea, type StaffUser } from "./guards";
import { LIVE_VIEW_COOKIE } from "./live-view";
import type { Area } from "./roles";
import type { StaffCaller } from "./staff-action";

/**
 * The one way to write a staff page that shows patient data: `staffPage(area, render)` admits the
 * area's roles (sign-in redirect, audited 403 — `requireArea`), hands `render` the caller, the
 * database and an audit writer, and keeps the rule of docs/decisions/078: **one audit row per user
 * view**. A page calls `ctx.audit(entry)` once with what it shows; the answer is the view's key.
 * The page hands that key to its live refresh (components/query `useLiveServerView`), which sends
 * it back (cookie `cx-live-view`) when a live event makes the browser render the page again. A
 * render presenting the key of this very view — same session, user, audit action, target and
 * route — is that view kept current, not a new PHI access, and writes nothing.
 *
 * The key is an HMAC the browser cannot make: presenting one only ever skips an entry for a view
 * that was audited for this user in this session.
 */

/** What a page audits: the entry without who, request id and IP (the wrapper adds them). */
export type PageAuditEntry = Omit<AuditEntry, "actor" | "requestId" | "ip" | "at">;

export interface StaffPageContext {
  user: StaffUser;
  caller: StaffCaller;
  db: Db;
  /**
   * Audits this user view (unless it is a live refresh of it) and answers its key, for the page's
   * live refresh. Call it once per render, after reading what the page shows.
   */
  audit(entry: PageAuditEntry): Promise<string>;
}

/** Next.js page props (route params and search params, both promises). */
export interface PageProps {
  params?: Promise<Record<string, string | string[] | undefined>>;
  searchParams?: Promise<Record<string, string | string[] | undefined>>;
}

let processKey: Buffer | undefined;
/** The HMAC key: derived from AUTH_SECRET (shared by every instance), else one per process (a refresh on another process is then audited: safe). */
function viewKeySecret(): Buffer {
  const secret = env().AUTH_SECRET;
  if (secret) return createHmac("sha256", secret).update("clinic-exchange/live-view-key").digest();
  processKey ??= randomBytes(32);
  return processKey;
}

/** A view's key: who looks (session, user), at what (audit action and target) through which route. */
export function viewKeyOf(view: { sessionId: string; userId: string; entry: Pick<PageAuditEntry, "action" | "target">; route: unknown }): string {
  const subject = JSON.stringify([view.sessionId, view.userId, view.entry.action, view.entry.target?.type ?? "", view.entry.target?.id ?? "", view.route]);
  return createHmac("sha256", viewKeySecret()).update(subject).digest("base64url");
}

function sameKey(presented: string | undefined, expected: string): boolean {
  if (!presented) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Route params and search params in a stable order: part of what a view is. */
async function routeOf(props: PageProps): Promise<unknown> {
  const sorted = (record: Record<string, unknown> | undefined) => Object.entries(record ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return [sorted(await props.params), sorted(await props.searchParams)];
}

/**
 * The context of one render: the audit writer that writes one row per user view. Exported for the
 * tests; pages use `staffPage`.
 */
export async function staffPageContext(user: StaffUser, props: PageProps, presentedKey: string | undefined): Promise<StaffPageContext> {
  const request = await requestContext();
  const caller: StaffCaller = { actor: actorOf(user), userId: user.id, userName: user.name, requestId: request.requestId, ...(request.ip ? { ip: request.ip } : {}) };
  const db = await getDb();
  const route = await routeOf(props);
  return {
    user,
    caller,
    db,
    async audit(entry) {
      const key = viewKeyOf({ sessionId: user.sessionId, userId: user.id, entry, route });
      // A live refresh of this very view: the user is still looking at what was audited.
      if (sameKey(presentedKey, key)) return key;
      await audit(db, { ...entry, actor: caller.actor, requestId: caller.requestId, ip: caller.ip });
      return key;
    },
  };
}

/**
 * Wraps a page of an area: `export default staffPage("claims", async ({ params }, ctx) => …)`.
 * Pages that show patient data audit through `ctx.audit` only (lib/audit pages test).
 */
export function staffPage<P extends PageProps>(area: Area, render: (props: P, ctx: StaffPageContext) => Promise<ReactNode>): (props: P) => Promise<ReactNode> {
  return async (props: P) => {
    const user = await requireArea(area);
    const presented = (await cookies()).get(LIVE_VIEW_COOKIE)?.value;
    return render(props, await staffPageContext(user, props, presented));
  };
}
