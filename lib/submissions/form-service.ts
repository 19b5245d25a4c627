import { and, desc, eq } from "drizzle-orm";
import { audit, type Caller } from "@/lib/audit";
import { attachableIds, attachmentsWithData, checkSet, type LimitProblem } from "@/lib/attachments";
import type { Db, Tx } from "@/lib/db";
import { submissions } from "@/lib/db";
import { insertDraft, type ScrubAnswer } from "./lifecycle";
import { intake, writeDraft, type DraftWrite } from "./intake";
import { checkClaim } from "./claim-rules";
import { lineWriter } from "@/lib/log";
import type { ScrubFinding } from "@/lib/scrubber";
import type { Submission } from "./states";
import { buildClaim, nphies, type CareSettingInput, type ClaimInput, type ClaimItemInput } from "@/lib/fhir";
import { refillsLeftOf, verifiedPrescriptionsFor } from "./prescriptions";
import { claimLineShares } from "@/lib/contracts";
import { authorizationUsage } from "@/lib/authorization-usage";
import { lookupCodes, mdsCodeLists } from "@/lib/terminology";
import { practitionersByIds, type Practitioner } from "@/lib/facilities";
import { coverageUse, getPatient, offlineEligibilityFor } from "@/lib/patients";
import type { CoverageView, Patient } from "@/lib/patients";
import { lineTotalMinor, parseAmountMinor, parseQuantity } from "./form-money";
import { draftFormSchema, submissionFormSchema, type DraftFormValues, type SubmissionFormValues, type SubmissionUse } from "./form-schema";
import { isUuid } from "@/lib/ids";
import { clinicToday } from "@/lib/time";
import { CPT_SYSTEM, itemSystemsFor, type PlatformProtocol } from "./care-setting";
import { admissionWeightIssue, clinicalIssues, type ClinicalValues } from "./clinical-schema";
import type * as mds from "@/lib/fhir/mds";
import { PAYER_CHANNEL } from "./payer-authorization";
import { authorizationVersions, changeableVersion } from "./authorization-versions";

export interface ServiceDeps {
  db: Db;
  /** The clinic's Organization id (PROVIDER_ORG_ID). */
  providerOrgId: string;
  clock?: () => Date;
  /** PLATFORM_PROTOCOL: in messaging, lines in CPT are refused before anything is stored (default rest). */
  protocol?: PlatformProtocol;
}


export type FieldErrors = Partial<Record<string, string[]>>;

export type SaveResult =
  | { ok: true; id: string; status: Submission["status"] }
  | { ok: false; error: "invalid"; fieldErrors: FieldErrors }
  | { ok: false; error: "not_found" | "not_draft" }
  /** The scrubber stopped it (docs/decisions/090): nothing was sent, the form is kept as draft `id`. */
  | { ok: false; error: "scrub"; id: string; findings: ScrubFinding[]; canOverride: boolean };

/** Billing staff may send a claim or authorization despite the scrubber's errors, with a reason (decision 090). */
export const mayOverrideScrubber = (caller: Caller) => caller.actor.kind === "user" && caller.actor.roles.includes("billing");

const warn = lineWriter("warn");

const now = (deps: ServiceDeps) => (deps.clock ?? (() => new Date()))();

