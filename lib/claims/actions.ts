"use server";

import { z } from "zod";
import { staffAction, AREAS } from "@/lib/auth";
import type { ActionFailure, ActionResult, StaffActionContext } from "@/lib/auth";
import { env } from "@/lib/env";
import { getPlatformPort } from "@/lib/platform";
import { userFacilityId } from "@/lib/facilities";
import { batchProgress, type BatchProgress } from "./batch";
import { claimListQuery, claimListView, type ClaimListView } from "./list-view";
import { reconcile, type ReconcileRow } from "./reconcile";
import { copyClaim, fixRejectedClaim, retryClaim, submitBatch, type BatchResult, type ServiceDeps } from "./service";
import { fileAppeal, type AppealResult } from "@/lib/submissions";
import { addWorkNote, assignWork, type WorkChange } from "./work-queue";
import { manyValues } from "@/lib/auth";

/** Server actions of the claims area (billing). */
export type ClaimActionResult<T extends object> = ActionResult<T>;

const billing = AREAS.claims.roles;
const deps = (ctx: StaffActionContext): ServiceDeps => ({ db: ctx.db, providerOrgId: env().PROVIDER_ORG_ID, protocol: env().PLATFORM_PROTOCOL });
const claimId = z.uuid();
/** A malformed claim id is a claim that does not exist. */
const notFound = (): ActionFailure => ({ ok: false, error: "not_found" });
const byId = { name: "claims", invalid: notFound };

export const copyClaimAction = staffAction(billing, claimId, (id, ctx) => copyClaim(deps(ctx), ctx.caller, id), byId);

export const fixClaimAction = staffAction(billing, claimId, (id, ctx) => fixRejectedClaim(deps(ctx), ctx.caller, id), byId);

export const retryClaimAction = staffAction(billing, claimId, (id, ctx): Promise<ActionResult> => retryClaim(deps(ctx), ctx.caller, id), byId);

const batchInput = z.object({ ids: z.array(z.uuid()).min(1).max(500), confirmDuplicates: z.boolean().optional(), batchId: z.uuid().optional() });

export const submitSelectedAction = staffAction(
  billing,
  batchInput,
  async (input, ctx): Promise<ActionResult<BatchResult>> => {
    // Each draft's eligibility is checked again when its last answer is missing or old (decision 090).
    const result = await submitBatch(deps(ctx), ctx.caller, [...new Set(input.ids)], { confirmDuplicates: input.confirmDuplicates, batchId: input.batchId });
    return { ok: true, ...result };
  },
  { name: "claims" },
);

export const batchProgressAction = staffAction(
  billing,
  z.uuid(),
  async (batchId, ctx): Promise<ActionResult<BatchProgress>> => ({ ok: true, ...(await batchProgress(ctx.db, batchId)) }),
  { name: "claims" },
);

/** The claims list again (its live refresh): the same view the page rendered first. Not audited per refresh; the page view is. */
export const claimListAction = staffAction(
  billing,
  claimListQuery,
  async (query, ctx): Promise<ActionResult<ClaimListView>> => ({ ok: true, ...(await claimListView(ctx.db, query)) }),
  { name: "claims" },
);

const reconcileInput = z.object({ patient: z.string().regex(/^\d{10}$/, "patient"), since: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "since") });

/** Endpoint 5 through the platform client, compared with the portal's records. Audited (ids only). */
export const reconcileAction = staffAction(
  billing,
  reconcileInput,
  async (input, ctx): Promise<ActionResult<{ rows: ReconcileRow[] }>> => {
    // Through the port: in messaging (no search at the exchange) these are the patient's claims the portal sent, read by status-check.
    const client = await getPlatformPort(await userFacilityId(ctx.db, ctx.caller.userId));
    let bundle;
    try {
      bundle = await client.searchClaims({ patient: input.patient, createdOnOrAfter: input.since });
    } catch (error) {
      const code = (error as { code?: string }).code;
      return { ok: false, error: code && /^ERR-00\d$/.test(code) ? code : "platform" };
    }
    const claims = (bundle.data.entry ?? []).flatMap((e) => (e.resource ? [{ ...e.resource }] : []));
    const rows = await reconcile(ctx.db, claims);
    await ctx.audit({
      action: "claim.reconcile",
      target: { type: "platform_search", id: "claims" },
      outcome: "success",
      details: { found: rows.length, portalIds: rows.flatMap((r) => (r.portal ? [r.portal.id] : [])) },
    });
    return { ok: true, rows };
  },
  { name: "claims" },
);

/** Files an appeal (docs/decisions/081): lib/submissions checks and stores it in one transaction. */
export const fileAppealAction = staffAction(
  billing,
  z.object({ claimId: z.string(), sequences: z.array(z.number()), justification: z.string(), attachmentIds: z.array(z.string()).default([]) }),
  async (input, ctx): Promise<ActionResult<{ id: string }>> => {
    const result: AppealResult = await fileAppeal({ db: ctx.db, protocol: env().PLATFORM_PROTOCOL }, ctx.caller, input);
    return result.ok ? { ok: true, id: result.id } : result.error === "invalid" ? { ok: false, error: "invalid", fieldErrors: result.fieldErrors } : { ok: false, error: result.error };
  },
  { name: "claims" },
);

const workResult = (r: WorkChange): ActionResult<{ changed: number }> => (r.ok ? { ok: true, changed: r.changed } : { ok: false, error: r.error });

/** Bulk: assigns the selected claims of the work queue to a biller, or releases them (assignee ""). Decision 080. */
export const assignWorkAction = staffAction(
  billing,
  z.object({ ids: manyValues(z.uuid()).pipe(z.array(z.uuid()).min(1).max(500)), assigneeId: z.union([z.uuid(), z.literal("")]) }),
  async (input, ctx) => workResult(await assignWork(ctx.db, ctx.caller, input.ids, input.assigneeId || null)),
  { name: "claims" },
);

/** A note on a claim of the work queue. */
export const addWorkNoteAction = staffAction(
  billing,
  z.object({ id: z.uuid(), body: z.string().trim().min(1, "required").max(2000, "tooLong") }),
  async (input, ctx) => workResult(await addWorkNote(ctx.db, ctx.caller, input.id, input.body)),
  { name: "claims" },
);
