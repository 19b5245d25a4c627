import { and, desc, eq, inArray, isNull, notInArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { MedicationRequest } from "@medplum/fhirtypes";
import type { Caller } from "@/lib/audit";
import type { Db } from "@/lib/db";
import { submissions } from "@/lib/db";
import { buildPrescription, nphies, type ClaimResponseView, type PrescriptionLineInput } from "@/lib/fhir";
import { practitionersByIds } from "@/lib/facilities";
import { isUuid } from "@/lib/ids";
import { getCoverage, getPatient } from "@/lib/patients";
import { lookupCodes } from "@/lib/terminology";
import { checkClaim } from "./claim-rules";
import { intake } from "./intake";
import type { Submission } from "./states";
import type { PlatformProtocol } from "./care-setting";

/**
 * A prescription sent for verification (guide 7.11, docs/decisions/116): a submission of its own
 * kind (`prescription`, Claim.use predetermination) that goes through the one outbox, answers,
 * cancel, status check and communications as an authorization does. This file is its intake (the
 * page's form and the exchange API alike) and its reads (the page, the pharmacy claim's picker).
 */

const code = z.string().trim().min(1, "required").max(64, "tooLong");
const int = (min: number, max: number) => z.coerce.number({ error: "number" }).int("wholeNumber").min(min, "tooSmall").max(max, "tooLarge");

export const prescriptionLineSchema = z
  .object({
    by: z.enum(["scientific", "gtin"]),
    code,
    /** By GTIN: why there is no scientific code (the guide's justification). */
    absenceReason: z.union([z.enum(nphies.ABSENCE_OF_SCIENTIFIC_CODE_CODES as [nphies.AbsenceOfScientificCode, ...nphies.AbsenceOfScientificCode[]]), z.literal("")]).default(""),
    strength: z.string().trim().min(1, "required").max(40, "tooLong"),
    doseValue: z.coerce.number({ error: "number" }).positive("tooSmall").max(1000, "tooLarge"),
    doseUnit: z.string().trim().min(1, "required").max(20, "tooLong"),
    frequency: z.enum(nphies.DOSE_FREQUENCY_CODES as [nphies.DoseFrequency, ...nphies.DoseFrequency[]]),
    durationDays: int(1, 365),
    refills: int(0, nphies.MAX_REQUESTED_REFILLS),
    quantity: int(1, 99),
  })
  .superRefine((line, ctx) => {
    if (line.by === "gtin" && !line.absenceReason) ctx.addIssue({ code: "custom", path: ["absenceReason"], message: "absenceReasonRequired" });
  });

export const prescriptionSchema = z.object({
  patientId: z.uuid("patientRequired"),
  coverageId: z.uuid("coverageRequired"),
  prescriberId: z.uuid("prescriberRequired"),
  diagnoses: z.array(code).min(1, "diagnosisRequired").max(10, "tooMany"),
  lines: z.array(prescriptionLineSchema).min(1, "lineRequired").max(10, "tooMany"),
  /** An appeal of a decided prescription: the one it appeals (guide 7.11.1, Table 39). */
  appealOf: z.uuid().optional(),
});
export type PrescriptionValues = z.infer<typeof prescriptionSchema>;
export type PrescriptionFormInput = z.input<typeof prescriptionSchema>;

export interface PrescriptionDeps {
  db: Db;
  providerOrgId: string;
  protocol?: PlatformProtocol;
  clock?: () => Date;
  /** The submit's audit verb: `prescription.submit` from the page, the API's own (`exchange.prescription.submit`) from it. */
  auditAction?: string;
}

export type PrescriptionFieldErrors = Partial<Record<string, string[]>>;
export type PrescriptionResult =
  | { ok: true; id: string; status: Submission["status"] }
  | { ok: false; error: "invalid"; fieldErrors: PrescriptionFieldErrors }
  | { ok: false; error: "not_found" };

function flatten(issues: readonly { path: readonly PropertyKey[]; message: string }[]): PrescriptionFieldErrors {
  const out: PrescriptionFieldErrors = {};
  for (const issue of issues) (out[issue.path.length ? issue.path.map(String).join(".") : "form"] ??= []).push(issue.message);
  return out;
}

/** The systems a line's medicine is looked up in (the demo catalogue's keys). */
const CATALOGUE_OF = { scientific: "scientific-codes", gtin: "medication-codes" } as const;

/**
 * Checks a prescription, builds it and hands it to the outbox — draft and queue in one
 * transaction. Every refusal is a field error in words (the page's, the API's 422), nothing sent.
 */
export async function submitPrescription(deps: PrescriptionDeps, caller: Caller, input: unknown, channel: "ui" | "exchange-api" = "ui"): Promise<PrescriptionResult> {
  const parsed = prescriptionSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: "invalid", fieldErrors: flatten(parsed.error.issues) };
  const values = parsed.data;
  const errors: PrescriptionFieldErrors = {};
  const patient = await getPatient(deps.db, values.patientId);
  if (!patient) return { ok: false, error: "invalid", fieldErrors: { patientId: ["patientRequired"] } };
  const coverage = await getCoverage(deps.db, values.coverageId);
  if (!coverage || coverage.patientId !== patient.id) errors.coverageId = ["coverageRequired"];
  const [prescriber] = await practitionersByIds(deps.db, [values.prescriberId]);
  if (!prescriber?.active) errors.prescriberId = ["prescriberUnknown"];
  const [icd, scientific, gtin] = await Promise.all([
    lookupCodes(deps.db, "icd-10-am", values.diagnoses),
    lookupCodes(deps.db, CATALOGUE_OF.scientific, values.lines.filter((l) => l.by === "scientific").map((l) => l.code)),
    lookupCodes(deps.db, CATALOGUE_OF.gtin, values.lines.filter((l) => l.by === "gtin").map((l) => l.code)),
  ]);
  const known = { scientific: new Map(scientific.map((h) => [h.code, h.en])), gtin: new Map(gtin.map((h) => [h.code, h.en])) };
  const knownIcd = new Set(icd.map((h) => h.code));
  values.diagnoses.forEach((c, i) => !knownIcd.has(c) && (errors[`diagnoses.${i}`] = ["diagnosisUnknown"]));
  values.lines.forEach((l, i) => !known[l.by].has(l.code) && (errors[`lines.${i}.code`] = ["medicineUnknown"]));
  // The exchange refuses a Patient without marital status or a Coverage without class (the Minimum Data Set).
  if (deps.protocol === "messaging" && coverage) {
    if (!patient.maritalStatus) errors.patientId = ["maritalStatusMissing"];
    if (!coverage.coverageClass) errors.coverageId = ["coverageClassMissing"];
  }
  let prior: { platformId?: string; identifier?: { system?: string; value: string } } | undefined;
  if (values.appealOf) {
    const [appealed] = await deps.db.select().from(submissions).where(and(eq(submissions.id, values.appealOf), eq(submissions.kind, "prescription")));
    if (!appealed || !["partial", "denied"].includes(appealed.status) || appealed.patientNationalId !== patient.nationalId) errors.appealOf = ["notAppealable"];
    else prior = { ...(appealed.platformId ? { platformId: appealed.platformId } : {}), ...(appealed.identifierValue ? { identifier: { ...(appealed.identifierSystem ? { system: appealed.identifierSystem } : {}), value: appealed.identifierValue } } : {}) };
  }
  if (Object.keys(errors).length > 0 || !coverage || !prescriber) return { ok: false, error: "invalid", fieldErrors: errors };

  const at = (deps.clock ?? (() => new Date()))();
  const lines: PrescriptionLineInput[] = values.lines.map((l) => ({
    medicine:
      l.by === "gtin"
        ? { by: "gtin", code: l.code, display: known.gtin.get(l.code), absenceReason: l.absenceReason as nphies.AbsenceOfScientificCode }
        : { by: "scientific", code: l.code, display: known.scientific.get(l.code) },
    strength: l.strength,
    dose: { value: l.doseValue, unit: l.doseUnit },
    frequency: l.frequency,
    durationDays: l.durationDays,
    refills: l.refills,
    quantity: l.quantity,
  }));
  const { claim } = buildPrescription({
    nationalId: patient.nationalId,
    coverageRef: coverage.coverageRef,
    providerOrgId: deps.providerOrgId,
    created: at,
    diagnoses: values.diagnoses,
    prescriber: { practitionerId: prescriber.id, specialty: prescriber.specialty, license: prescriber.license, name: `${prescriber.givenName} ${prescriber.familyName}` },
    lines,
    ...(prior ? { prior } : {}),
  });
  // The exchange's rules asked of the built request, as of every intake's (claim-rules.ts).
  const checked = checkClaim(claim, { protocol: deps.protocol ?? "rest" });
  if (!checked.ok) return { ok: false, error: "invalid", fieldErrors: { form: ["exchangeRule"] } };
  const source = channel === "ui" ? "user" : "api";
  const entered = await intake(
    deps.db,
    {
      kind: "prescription",
      claim: checked.claim,
      patientNationalId: patient.nationalId,
      insurerId: coverage.insurerId,
      channel,
      ...(caller.userId ? { createdBy: caller.userId } : {}),
      ...(values.appealOf ? { links: { appealOfId: values.appealOf } } : {}),
      form: values as unknown as Record<string, unknown>,
    },
    {
      source,
      now: at,
      scrub: { acknowledgeWarnings: true },
      // The scrubber's errors (a coverage out of force, …) are the form's error: nothing is written.
      whenBlocked: "store-nothing",
      audit: {
        actor: caller.actor,
        action: deps.auditAction ?? "prescription.submit",
        requestId: caller.requestId,
        ip: caller.ip,
        details: { lines: values.lines.length, refills: values.lines.map((l) => l.refills), ...(values.appealOf ? { appealOf: values.appealOf } : {}) },
      },
    },
  );
  if (entered.outcome === "blocked") return { ok: false, error: "invalid", fieldErrors: { form: entered.error.result.errors.map((f) => `scrub:${f.code}`) } };
  if (entered.outcome === "not_draft") throw new Error("a prescription's intake names no draft");
  return { ok: true, id: entered.submission.id, status: entered.submission.status };
}