function flatten(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.length ? issue.path.map(String).join(".") : "form";
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

/**
 * Codes the catalogue does not hold (ICD-10-AM diagnoses, CPT procedures, each line in its own system), as the
 * form's field errors: the pickers offer only catalogue codes, so this catches a stale or typed
 * value (docs/decisions/086).
 */
async function unknownCodes(db: Db, values: SubmissionFormValues): Promise<FieldErrors | undefined> {
  // Each line's code is looked up in its own system (empty: CPT, forms saved before care settings).
  const lineSystems = values.items.map((i) => i.system || CPT_SYSTEM);
  const itemLookups = new Map<string, string[]>();
  values.items.forEach((item, i) => itemLookups.set(lineSystems[i]!, [...(itemLookups.get(lineSystems[i]!) ?? []), item.code]));
  itemLookups.set(CPT_SYSTEM, [...(itemLookups.get(CPT_SYSTEM) ?? []), ...values.procedures]);
  const [icd, ...bySystem] = await Promise.all([
    lookupCodes(db, "icd-10-am", values.diagnoses),
    ...[...itemLookups].map(async ([system, list]) => ({ system, known: new Set((await lookupCodes(db, system, list)).map((h) => h.code)) })),
  ]);
  const knownIcd = new Set(icd.map((h) => h.code));
  const known = (system: string, code: string) => bySystem.find((s) => s.system === system)?.known.has(code) ?? false;
  const out: FieldErrors = {};
  values.diagnoses.forEach((c, i) => !knownIcd.has(c) && (out[`diagnoses.${i}`] = ["diagnosisUnknown"]));
  values.procedures.forEach((c, i) => !known(CPT_SYSTEM, c) && (out[`procedures.${i}`] = ["procedureUnknown"]));
  values.items.forEach((item, i) => !known(lineSystems[i]!, item.code) && (out[`items.${i}.code`] = ["serviceUnknown"]));
  return Object.keys(out).length ? out : undefined;
}

/**
 * What the exchange's Minimum Data Set requires of this visit (docs/decisions/103), as field errors:
 * applied where the message goes to the national exchange (messaging: `lists` given); the spec's
 * REST takes the form without it.
 */
function mdsOfProtocol(values: SubmissionFormValues, lists: mds.MdsCodeLists | undefined): FieldErrors | undefined {
  if (!lists) return undefined;
  const issues = clinicalIssues({ use: values.use, claimType: values.claimType, subtype: values.subtype, diagnoses: values.diagnoses, discharge: values.discharge, clinical: values.clinical, lists });
  return issues.length > 0 ? flatten(issues) : undefined;
}

/** Lines coded in a list the platform's protocol does not take (CPT, in messaging), as field errors. */
function listsOfProtocol(values: SubmissionFormValues, protocol: PlatformProtocol): FieldErrors | undefined {
  if (protocol === "rest") return undefined;
  const allowed = itemSystemsFor(values.claimType, protocol);
  const out: FieldErrors = {};
  values.items.forEach((item, i) => !allowed.includes(item.system || CPT_SYSTEM) && (out[`items.${i}.system`] = ["systemNotExchange"]));
  // The exchange takes no CPT procedure codes (Claim.procedure): the form does not offer them in messaging.
  values.procedures.forEach((_, i) => (out[`procedures.${i}`] = ["procedureNotExchange"]));
  return Object.keys(out).length ? out : undefined;
}

const LIMIT_MESSAGES: Record<LimitProblem, string> = {
  tooLarge: "fileTooLarge",
  tooMany: "tooManyFiles",
  totalTooLarge: "totalTooLarge",
  empty: "fileEmpty",
};

interface Resolved {
  patient: Patient;
  coverage?: CoverageView;
  /** A newborn under the mother's coverage (docs/decisions/110): the flag and the birth weight go on the Claim. */
  newborn?: { birthWeightKg?: number };
}

/**
 * The patient and (when given) the coverage, which must be this patient's — or, for a newborn
 * linked to its mother, the mother's on every service day within the newborn days (guide 6.5).
 */
async function resolvePatient(db: Db, patientId: string, coverageId: string | undefined, days: readonly string[] = []): Promise<({ ok: true } & Resolved) | { ok: false; fieldErrors: FieldErrors }> {
  const patient = await getPatient(db, patientId);
  if (!patient) return { ok: false, fieldErrors: { patientId: ["patientRequired"] } };
  if (!coverageId) return { ok: true, patient };
  const use = await coverageUse(db, patient, coverageId, days);
  if (!use.ok) return { ok: false, fieldErrors: { coverageId: [use.reason === "unknown" ? "coverageRequired" : use.reason === "newborn_too_old" ? "newbornTooOld" : "newbornBeforeBirth"] } };
  return { ok: true, patient, coverage: use.coverage, ...(use.newborn ? { newborn: { ...(use.newborn.birthWeightKg !== undefined ? { birthWeightKg: use.newborn.birthWeightKg } : {}) } } : {}) };
}

async function checkAttachments(db: Db, ids: readonly string[], userId: string | undefined, submissionId?: string): Promise<FieldErrors | undefined> {
  const { ok, rows } = await attachableIds(db, ids, userId, submissionId);
  if (!ok) return { attachmentIds: ["attachmentUnknown"] };
  const problem = checkSet(rows.map((r) => r.size));
  return problem ? { attachmentIds: [LIMIT_MESSAGES[problem]] } : undefined;
}

/** The care team's practitioners, each known and active; otherwise the field error. */
async function resolveCareTeam(db: Db, ids: readonly string[]): Promise<{ ok: true; team: Practitioner[] } | { ok: false; fieldErrors: FieldErrors }> {
  const valid = ids.filter(isUuid);
  const team = await practitionersByIds(db, valid);
  if (team.length !== ids.length || team.some((p) => !p.active) || new Set(ids).size !== ids.length) return { ok: false, fieldErrors: { careTeam: ["practitionerUnknown"] } };
  return { ok: true, team };
}

/** A datetime-local value ("2026-11-20T08:00") or a date as an ISO instant (the clinic's input, taken as UTC). */
const instantOf = (value: string): string => new Date(value.length === 10 ? `${value}T00:00:00Z` : `${value}${value.length === 16 ? ":00" : ""}Z`).toISOString();

/** The form's care setting as the Claim builder takes it (docs/decisions/083). */
function careSettingOf(
  values: Pick<SubmissionFormValues, "use" | "claimType" | "subtype" | "chiefComplaint" | "daysSupply" | "visionPrescription" | "admission" | "discharge" | "estimatedStay" | "onAdmission" | "diagnoses" | "episodeId" | "clinical">,
  team: readonly Practitioner[],
): CareSettingInput {
  const stay = values.subtype === "ip" || values.subtype === "emr";
  // An inpatient stay: the estimated days (prior authorization) and each diagnosis on admission (BV-00802, BV-00027).
  const estimatesStay = nphies.requiredSupportingInfo(values.claimType, values.subtype, values.use).includes("estimated-Length-of-Stay");
  const onAdmission = nphies.requiresOnAdmission(values.claimType, values.subtype)
    ? Object.fromEntries(values.diagnoses.flatMap((code) => (Object.hasOwn(values.onAdmission, code) ? [[code, values.onAdmission[code]!]] : [])))
    : {};
  return {
    type: values.claimType,
    subtype: values.subtype,
    careTeam: team.map((p) => ({ practitionerId: p.id, specialty: p.specialty, license: p.license, name: `${p.givenName} ${p.familyName}` })),
    ...(values.chiefComplaint ? { chiefComplaint: values.chiefComplaint } : {}),
    ...(values.claimType === "pharmacy" && /^\d{1,3}$/.test(values.daysSupply) ? { daysSupply: Number(values.daysSupply) } : {}),
    ...(values.claimType === "vision" && values.visionPrescription ? { visionPrescription: values.visionPrescription } : {}),
    ...(stay && values.admission && !Number.isNaN(Date.parse(instantOf(values.admission)))
      ? { stay: { start: instantOf(values.admission), ...(values.discharge && !Number.isNaN(Date.parse(instantOf(values.discharge))) ? { end: instantOf(values.discharge) } : {}) } }
      : {}),
    ...(estimatesStay && /^\d{1,3}$/.test(values.estimatedStay) ? { estimatedStayDays: Number(values.estimatedStay) } : {}),
    ...(Object.keys(onAdmission).length > 0 ? { onAdmission } : {}),
    ...(values.episodeId ? { episode: values.episodeId } : {}),
    clinical: clinicalFactsOf(values.clinical, values.diagnoses),
  };
}

/**
 * The form's clinical facts as the Claim builder writes them (docs/decisions/103): what was typed,
 * empty answers left out; the condition onset of the diagnoses still on the form only.
 */
export function clinicalFactsOf(clinical: ClinicalValues, diagnoses: readonly string[]): mds.ClinicalFacts {
  const given = <T extends Record<string, string>>(o: T): Partial<T> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== "")) as Partial<T>;
  const e = given(clinical.encounter);
  const vitalSigns = Object.fromEntries(Object.entries(clinical.vitalSigns).flatMap(([sign, v]) => (v && (v.value || v.absent) ? [[sign, given(v)]] : [])));
  const notes = given(clinical.notes as Record<string, string>);
  const onsets = Object.fromEntries(diagnoses.flatMap((code) => (Object.hasOwn(clinical.conditionOnset, code) && clinical.conditionOnset[code] ? [[code, clinical.conditionOnset[code]!]] : [])));
  return {
    encounter: { ...e, class: clinical.encounter.class },
    ...(Object.keys(vitalSigns).length > 0 ? { vitalSigns } : {}),
    ...(Object.keys(notes).length > 0 ? { notes } : {}),
    ...(clinical.investigation.code ? { investigation: given(clinical.investigation) as { code: string; text?: string } } : {}),
    ...(clinical.morphology ? { morphology: clinical.morphology } : {}),
    ...(clinical.admissionWeight ? { admissionWeight: clinical.admissionWeight } : {}),
    ...(clinical.accident.type ? { accident: clinical.accident } : {}),
    ...(Object.keys(onsets).length > 0 ? { conditionOnset: onsets } : {}),
  };
}

