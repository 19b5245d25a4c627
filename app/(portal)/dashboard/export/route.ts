import { getLocale, getTimeZone, getTranslations } from "next-intl/server";
import { audit } from "@/lib/audit";
import { actorOf, authorize } from "@/lib/auth";
import { buildTable, insurerNames, loadTable, parseRange, TABLES, toCsv, type TableName } from "@/lib/dashboard";
import { getDb } from "@/lib/db";
import { requestContext, guarded } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const json = (status: number, body: Record<string, unknown>) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store" } });

/**
 * CSV of one dashboard table for the same range and filters as the page (`?from&to&bucket&insurer&table`),
 * built from the same cells as the table on screen. Managers only; audited.
 */
export const GET = guarded("json", "dashboard-export", async (request: Request): Promise<Response> => {
  // Not signed in or not allowed: AccessError, answered by guarded() in the family's style.
  const user = await authorize(["manager"]);
  const url = new URL(request.url);
  const params = Object.fromEntries(url.searchParams);
  const name = params.table as TableName;
  if (!TABLES.includes(name)) return json(400, { error: "bad_table", message: `table must be one of ${TABLES.join(", ")}` });
  const [t, locale, words, timeZone, db, ctx] = [await getTranslations("dashboard"), await getLocale(), await getTranslations("statusWords"), await getTimeZone(), await getDb(), await requestContext()];
  const range = parseRange(params, timeZone);
  const [data, insurerName] = await Promise.all([loadTable(name, db, range), insurerNames(db, locale)]);
  const table = buildTable(name, data, { t: (k, v) => t(k as never, v as never), words: (k) => words(k as never), locale, insurerName });
  await audit(db, {
    actor: actorOf(user),
    action: "dashboard.export",
    target: { type: "dashboard_table", id: name },
    outcome: "success",
    requestId: ctx.requestId,
    ip: ctx.ip,
    details: { from: range.from, to: range.to, bucket: range.bucket, insurer: range.insurerId ?? null, rows: table.rows.length },
  });
  const filename = `dashboard-${name}-${range.from}-${range.to}.csv`;
  return new Response(toCsv({ ...table, currencyLabel: t("columns.currency") }), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
});