/** One line of a prescription as the page shows it: what was asked, and the payer's answer. */
export interface PrescriptionLineView {
  sequence: number;
  system: string;
  code: string;
  display?: string;
  strength?: string;
  dose?: string;
  frequency?: string;
  durationDays?: number;
  refillsRequested: number;
  quantity?: number;
  decision?: string;
  approvedRefills?: number;
  /** Refills still open: approved less the pharmacy claims that dispensed the prescription (never below 0). */
  refillsLeft?: number;
  /** The medicine's Arabic name from the catalogue, when it has one (Arabic pages show it). */
  displayAr?: string;
  reasons: { code?: string; display?: string }[];
}

export interface PrescriptionView {
  id: string;
  status: Submission["status"];
  /** National ID / Iqama. */
  patientNationalId: string;
  identifier?: string;
  createdAt: Date;
  decidedAt: Date | null;
  /** The payer's reference of the verification (ClaimResponse.preAuthRef): what a pharmacy claim names. */
  reference?: string;
  lines: PrescriptionLineView[];
  appealOfId: string | null;
  /** Pharmacy claims that named this prescription's reference and reached the payer (each one a dispense). */
  dispensed: number;
}

type StoredItem = { sequence?: number; productOrService?: { coding?: { system?: string; code?: string; display?: string }[] }; quantity?: { value?: number }; extension?: { url?: string; valueString?: string; valueReference?: { reference?: string } }[] };