/** A form line's extras: its code system, tooth, VAT, patient share and package flag. */
function lineExtras(item: { system: string; tooth: string; tax: string; patientShare: string; package: boolean; maternity: boolean }) {
  const tax = item.tax.trim() ? parseAmountMinor(item.tax) : undefined;
  const share = item.patientShare.trim() ? parseAmountMinor(item.patientShare) : undefined;
  return {
    ...(item.system ? { system: item.system } : {}),
    ...(item.tooth ? { tooth: item.tooth } : {}),
    ...(tax !== undefined ? { taxMinor: tax } : {}),
    ...(share !== undefined ? { patientShareMinor: share } : {}),
    ...(item.package ? { package: true } : {}),
    ...(item.maternity ? { maternity: true } : {}),
  };
}

/** The Claim of a complete form, with the attachments' bytes. */
async function claimOf(deps: ServiceDeps, values: SubmissionFormValues, resolved: Required<Omit<Resolved, "newborn">> & Pick<Resolved, "newborn">, team: readonly Practitioner[], prior?: ClaimInput["prior"]): Promise<Record<string, unknown>> {
  const files = await attachmentsWithData(deps.db, values.attachmentIds);
  // A change of an authorization (a prior authorization carrying its reference, decision 114): services
  // already provided go with their date as servicedPeriod.start, and the clinic's justification with them
  // (guide 7.3.1, Table 37).
  const changing = values.use === "preauthorization" && Boolean(values.preAuthRef);
  const lines = values.items.map((item) => ({ code: item.code, servicedDate: item.servicedDate, quantity: parseQuantity(item.quantity)!, unitPriceMinor: parseAmountMinor(item.unitPrice)!, ...lineExtras(item), ...(changing && item.performed ? { performed: true } : {}) }));
  // The patient's share and VAT of each line, sent in the exchange's extensions (docs/decisions/091).
  const shares = await claimLineShares(deps.db, { nationalId: resolved.patient.nationalId, insurerId: resolved.coverage.insurerId, network: resolved.coverage.network, coverageClass: resolved.coverage.coverageClass, items: lines });
  const created = now(deps);
  const input: ClaimInput = {
    use: values.use,
    nationalId: resolved.patient.nationalId,
    coverageRef: resolved.coverage.coverageRef,
    providerOrgId: deps.providerOrgId,
    created,
    diagnoses: values.diagnoses,
    procedures: values.procedures,
    // A share or VAT given on the line wins; otherwise the contract's (docs/decisions/091).
    items: lines.map((line, n) => ({ ...line, patientShareMinor: line.patientShareMinor ?? shares[n]!.patientMinor, taxMinor: line.taxMinor ?? shares[n]!.vatMinor, ...substitutionOf(values, n) })),
    careSetting: careSettingOf(values, team),
    attachments: files.map((f) => ({ contentType: f.contentType, data: f.data, title: f.fileName, creation: f.createdAt })),
    // A claim made from an authorization, or a change of a payer's advanced authorization, keeps its reference (decision 101).
    // A referral's transfer authorization travels as preAuthRef too (guide 7.3 step 4, decision 120).
    preAuthRefs: [...new Set([...(values.preAuthRef ? [values.preAuthRef] : []), ...(values.referral.active && values.referral.reference ? [values.referral.reference] : [])])],
    ...(prior ? { prior } : {}),
    // The month the claim is billed in, in the clinic's calendar (the builder writes it on claims only).
    accountingPeriod: `${clinicToday(undefined, created)}`.slice(0, 8) + "01",
    ...dispensing(values),
    ...(resolved.newborn ? { newborn: newbornOf(values, resolved.patient, resolved.newborn) } : {}),
    ...(await offlineOf(deps.db, values, resolved)),
    ...referralOf(values),
    ...(changing && values.changeJustification ? { justification: values.changeJustification } : {}),
  };
  return { ...buildClaim(input) };
}

