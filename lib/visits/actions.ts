"use server";

import { z } from "zod";
import { AREAS, staffAction, type ActionResult } from "@/lib/auth";
import { env } from "@/lib/env";
import { saveDraft } from "@/lib/submissions";
import { listCoverages } from "@/lib/patients";
import { and, eq } from "drizzle-orm";
import { visits } from "@/lib/db";
import { importVisitList } from "./import";
import { cancelRun, createRun } from "./runs";
import { relinkPatients } from "./lists";
import { VisitRowSchema } from "./rows";
import { isUuid } from "@/lib/ids";

const VISIT_ROLES = AREAS.visits.roles;
/** The largest CSV the upload form sends (≈ 20 000 short rows). */
const MAX_CSV_CHARS = 1_000_000;

const runChoice = z.union([z.literal("none"), z.literal("now"), z.iso.datetime({ offset: true })]);

const uploadVisitListSchema = z
  .object({
    name: z.string().trim().min(1, "nameRequired").max(120),
    csv: z.string().max(MAX_CSV_CHARS, "fileTooLarge").optional(),
    items: z.array(VisitRowSchema).max(500).optional(),
    register: z.boolean().default(false),
    lowThresholdPercent: z.number().int().min(1).max(90).default(20),
    run: runChoice.default("none"),
  })
  .refine((v) => (v.csv?.trim() ?? "") !== "" || (v.items?.length ?? 0) > 0, { message: "fileRequired", path: ["csv"] });

export type UploadVisitListResult = ActionResult<{ listId: string; accepted: number; rejected: number; registered: number; notRegistered: number; runId?: string }>;

/** Upload (CSV) or picked patients (items): the list with its bad-rows report, and optionally a run now or at a time. */
export const uploadVisitListAction = staffAction(
  VISIT_ROLES,
  uploadVisitListSchema,
  async (input, ctx): Promise<UploadVisitListResult> => {
    const result = await importVisitList(ctx.db, {
      name: input.name,
      source: input.csv ? "upload" : "picked",
      createdBy: ctx.user.id,
      ...(input.csv ? { csv: input.csv } : { items: input.items ?? [] }),
      register: input.register,
      lowThresholdPercent: input.lowThresholdPercent,
      allowSandboxTestIds: env().PLATFORM_ENV === "sandbox",
      ...(input.run === "none" ? {} : { run: input.run === "now" ? ("now" as const) : new Date(input.run) }),
    });
    await ctx.audit({
      action: "visits.list_create",
      target: { type: "visit_list", id: result.listId },
      outcome: "success",
      details: { accepted: result.accepted, rejected: result.rejected, registered: result.registered, run: result.run?.status ?? null },
    });
    return { ok: true, listId: result.listId, accepted: result.accepted, rejected: result.rejected, registered: result.registered, notRegistered: result.notRegistered, ...(result.run ? { runId: result.run.id } : {}) };
  },
  { name: "visits.upload" },
);

const startRunSchema = z.object({ listId: z.uuid(), run: z.union([z.literal("now"), z.iso.datetime({ offset: true })]).default("now") });

/** Start now or schedule a run of a list (visits already checked are not checked again). */
export const startRunAction = staffAction(
  VISIT_ROLES,
  startRunSchema,
  async (input, ctx): Promise<ActionResult<{ runId: string; status: string; total: number }>> => {
    await relinkPatients(ctx.db, input.listId);
    const run = await createRun(ctx.db, { listId: input.listId, runAt: input.run === "now" ? undefined : new Date(input.run), createdBy: ctx.user.id }).catch(() => undefined);
    if (!run) return { ok: false, error: "not_found" };
    await ctx.audit({ action: "visits.run_start", target: { type: "visit_run", id: run.id }, outcome: "success", details: { status: run.status, total: run.total } });
    return { ok: true, runId: run.id, status: run.status, total: run.total };
  },
  { name: "visits.run" },
);

export const cancelRunAction = staffAction(
  VISIT_ROLES,
  z.object({ runId: z.uuid() }),
  async (input, ctx): Promise<ActionResult> => {
    if (!(await cancelRun(ctx.db, input.runId))) return { ok: false, error: "not_found" };
    await ctx.audit({ action: "visits.run_cancel", target: { type: "visit_run", id: input.runId }, outcome: "success" });
    return { ok: true };
  },
  { name: "visits.cancel" },
);

/** One click from the worklist: a prior-authorization draft for the visit's patient with its planned services, opened in the form. */
export const authorizationFromVisitAction = staffAction(
  AREAS.authorizations.roles,
  z.object({ visitId: z.uuid() }),
  async (input, ctx): Promise<ActionResult<{ draftId: string }>> => {
    const [visit] = await ctx.db.select().from(visits).where(and(eq(visits.id, input.visitId)));
    if (!visit?.patientId || !isUuid(visit.patientId)) return { ok: false, error: "not_found" };
    const covs = await listCoverages(ctx.db, visit.patientId);
    const coverage = (visit.insurerId ? covs.find((c) => c.insurerId === visit.insurerId) : covs[0]) ?? covs[0];
    const saved = await saveDraft(
      { db: ctx.db, providerOrgId: env().PROVIDER_ORG_ID },
      ctx.caller,
      {
        use: "preauthorization",
        patientId: visit.patientId,
        coverageId: coverage?.id ?? "",
        procedures: visit.services.slice(0, 12),
        items: visit.services.map((code) => ({ code, servicedDate: visit.serviceDate, quantity: "1", unitPrice: "" })),
      },
    );
    if (!saved.ok) return { ok: false, error: saved.error === "invalid" ? "invalid" : "not_found" };
    await ctx.audit({ action: "visits.authorization_draft", target: { type: "submission", id: saved.id }, outcome: "success", details: { visitId: visit.id } });
    return { ok: true, draftId: saved.id };
  },
  { name: "visits.authorization" },
);