/** A prescription submission as the page shows it (undefined: no such prescription). */
export function prescriptionViewOf(row: Submission): PrescriptionView | undefined {
  if (row.kind !== "prescription") return undefined;
  const claim = row.claim as { item?: StoredItem[]; contained?: MedicationRequest[] };
  const answer = row.responseView as unknown as ClaimResponseView | null;
  const requests = new Map((claim.contained ?? []).filter((r) => r.resourceType === "MedicationRequest").map((r) => [`#${r.id ?? ""}`, r]));
  const lines = (claim.item ?? []).map((item, i): PrescriptionLineView => {
    const sequence = item.sequence ?? i + 1;
    const coding = item.productOrService?.coding?.[0];
    const request = requests.get(item.extension?.find((e) => e.url === nphies.EXTENSIONS.prescription)?.valueReference?.reference ?? "");
    const dosage = request?.dosageInstruction?.[0];
    const repeat = dosage?.timing?.repeat;
    const frequency = nphies.DOSE_FREQUENCY_CODES.find((f) => nphies.DOSE_FREQUENCIES[f].frequency === repeat?.frequency && nphies.DOSE_FREQUENCIES[f].periodUnit === repeat?.periodUnit);
    const dose = dosage?.doseAndRate?.[0]?.doseQuantity;
    const answered = answer?.items?.find((l) => l.sequence === sequence);
    return {
      sequence,
      system: coding?.system ?? "",
      code: coding?.code ?? "",
      ...(coding?.display ? { display: coding.display } : {}),
      ...(item.extension?.find((e) => e.url === nphies.EXTENSIONS.strength)?.valueString ? { strength: item.extension.find((e) => e.url === nphies.EXTENSIONS.strength)!.valueString } : {}),
      ...(dose?.value !== undefined ? { dose: `${dose.value} ${dose.unit ?? ""}`.trim() } : {}),
      ...(frequency ? { frequency } : {}),
      ...(repeat?.boundsDuration?.value !== undefined ? { durationDays: repeat.boundsDuration.value } : {}),
      refillsRequested: repeat?.count ?? 0,
      ...(item.quantity?.value !== undefined ? { quantity: item.quantity.value } : {}),
      ...(answered ? { decision: answered.decision } : {}),
      ...(answered?.approvedRefills !== undefined ? { approvedRefills: answered.approvedRefills } : {}),
      reasons: (answered?.reasons ?? []).map((r) => ({ ...(r.code ? { code: r.code } : {}), ...(r.display ? { display: r.display } : {}) })),
    };
  });
  return {
    id: row.id,
    status: row.status,
    patientNationalId: row.patientNationalId,
    ...(row.identifierValue ? { identifier: row.identifierValue } : {}),
    createdAt: row.createdAt,
    decidedAt: row.decidedAt,
    ...(answer?.preAuthRef ? { reference: answer.preAuthRef } : {}),
    lines,
    appealOfId: row.appealOfId,
    dispensed: 0,
  };
}