/**
 * A newborn's flag, and the birth weight only on the birth encounter (guide 6.5, p. 96: "Birthweight
 * is required only on the newborn encounter - i.e. the birth encounter"): a line served, or a stay
 * admitted, on the baby's birth date (decision 120). Later visits within the 30 days carry the flag alone.
 */
export function newbornOf(values: Pick<SubmissionFormValues, "items" | "admission">, patient: Pick<Patient, "birthDate">, newborn: { birthWeightKg?: number }): { birthWeightKg?: number } {
  const days = [...values.items.map((i) => i.servicedDate), values.admission.slice(0, 10)].filter(Boolean);
  return newborn.birthWeightKg !== undefined && days.includes(patient.birthDate) ? { birthWeightKg: newborn.birthWeightKg } : {};
}

/**
 * Transfer of care (guide 7.3, Table 37; decision 120): the referring clinic's prior authorization
 * carries extension-transfer; the receiving facility's claim — or the prior authorization that
 * extends the referral (step 5) — the reason for visit `referral`, the referring provider
 * (Claim.referral.display) and, on a claim, the transfer authorization's date (its number goes in
 * preAuthRefs).
 */
export function referralOf(values: Pick<SubmissionFormValues, "use" | "transfer" | "referral">): Pick<ClaimInput, "transfer" | "referral"> {
  const r = values.referral;
  return {
    ...(values.use === "preauthorization" && values.transfer ? { transfer: true } : {}),
    ...(r.active ? { referral: { providerName: r.provider, ...(r.date ? { authorizationDate: r.date } : {}) } } : {}),
  };
}

/**
 * A pharmacy claim dispensing a verified prescription (docs/decisions/116): its reference
 * (Claim.prescription) and, on each line the pharmacist dispensed instead of the prescribed
 * medicine, the substitution extensions. Other claims: nothing.
 */
function dispensing(values: Pick<SubmissionFormValues, "use" | "claimType" | "prescriptionRef" | "substitutions">): Pick<ClaimInput, "prescriptionRef"> {
  if (values.use !== "claim" || values.claimType !== "pharmacy" || !values.prescriptionRef) return {};
  return { prescriptionRef: values.prescriptionRef };
}

/** The substitution the form recorded for line `n` of a pharmacy claim dispensing a prescription. */
function substitutionOf(values: Pick<SubmissionFormValues, "use" | "claimType" | "prescriptionRef" | "substitutions">, n: number): Pick<ClaimItemInput, "substitution"> {
  if (values.use !== "claim" || values.claimType !== "pharmacy" || !values.prescriptionRef) return {};
  const s = values.substitutions.find((x) => x.line === n);
  if (!s) return {};
  const [system, code] = s.prescribed.split("|") as [string, string];
  return { substitution: { prescribed: { system, code }, reason: s.reason as nphies.PharmacistSelectionReason, substitute: s.substitute as nphies.PharmacistSubstitute } };
}

/**
 * What the insurer gave while the exchange could not be reached (docs/decisions/111): the offline
 * eligibility the front desk recorded for the patient and coverage, and the offline authorization
 * billing typed on the form (its reference travels as preAuthRef).
 */
