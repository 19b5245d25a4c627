import { readJsonObject } from "@/lib/api";
import { AppError, issuePath, jsonResponse } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { importVisitList, visitListStatus, VisitListBodySchema } from "@/lib/visits";

/** Checked per item by lib/visits (rows.ts), reported with the item number like a CSV's bad rows. */
const VISIT_ITEM_DATES = /^visits\[\d+\]\.(serviceDate|birthDate)$/;
import type { CallContext } from "./api";

/**
 * POST /api/exchange/visits: the clinic's own systems send tomorrow's visit list (docs/decisions/044). Bad
 * items are answered by item number with the reason (like a CSV's bad rows), never stopping the
 * good ones; `run` starts or schedules the paced batch check.
 */
export async function importVisits(ctx: CallContext, request: Request): Promise<Response> {
  const body = await readJsonObject(request, { maxBytes: ctx.deps.config.maxBodyBytes, itemDates: VISIT_ITEM_DATES });
  const parsed = VisitListBodySchema.safeParse(body);
  if (!parsed.success) {
    throw new AppError("unprocessable", "The body must be {visits: [{nationalId, serviceDate, …}], run?, register?}.", {
      reason: "invalid_body",
      fields: parsed.error.issues.slice(0, 20).map((i) => ({ path: issuePath("", i.path), message: i.message })),
    });
  }
  const input = parsed.data;
  const result = await importVisitList(ctx.db, {
    name: input.name ?? `${ctx.client.name} ${input.visits[0]!.serviceDate}`,
    source: "api",
    createdBy: ctx.client.clientId,
    items: input.visits,
    register: input.register,
    lowThresholdPercent: input.lowThresholdPercent,
    allowSandboxTestIds: ctx.deps.config.allowSandboxTestIds,
    ...(input.run ? { run: input.run === "now" ? ("now" as const) : new Date(input.run) } : {}),
    now: ctx.now,
  });
  ctx.audit.target = { type: "visit_list", id: result.listId };
  ctx.audit.details.accepted = result.accepted;
  ctx.audit.details.rejected = result.rejected;
  return jsonResponse(result, 201, { location: `/api/exchange/visits/${result.listId}` });
}

/** GET /api/exchange/visits/{id}: runs and verdicts of a list this API received. */
export async function visitsStatus(ctx: CallContext, id: string): Promise<Response> {
  const status = isUuid(id) ? await visitListStatus(ctx.db, id) : undefined;
  if (!status) throw new AppError("not_found", "No visit list with this id.");
  ctx.audit.target = { type: "visit_list", id };
  return jsonResponse(status, 200);
}