/**
 * A claim that counts as a dispense: one the payer has or will have (not a draft, not refused by the
 * exchange, not cancelled), and not an appeal (it re-argues a dispense already counted).
 */
const NOT_DISPENSED = ["draft", "rejected", "failed", "cancelled"] as const;

/**
 * How many pharmacy claims named each verified prescription's reference (Claim.prescription, guide
 * 7.11 point 4): the portal counts the dispenses itself, so a dispense beyond the refills the payer
 * approved is refused before it is sent (docs/decisions/121).
 */
export async function dispensesOf(db: Db, references: readonly string[]): Promise<Map<string, number>> {
  const wanted = [...new Set(references.filter((r) => r.length > 0 && r.length <= 64))];
  const counts = new Map<string, number>(wanted.map((r) => [r, 0]));
  if (wanted.length === 0) return counts;
  const ref = sql<string>`${submissions.claim} -> 'prescription' -> 'identifier' ->> 'value'`;
  const rows = await db
    .select({ ref, n: sql<number>`count(*)::int` })
    .from(submissions)
    .where(and(eq(submissions.kind, "claim"), isNull(submissions.appealOfId), notInArray(submissions.status, [...NOT_DISPENSED]), inArray(ref, wanted)))
    .groupBy(ref);
  for (const r of rows) counts.set(r.ref, Number(r.n));
  return counts;
}