async function offlineOf(db: Db, values: SubmissionFormValues, resolved: { patient: Patient; coverage: CoverageView }): Promise<Pick<ClaimInput, "offline">> {
  const firstDay = values.items.map((i) => i.servicedDate).filter(Boolean).sort()[0];
  const eligibility = firstDay ? await offlineEligibilityFor(db, resolved.patient.id, resolved.coverage.id, firstDay) : undefined;
  const a = values.offlineAuthorization;
  const authorization = a.reference && a.date ? { reference: a.reference, date: a.date } : undefined;
  return eligibility || authorization ? { offline: { ...(eligibility ? { eligibility } : {}), ...(authorization ? { authorization } : {}) } } : {};
}

/**
 * The Claim of a draft as far as it is filled in (valid codes and lines only, no attachment
 * bytes): enough for totals in lists. The full Claim is built again when the draft is submitted.
 */
function draftClaimOf(deps: ServiceDeps, values: DraftFormValues, resolved: Resolved): Record<string, unknown> {
  const items = values.items.flatMap((item) => {
    const quantity = parseQuantity(item.quantity);
    const unitPriceMinor = parseAmountMinor(item.unitPrice);
    return /^\S+$/.test(item.code.trim()) && quantity !== undefined && unitPriceMinor !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(item.servicedDate)
      ? [{ code: item.code, servicedDate: item.servicedDate, quantity, unitPriceMinor, ...lineExtras(item) }]
      : [];
  });
  const claim: Record<string, unknown> = { ...buildClaim({
    use: values.use,
    nationalId: resolved.patient.nationalId,
    coverageRef: resolved.coverage?.coverageRef ?? "",
    providerOrgId: deps.providerOrgId,
    created: now(deps),
    diagnoses: values.diagnoses.filter((c) => /^\S+$/.test(c)),
    procedures: values.procedures.filter((c) => /^\S+$/.test(c)),
    items,
    preAuthRefs: values.preAuthRef ? [values.preAuthRef] : [],
    // The care team is resolved when the draft is submitted; a draft's Claim serves totals and lists.
    careSetting: careSettingOf(values, []),
  }) };
  if (!resolved.coverage) delete claim.insurance;
  return claim;
}

/** The claim a resubmission replaces, as `Claim.related` names it (decisions 045–048). */
async function priorOf(db: Db, id: string): Promise<ClaimInput["prior"]> {
  const [row] = await db
    .select({ platformId: submissions.platformId, system: submissions.identifierSystem, value: submissions.identifierValue })
    .from(submissions)
    .where(eq(submissions.id, id));
  if (!row || (!row.platformId && !row.value)) return undefined;
  return { ...(row.platformId ? { platformId: row.platformId } : {}), ...(row.value ? { identifier: { ...(row.system ? { system: row.system } : {}), value: row.value } } : {}) };
}

async function loadDraft(db: Db, id: string, use: SubmissionUse): Promise<Submission | "not_found" | "not_draft"> {
  if (!isUuid(id)) return "not_found";
  const [row] = await db.select().from(submissions).where(and(eq(submissions.id, id), eq(submissions.kind, use)));
  if (!row) return "not_found";
  return row.status === "draft" ? row : "not_draft";
}

async function record(db: Db | Tx, caller: Caller, action: string, id: string | undefined, outcome: "success" | "failure", details?: Record<string, unknown>) {
  await audit(db, {
    actor: caller.actor,
    action,
    target: { type: "submission", id: id ?? "new" },
    outcome,
    requestId: caller.requestId,
    ip: caller.ip,
    ...(details ? { details } : {}),
  });
}

const kindLabel = (use: SubmissionUse) => (use === "preauthorization" ? "authorization" : "claim");

/** What a new draft is linked to: the claim it replaces (fix / copy of a cancelled one), its authorization. */
export interface DraftLinks {
  replacesId?: string;
  authorizationId?: string;
}

/** A form's draft as the intake's writeDraft takes it. */
function draftWriteOf(caller: Caller, existing: Submission | undefined, values: { use: SubmissionUse; form: Record<string, unknown>; claim: Record<string, unknown>; resolved: Resolved; attachmentIds: readonly string[]; links?: DraftLinks }): DraftWrite {
  return {
    kind: values.use,
    claim: values.claim,
    patientNationalId: values.resolved.patient.nationalId,
    ...(values.resolved.coverage?.insurerId ? { insurerId: values.resolved.coverage.insurerId } : {}),
    channel: "ui",
    ...(caller.userId ? { createdBy: caller.userId } : {}),
    form: values.form,
    attachmentIds: values.attachmentIds,
    ...(values.links ? { links: values.links } : {}),
    ...(existing ? { draft: existing } : {}),
  };
}

/** Options of a save or submit: links of a new draft, the batch of "submit selected". */
export interface SaveOptions {
  links?: DraftLinks;
  /** Kept in the form (`form.batch`, lib/claims batch progress), written with the submit. */
  batchId?: string;
  /** How the sender answered the scrubber: "Send anyway" to its warnings, an override reason for its errors. */
  scrub?: Pick<ScrubAnswer, "acknowledgeWarnings" | "overrideReason">;
}

/**
 * Saves the form as a draft (new, or the draft being edited). Attachments are linked to it. The
 * draft, its form, its attachments and the audit entry are one transaction.
 */
