"use server";

import { z } from "zod";
import { staffAction, AREAS } from "@/lib/auth";
import type { ActionResult, StaffActionContext } from "@/lib/auth";
import { env } from "@/lib/env";
import { auditedSearch } from "@/lib/patients";
import type { PatientSummary } from "@/lib/patients";
import type { SubmissionUse } from "@/lib/submissions";
import { createClaimFromAuthorization, draftAuthorizationChange, draftChangeOfPayerAuthorization, lastClinicalFacts, saveDraft, submitForm, type ServiceDeps } from "@/lib/submissions";
import { getPlatformPort } from "@/lib/platform";
import { CHANGE_TEXT_MAX, askPayerToChange } from "./advanced-change";

export type { ActionResult };

/** Who may act on each kind: authorizations — front desk and billing; claims — billing. */
const rolesFor = (use: SubmissionUse) => (use === "preauthorization" ? AREAS.authorizations.roles : AREAS.claims.roles);
/** Anyone who fills one of these forms (the narrower rule follows once `use` is known). */
const formRoles = [...new Set([...AREAS.authorizations.roles, ...AREAS.claims.roles])];
const deps = (ctx: StaffActionContext): ServiceDeps => ({ db: ctx.db, providerOrgId: env().PROVIDER_ORG_ID, protocol: env().PLATFORM_PROTOCOL });

/** The form's patient search (front desk and billing both fill these forms); audited. */
export const searchPatientsForFormAction = staffAction(
  formRoles,
  z.string().max(100),
  async (query, ctx): Promise<ActionResult<{ patients: PatientSummary[] }>> => {
    if (!query.trim()) return { ok: true, patients: [] };
    return { ok: true, patients: await auditedSearch(ctx.db, ctx.caller, query, 8) };
  },
  { name: "authorizations" },
);

/**
 * The form's "Visit details" start from what lasts beyond one visit (decision 103): the height and
 * weight of the patient's newest earlier submission that recorded them, as editable values. The
 * patient is the form's chosen one (internal id); an unknown one prefills nothing.
 */
export const visitPrefillAction = staffAction(
  formRoles,
  z.uuid(),
  async (patientId, ctx): Promise<ActionResult<{ prefill: { vitalSigns?: Record<string, { value: string; absent: string }> } }>> => {
    const facts = await lastClinicalFacts(ctx.db, patientId);
    if (!facts) return { ok: false, error: "not_found" };
    const vitalSigns: Record<string, { value: string; absent: string }> = {};
    if (facts.height) vitalSigns["vital-sign-height"] = { value: facts.height.value, absent: "" };
    if (facts.weight) vitalSigns["vital-sign-weight"] = { value: facts.weight.value, absent: "" };
    return { ok: true, prefill: Object.keys(vitalSigns).length > 0 ? { vitalSigns } : {} };
  },
  { name: "authorizations", invalid: () => ({ ok: false, error: "not_found" }) },
);

/** The form's values (parsed again by the service with the draft or submit schema) and the draft it updates. */
const formInput = z.object({ form: z.looseObject({ use: z.enum(["preauthorization", "claim"]) }), draftId: z.uuid().optional() });

export const saveDraftAction = staffAction(
  formRoles,
  formInput,
  async ({ form, draftId }, ctx): Promise<ActionResult<{ id: string }>> => {
    const result = await saveDraft(deps(ctx), ctx.caller, form, draftId);
    return result.ok ? { ok: true, id: result.id } : result;
  },
  { name: "authorizations", rolesFor: (input) => rolesFor(input.form.use) },
);

/** The sender's answer to the scrubber's findings: "Send anyway", or billing's override with a reason (decision 090). */
const submitInput = formInput.extend({
  scrub: z.object({ acknowledgeWarnings: z.boolean().optional(), overrideReason: z.string().trim().max(500).optional() }).optional(),
});

export const submitAction = staffAction(
  formRoles,
  submitInput,
  async ({ form, draftId, scrub }, ctx): Promise<ActionResult<{ id: string; status: string }>> => {
    const result = await submitForm(deps(ctx), ctx.caller, form, draftId, scrub ? { scrub } : {});
    return result.ok ? { ok: true, id: result.id, status: result.status } : result;
  },
  { name: "authorizations", rolesFor: (input) => rolesFor(input.form.use) },
);

/** Billing: a draft claim from an approved authorization (then opened at /claims/new?draft=…). */
export const createClaimFromAuthorizationAction = staffAction(
  AREAS.claims.roles,
  z.uuid(),
  async (authorizationId, ctx): Promise<ActionResult<{ id: string }>> => {
    const result = await createClaimFromAuthorization(deps(ctx), ctx.caller, authorizationId);
    return result.ok ? { ok: true, id: result.id } : result;
  },
  { name: "authorizations", invalid: () => ({ ok: false, error: "not_found" }) },
);

/**
 * A payer's advanced authorization changed by the clinic (decision 101): a new prior-authorization
 * draft repeating all its services and keeping its preAuthRef, opened in the form.
 */
export const changePayerAuthorizationAction = staffAction(
  AREAS.authorizations.roles,
  z.uuid(),
  async (authorizationId, ctx): Promise<ActionResult<{ id: string }>> => {
    const result = await draftChangeOfPayerAuthorization(deps(ctx), ctx.caller, authorizationId);
    return result.ok ? { ok: true, id: result.id } : result;
  },
  { name: "authorizations", invalid: () => ({ ok: false, error: "not_found" }) },
);

/** Asks the payer to modify or extend its advanced authorization: a Communication about it (decision 101). */
export const askPayerChangeAction = staffAction(
  AREAS.authorizations.roles,
  z.object({ id: z.uuid(), text: z.string().max(CHANGE_TEXT_MAX * 2) }),
  async (input, ctx): Promise<ActionResult> => {
    const result = await askPayerToChange({ db: ctx.db, port: getPlatformPort, providerOrgId: env().PROVIDER_ORG_ID }, ctx.caller, input);
    return result.ok ? { ok: true } : result;
  },
  { name: "authorizations", invalid: () => ({ ok: false, error: "invalid" }) },
);

/**
 * A change of a decided authorization (decision 114): extend it, add or remove services, resubmit
 * what was cut or refused — a new request draft repeating all its services and keeping its
 * preAuthRef, related to it as `prior`, opened in the form and sent like any request.
 */
export const changeAuthorizationAction = staffAction(
  AREAS.authorizations.roles,
  z.uuid(),
  async (authorizationId, ctx): Promise<ActionResult<{ id: string }>> => {
    const result = await draftAuthorizationChange(deps(ctx), ctx.caller, authorizationId);
    return result.ok ? { ok: true, id: result.id } : result;
  },
  { name: "authorizations", invalid: () => ({ ok: false, error: "not_found" }) },
);