/** The refills a prescription still allows: the most any line was approved, less its dispenses. */
export function refillsLeftOf(view: Pick<PrescriptionView, "lines" | "dispensed">): number {
  const approved = Math.max(0, ...view.lines.map((l) => l.approvedRefills ?? 0));
  return Math.max(0, approved - view.dispensed);
}

/** The catalogue's keys of the medicine code systems a prescription line is written in. */
const CATALOGUE_KEY_OF: Record<string, string> = { [nphies.SYSTEMS.scientificCodes]: CATALOGUE_OF.scientific, [nphies.SYSTEMS.medicationCodes]: CATALOGUE_OF.gtin };

/** The views with their dispenses counted, each line's refills left and the medicine's Arabic name. */
async function completed(db: Db, views: PrescriptionView[]): Promise<PrescriptionView[]> {
  if (views.length === 0) return views;
  const counts = await dispensesOf(db, views.flatMap((v) => (v.reference ? [v.reference] : [])));
  const names = new Map<string, string>();
  for (const [url, key] of Object.entries(CATALOGUE_KEY_OF)) {
    const codes = views.flatMap((v) => v.lines.filter((l) => l.system === url).map((l) => l.code));
    for (const hit of await lookupCodes(db, key, codes)) if (hit.ar) names.set(`${url}|${hit.code}`, hit.ar);
  }
  return views.map((v) => {
    const dispensed = v.reference ? (counts.get(v.reference) ?? 0) : 0;
    return {
      ...v,
      dispensed,
      lines: v.lines.map((l) => {
        const ar = names.get(`${l.system}|${l.code}`);
        return { ...l, ...(ar ? { displayAr: ar } : {}), ...(l.approvedRefills !== undefined ? { refillsLeft: Math.max(0, l.approvedRefills - dispensed) } : {}) };
      }),
    };
  });
}

/**
 * The lines of a decided prescription that may be appealed (guide 7.11, Table 40): refused or cut
 * lines, and lines granted fewer refills than asked.
 */
export function appealablePrescriptionLines(view: PrescriptionView): PrescriptionLineView[] {
  if (!["partial", "denied"].includes(view.status)) return [];
  return view.lines.filter((l) => l.decision === "denied" || l.decision === "partly-approved" || (l.approvedRefills !== undefined && l.approvedRefills < l.refillsRequested));
}

export async function getPrescription(db: Db, id: string): Promise<PrescriptionView | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.select().from(submissions).where(and(eq(submissions.id, id), eq(submissions.kind, "prescription")));
  const view = row ? prescriptionViewOf(row) : undefined;
  return view ? (await completed(db, [view]))[0] : undefined;
}

/** The newest prescriptions (the page's list), at most `limit`. */
export async function listPrescriptions(db: Db, limit = 50): Promise<PrescriptionView[]> {
  const rows = await db.select().from(submissions).where(eq(submissions.kind, "prescription")).orderBy(desc(submissions.createdAt)).limit(limit);
  return completed(db, rows.flatMap((r) => prescriptionViewOf(r) ?? []));
}

/**
 * A patient's verified prescriptions a pharmacy claim may dispense (approved or partly approved,
 * with the payer's reference), newest first. The patient is the platform's id (national ID).
 */
export async function verifiedPrescriptionsFor(db: Db, nationalId: string): Promise<PrescriptionView[]> {
  const rows = await db
    .select()
    .from(submissions)
    .where(and(eq(submissions.kind, "prescription"), eq(submissions.patientNationalId, nationalId), inArray(submissions.status, ["complete", "partial"])))
    .orderBy(desc(submissions.createdAt))
    .limit(20);
  return completed(
    db,
    rows.flatMap((r) => {
      const view = prescriptionViewOf(r);
      return view?.reference ? [view] : [];
    }),
  );
}