export async function saveDraft(deps: ServiceDeps, caller: Caller, input: unknown, draftId?: string, options: SaveOptions = {}): Promise<SaveResult> {
  const parsed = draftFormSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: "invalid", fieldErrors: flatten(parsed.error.issues) };
  const values = parsed.data;
  const resolved = await resolvePatient(deps.db, values.patientId, values.coverageId || undefined);
  if (!resolved.ok) return { ok: false, error: "invalid", fieldErrors: resolved.fieldErrors };
  const existing = draftId ? await loadDraft(deps.db, draftId, values.use) : undefined;
  if (typeof existing === "string") return { ok: false, error: existing };
  const attachmentErrors = await checkAttachments(deps.db, values.attachmentIds, caller.userId, existing?.id);
  if (attachmentErrors) return { ok: false, error: "invalid", fieldErrors: attachmentErrors };

  const claim = draftClaimOf(deps, values, resolved);
  const at = now(deps);
  const id = await deps.db.transaction(async (tx) => {
    const written = await writeDraft(tx, draftWriteOf(caller, existing, { use: values.use, form: { ...values }, claim, resolved, attachmentIds: values.attachmentIds, links: options.links }), at);
    if (written !== "not_draft") await record(tx, caller, `${kindLabel(values.use)}.draft_save`, written, "success", { patientId: resolved.patient.id, attachments: values.attachmentIds.length });
    return written;
  });
  if (id === "not_draft") return { ok: false, error: "not_draft" };
  return { ok: true, id, status: "draft" };
}

/**
 * Submits the form: parsed again with the form's schema, patient/coverage/attachments checked,
 * the Claim built with the attachments' bytes, stored (the draft updated, or a new one) and handed
 * to the outbox, which sends it to the platform. Draft, form, attachments, queueing and the audit
 * entry are one transaction: a failure anywhere leaves nothing half-done (docs/decisions/062).
 */
export async function submitForm(deps: ServiceDeps, caller: Caller, input: unknown, draftId?: string, options: SaveOptions = {}): Promise<SaveResult> {
  const parsed = submissionFormSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: "invalid", fieldErrors: flatten(parsed.error.issues) };
  const values = parsed.data;
  // In messaging the visit details are checked against the catalogue's lists, what the form offered
  // (decision 118): read once, for the form's fields and for the Claim's check below.
  const codeLists = deps.protocol === "messaging" ? await mdsCodeLists(deps.db) : undefined;
  const listErrors = { ...listsOfProtocol(values, deps.protocol ?? "rest"), ...mdsOfProtocol(values, codeLists) };
  if (Object.keys(listErrors).length > 0) return { ok: false, error: "invalid", fieldErrors: listErrors };
  const codeErrors = await unknownCodes(deps.db, values);
  if (codeErrors) return { ok: false, error: "invalid", fieldErrors: codeErrors };
  const resolved = await resolvePatient(deps.db, values.patientId, values.coverageId, values.items.map((i) => i.servicedDate).filter(Boolean));
  if (!resolved.ok) return { ok: false, error: "invalid", fieldErrors: resolved.fieldErrors };
  if (!resolved.coverage) return { ok: false, error: "invalid", fieldErrors: { coverageId: ["coverageRequired"] } };
  const baby = deps.protocol === "messaging" ? admissionWeightIssue(values, resolved.patient.birthDate) : undefined;
  if (baby) return { ok: false, error: "invalid", fieldErrors: flatten([baby]) };
  // The exchange refuses a request whose Patient has no marital status or whose Coverage no class
  // (the Minimum Data Set, BV-90004): said here, where staff can fix the record, not after sending.
  if (deps.protocol === "messaging") {
    const record: FieldErrors = {};
    if (!resolved.patient.maritalStatus) record.patientId = ["maritalStatusMissing"];
    if (!resolved.coverage.coverageClass) record.coverageId = ["coverageClassMissing"];
    if (Object.keys(record).length > 0) return { ok: false, error: "invalid", fieldErrors: record };
  }
  const coverage = resolved.coverage;
  const existing = draftId ? await loadDraft(deps.db, draftId, values.use) : undefined;
  if (typeof existing === "string") return { ok: false, error: existing };
  const attachmentErrors = await checkAttachments(deps.db, values.attachmentIds, caller.userId, existing?.id);
  if (attachmentErrors) return { ok: false, error: "invalid", fieldErrors: attachmentErrors };

  const careTeam = await resolveCareTeam(deps.db, values.careTeam);
  if (!careTeam.ok) return { ok: false, error: "invalid", fieldErrors: careTeam.fieldErrors };
  // A pharmacy claim names only a prescription verified for this patient (docs/decisions/116).
  if (values.use === "claim" && values.claimType === "pharmacy" && values.prescriptionRef) {
    const verified = await verifiedPrescriptionsFor(deps.db, resolved.patient.nationalId);
    const picked = verified.find((p) => p.reference === values.prescriptionRef);
    if (!picked) return { ok: false, error: "invalid", fieldErrors: { prescriptionRef: ["prescriptionUnknown"] } };
    // Each pharmacy claim naming it is a dispense; none beyond the refills the payer approved (docs/decisions/121).
    if (refillsLeftOf(picked) === 0) return { ok: false, error: "invalid", fieldErrors: { prescriptionRef: ["refillsUsedUp"] } };
  }
  const claim = await claimOf(deps, values, { patient: resolved.patient, coverage, ...(resolved.newborn ? { newborn: resolved.newborn } : {}) }, careTeam.team, existing?.replacesId ? await priorOf(deps.db, existing.replacesId) : undefined);
  // The exchange's rules asked of the Claim itself, as of every intake's (claim-rules.ts): the form
  // names these at its fields first, so a problem here is one the form could not show.
  const checked = checkClaim(claim, { protocol: deps.protocol ?? "rest", ...(codeLists ? { codeLists } : {}) });
  if (!checked.ok) {
    warn(`a ${kindLabel(values.use)} form built a Claim the exchange's rules refuse (${checked.problem.reason} at ${checked.problem.path.join(".")}); nothing was sent`);
    return { ok: false, error: "invalid", fieldErrors: { form: ["exchangeRule"] } };
  }
  const form: Record<string, unknown> = { ...values };
  // No platform call here: the scrubber reads the eligibility answer already stored, and the outbox
  // checks eligibility again before sending when that answer is not recent (docs/decisions/124).
  const canOverride = mayOverrideScrubber(caller);
  // One transaction whatever the scrubber says (intake.ts): the draft (new or edited), its form and
  // attachments, then the queueing and the submit's audit entry — or, when the scrubber stops it,
  // the same draft kept with the scrub_blocked audit entry instead.
  const entered = await intake(
    deps.db,
    { ...draftWriteOf(caller, existing, { use: values.use, form, claim: checked.claim, resolved, attachmentIds: values.attachmentIds, links: options.links }), claim: checked.claim, ...(options.batchId ? { batchId: options.batchId } : {}) },
    {
      source: "user",
      now: now(deps),
      whenBlocked: "keep-draft",
      scrub: {
        acknowledgeWarnings: options.scrub?.acknowledgeWarnings === true,
        ...(canOverride && options.scrub?.overrideReason ? { overrideReason: options.scrub.overrideReason } : {}),
        ...(options.scrub?.overrideReason && !canOverride ? { overrideRefused: true } : {}),
      },
      audit: {
        actor: caller.actor,
        action: `${kindLabel(values.use)}.submit`,
        requestId: caller.requestId,
        ip: caller.ip,
        details: {
          patientId: resolved.patient.id,
          items: values.items.length,
          attachments: values.attachmentIds.length,
          totalMinor: values.items.reduce((sum, i) => sum + (lineTotalMinor(i.quantity, i.unitPrice) ?? 0), 0),
        },
      },
    },
  );
  if (entered.outcome === "not_draft") return { ok: false, error: "not_draft" };
  if (entered.outcome === "blocked") return { ok: false, error: "scrub", id: entered.draftId!, findings: entered.error.result.findings, canOverride };
  return { ok: true, id: entered.submission.id, status: entered.submission.status };
}

