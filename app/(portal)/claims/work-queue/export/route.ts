import { getTranslations } from "next-intl/server";
import { audit } from "@/lib/audit";
import { actorOf, AREAS, authorize } from "@/lib/auth";
import { rankedWorkQueue, WORK_QUEUE_CSV_KEYS, workQueueCsv, type AssigneeFilter } from "@/lib/claims";
import { getDb } from "@/lib/db";
import { env } from "@/lib/env";
import { guarded, requestContext } from "@/lib/http";
import { clinicToday } from "@/lib/time";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * The claims work queue as CSV data (decision 038, docs/decisions/080): the same ranked rows as the
 * page (`?assignee=all|mine|unassigned`, at most 1,000), money as plain decimals. Billing; audited.
 */
export const GET = guarded("json", "claims-work-queue-export", async (request: Request): Promise<Response> => {
  const user = await authorize(AREAS.claims.roles);
  const param = new URL(request.url).searchParams.get("assignee");
  const assignee: AssigneeFilter = param === "mine" || param === "unassigned" ? param : "all";
  const [t, db, ctx] = [await getTranslations("claims.workQueue.csv"), await getDb(), await requestContext()];
  const timeZone = env().CLINIC_TIME_ZONE;
  const today = clinicToday(timeZone);
  const items = await rankedWorkQueue(db, { today, timeZone, userId: user.id, assignee, limit: 1000 });
  await audit(db, { actor: actorOf(user), action: "claim.work_queue_export", outcome: "success", requestId: ctx.requestId, ip: ctx.ip, details: { rows: items.length, assignee } });
  return new Response(workQueueCsv(items, WORK_QUEUE_CSV_KEYS.map((k) => t(k))), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="claims-work-queue-${today}.csv"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
});