export type ClaimFromAuthorizationResult =
  | { ok: true; id: string; reused: boolean }
  | { ok: false; error: "not_found" | "not_approved" };

/** What a draft made from a decided authorization is: a claim that uses it, or a new request that changes it. */
interface FromAuthorization {
  use: "claim" | "preauthorization";
  /** Only a payer's own approval (docs/decisions/101) may be the source. */
  payerOnly: boolean;
  /** How the draft names its source: `authorization_id` (a claim) or `replaces_id` (a change). */
  link: "authorizationId" | "replacesId";
  action: string;
  /** A change: the ids of the authorization's versions (already read by the caller), whose claims mark lines provided. */
  versionIds?: readonly string[];
}

/**
 * The one way a draft is made from a decided (approved or partly approved) authorization: the same
 * patient, coverage, diagnoses and items, its preAuthRef, linked to it; an open draft made the same
 * way from it is reopened instead. `not_decided` when the source is not an approved authorization.
 */
async function draftFromAuthorization(deps: ServiceDeps, caller: Caller, authorizationId: string, how: FromAuthorization): Promise<{ ok: true; id: string; reused: boolean } | { ok: false; error: "not_found" | "not_decided" }> {
  if (!isUuid(authorizationId)) return { ok: false, error: "not_found" };
  const [auth] = await deps.db
    .select()
    .from(submissions)
    .where(and(eq(submissions.id, authorizationId), eq(submissions.kind, "preauthorization"), ...(how.payerOnly ? [eq(submissions.channel, PAYER_CHANNEL)] : [])));
  if (!auth) return { ok: false, error: "not_found" };
  const preAuthRef = typeof auth.response?.preAuthRef === "string" ? auth.response.preAuthRef : undefined;
  if ((auth.status !== "complete" && auth.status !== "partial") || !preAuthRef) return { ok: false, error: "not_decided" };
  const kind = how.use;
  const [existing] = await deps.db
    .select({ id: submissions.id })
    .from(submissions)
    .where(and(eq(how.link === "authorizationId" ? submissions.authorizationId : submissions.replacesId, auth.id), eq(submissions.kind, kind), eq(submissions.status, "draft")))
    .orderBy(desc(submissions.createdAt))
    .limit(1);
  if (existing) {
    await record(deps.db, caller, how.action, existing.id, "success", { authorizationId: auth.id, reused: true });
    return { ok: true, id: existing.id, reused: true };
  }
  const source = draftFormSchema.safeParse({ ...(auth.form ?? {}), use: kind });
  if (!source.success) return { ok: false, error: "not_found" };
  // Transfer of care (guide 7.3, decision 120): a change keeps the referring request's transfer flag;
  // a claim carries none (the flag is a prior authorization's). A referral's reason, provider and
  // transfer number are not repeated: what follows refers to the approved authorization (step 6).
  const values: DraftFormValues = {
    ...source.data,
    use: kind,
    attachmentIds: [],
    preAuthRef,
    transfer: kind === "preauthorization" && source.data.transfer,
    referral: { active: false, provider: "", reference: "", date: "" },
    changeJustification: "",
  };
  if (how.versionIds) values.items = await markPerformed(deps, auth.id, how.versionIds, values.items);
  const resolved = await resolvePatient(deps.db, values.patientId, values.coverageId || undefined);
  if (!resolved.ok) return { ok: false, error: "not_found" };
  const claim = draftClaimOf(deps, values, resolved);
  const row = await deps.db.transaction(async (tx) => {
    const created = await insertDraft(
      tx,
      { kind, patientNationalId: auth.patientNationalId, insurerId: auth.insurerId ?? undefined, claim, form: { ...values }, createdBy: caller.userId, channel: "ui", [how.link]: auth.id },
      now(deps),
    );
    await record(tx, caller, how.action, created.id, "success", { authorizationId: auth.id });
    return created;
  });
  return { ok: true, id: row.id, reused: false };
}

/**
 * A change's lines that were already provided (guide 7.3.1, Table 37: "if the service has already
 * been provided then put the service date in Claim.item.servicePeriod.start"): a service claims of
 * this authorization (any version) have consumed, on a day not after today. Staff can untick it.
 */
async function markPerformed(deps: ServiceDeps, authorizationId: string, versionIds: readonly string[], items: DraftFormValues["items"]): Promise<DraftFormValues["items"]> {
  const usage = await authorizationUsage(deps.db, authorizationId, undefined, versionIds);
  const used = new Set((usage?.services ?? []).filter((s) => s.usedQuantity > 0).map((s) => s.code));
  const today = clinicToday(undefined, now(deps));
  return items.map((item) => ({ ...item, performed: used.has(item.code) && Boolean(item.servicedDate) && item.servicedDate <= today }));
}

/**
 * A draft claim made from a decided (approved or partly approved) prior authorization: the same
 * patient, coverage, diagnoses, procedures and items, the authorization's preAuthRef, and
 * `authorization_id` linking the two. An existing draft for the same authorization is reopened.
 */
export async function createClaimFromAuthorization(deps: ServiceDeps, caller: Caller, authorizationId: string): Promise<ClaimFromAuthorizationResult> {
  const result = await draftFromAuthorization(deps, caller, authorizationId, { use: "claim", payerOnly: false, link: "authorizationId", action: "claim.create_from_authorization" });
  if (result.ok) return result;
  return { ok: false, error: result.error === "not_decided" ? "not_approved" : "not_found" };
}

export type ChangeRequestResult = { ok: true; id: string; reused: boolean } | { ok: false; error: "not_found" | "not_changeable" };

/**
 * A payer's advanced authorization changed by the clinic (guide v2.7 Table 38, docs/decisions/101):
 * a new prior-authorization draft that repeats all its services (the clinic edits, adds or removes
 * lines before sending), keeps its preAuthRef (`insurance.preAuthRef`) and is related to it
 * (`replacesId` → `Claim.related` prior, its identifier). An open draft of the same change is reopened.
 */
export async function draftChangeOfPayerAuthorization(deps: ServiceDeps, caller: Caller, authorizationId: string): Promise<ChangeRequestResult> {
  const result = await draftFromAuthorization(deps, caller, authorizationId, { use: "preauthorization", payerOnly: true, link: "replacesId", action: "authorization.change_payer_approval", versionIds: [] });
  if (result.ok) return result;
  return { ok: false, error: result.error === "not_decided" ? "not_changeable" : "not_found" };
}

/**
 * A change of the clinic's own decided authorization (guide v2.7 Table 37, docs/decisions/114):
 * extend it, add or remove services, resubmit what was cut or refused. A new prior-authorization
 * draft repeating all its services (the clinic edits them in the form), keeping its preAuthRef and
 * related to it (`replacesId` → `Claim.related` prior); sent like any request, it overrides the
 * version it changes once the payer decides it. Only the current version may be changed, and not
 * while an earlier change of it is still with the payer.
 */
export async function draftAuthorizationChange(deps: ServiceDeps, caller: Caller, authorizationId: string): Promise<ChangeRequestResult> {
  if (!isUuid(authorizationId)) return { ok: false, error: "not_found" };
  const versions = await authorizationVersions(deps.db, authorizationId);
  if (versions.length === 0) return { ok: false, error: "not_found" };
  if (!changeableVersion(versions, authorizationId)) return { ok: false, error: "not_changeable" };
  const result = await draftFromAuthorization(deps, caller, authorizationId, { use: "preauthorization", payerOnly: false, link: "replacesId", action: "authorization.change", versionIds: versions.map((v) => v.id) });
  if (result.ok) return result;
  return { ok: false, error: result.error === "not_decided" ? "not_changeable" : "not_found" };
}
