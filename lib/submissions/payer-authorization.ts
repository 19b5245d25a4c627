import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Db, SubmissionStatus, TransitionSource, Tx } from "@/lib/db";
import { submissionEvents, submissions } from "@/lib/db";
import { money as fhirMoney, nphies, type ClaimResponseLineView, type ClaimResponseView } from "@/lib/fhir";
import { minorToDecimal } from "@/lib/money";
import { claimTotalMinor } from "./claim-total";
import { appendTimeline, emitLive, transition, type Submission } from "./states";

/**
 * A payer's advanced authorization (guide v2.7 section 7.9, Tables 38–39; docs/decisions/101): the
 * payer approves treatment the clinic never asked for. It is an authorization of its own — a
 * `submissions` row of kind `preauthorization` with `channel` = "payer" — written here because
 * lib/submissions is the only writer of that table. Nothing was sent: the row is born decided (the
 * payer's answer is its decision), its business identifier is the payer's ClaimResponse identifier
 * (what a cancel-request names in `Task.focus`), and its Claim and form restate the payer's lines,
 * so "Create claim" (createClaimFromAuthorization) works on it as on any approved authorization.
 *
 * The payer's later answers with the same preAuthRef are reissues: the newest becomes the current
 * decision and the earlier stays on the timeline; a reissue with reason `cancel` cancels it.
 */
export const PAYER_CHANNEL = "payer";

/** The payer's answer as the lib/fhir reader read it (read once, docs/decisions/078). */
export interface PayerAuthorizationInput {
  raw: Record<string, unknown>;
  view: ClaimResponseView;
  /** The clinic's patient the message names (matched by national ID). */
  patient: { id: string; nationalId: string };
  /** The patient's coverage the answer names (by its reference), when one matched. */
  coverage?: { id: string; insurerId: string };
  /** The payer (`Organization` id or licence) the answer names, when no coverage matched. */
  insurerId?: string;
  /** The reissue reason the answer carries (`cancel`, `correction` …), when it carries one. */
  reissueReason?: string;
  source: TransitionSource;
  /** Patient-free: the message event and id, for the timeline. */
  detail?: { event?: string; messageId?: string; [key: string]: unknown };
}

export type PayerAuthorizationResult =
  | { result: "applied"; change: "recorded" | "reissued" | "cancelled"; submission: Submission }
  | { result: "unchanged"; submission: Submission };

/**
 * The identity of a received answer: its id, identifiers, creation time and status, whatever the
 * key order — the same answer delivered twice (a poll and a webhook, a repeat, a copy re-profiled
 * by the exchange) is recognized; a reissue (a new answer) is not.
 */
export function answerFingerprint(raw: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canonical) : v && typeof v === "object" ? Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])])) : v;
  const r = (raw ?? {}) as Record<string, unknown>;
  return createHash("sha256").update(JSON.stringify(canonical({ id: r.id, identifier: r.identifier, created: r.created, status: r.status, preAuthRef: r.preAuthRef }))).digest("hex");
}

/** The lines the payer approved: its added items (an unasked approval answers no claim items), else its items that name a service. */
export function payerLines(view: ClaimResponseView): ClaimResponseLineView[] {
  return [...view.addItems, ...view.items].filter((line) => line.service?.code);
}

const day = (value: string | undefined) => (value && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : "");

/**
 * The payer's lines as a Claim (what the list totals and the decision table join on) and as the
 * form a claim is made from. No diagnosis or care team: an approval does not carry them; billing
 * adds them to the claim draft.
 */
export function restatePayerLines(view: ClaimResponseView, patient: { id: string; nationalId: string }, coverage?: { id: string }) {
  const lines = payerLines(view);
  const firstDay = day(view.preAuthPeriod?.start) || day(view.created);
  const items = lines.map((line, i) => {
    const quantity = line.quantity ?? line.approvedQuantity ?? 1;
    const unitMinor = line.unitPrice?.minor ?? (line.net?.minor !== undefined && Number.isInteger(quantity) && quantity > 0 ? Math.round(line.net.minor / quantity) : undefined);
    return { line, sequence: i + 1, quantity, unitMinor, servicedDate: day(line.servicedDate) || day(line.servicedPeriod?.start) || firstDay };
  });
  const currency = lines.find((l) => l.unitPrice?.currency)?.unitPrice?.currency ?? "SAR";
  const claim: Record<string, unknown> = {
    resourceType: "Claim",
    status: "active",
    use: "preauthorization",
    ...(view.type?.code ? { type: { coding: [{ ...(view.type.system ? { system: view.type.system } : {}), code: view.type.code }] } } : {}),
    ...(view.subType?.code ? { subType: { coding: [{ ...(view.subType.system ? { system: view.subType.system } : {}), code: view.subType.code }] } } : {}),
    patient: { reference: `Patient/${patient.nationalId}` },
    created: view.created,
    insurance: [{ sequence: 1, focal: true, ...(view.insurance[0]?.coverage?.reference ? { coverage: { reference: view.insurance[0].coverage.reference } } : {}), ...(view.preAuthRef ? { preAuthRef: [view.preAuthRef] } : {}) }],
    item: items.map(({ line, sequence, quantity, unitMinor, servicedDate }) => ({
      sequence,
      productOrService: { coding: [{ ...(line.service?.system ? { system: line.service.system } : {}), code: line.service!.code, ...(line.service?.display ? { display: line.service.display } : {}) }] },
      ...(servicedDate ? { servicedDate } : {}),
      quantity: { value: quantity },
      ...(unitMinor !== undefined ? { unitPrice: fhirMoney(unitMinor, currency) } : {}),
    })),
  };
  // Only a care setting the form knows (else the claim draft starts from its defaults).
  const type = nphies.CLAIM_TYPES.find((t) => t === view.type?.code);
  const subtype = type ? nphies.SUBTYPES_BY_CLAIM_TYPE[type].find((s) => s === view.subType?.code) : undefined;
  const form: Record<string, unknown> = {
    use: "preauthorization",
    patientId: patient.id,
    coverageId: coverage?.id ?? "",
    ...(type ? { claimType: type } : {}),
    ...(subtype ? { subtype } : {}),
    items: items.map(({ line, quantity, unitMinor, servicedDate }) => ({
      system: line.service?.system ?? "",
      code: line.service!.code!,
      servicedDate,
      quantity: String(quantity),
      unitPrice: unitMinor !== undefined ? minorToDecimal(unitMinor) : "",
    })),
    preAuthRef: view.preAuthRef,
    origin: PAYER_CHANNEL,
  };
  return { claim, form };
}

const STATUS_OF: Partial<Record<ClaimResponseView["decision"], SubmissionStatus>> = { approved: "complete", "partly-approved": "partial", denied: "denied" };

/** The payer-originated authorization with this preAuthRef from this payer, if recorded. */
async function findByPreAuthRef(tx: Tx, patientNationalId: string, preAuthRef: string): Promise<Submission | undefined> {
  const [row] = await tx
    .select()
    .from(submissions)
    .where(and(eq(submissions.channel, PAYER_CHANNEL), eq(submissions.kind, "preauthorization"), eq(submissions.patientNationalId, patientNationalId), sql`${submissions.response}->>'preAuthRef' = ${preAuthRef}`))
    .limit(1)
    .for("update");
  return row;
}

async function seenBefore(tx: Tx, submissionId: string, fingerprint: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: submissionEvents.id })
    .from(submissionEvents)
    .where(and(eq(submissionEvents.submissionId, submissionId), sql`${submissionEvents.detail}->>'answer' = ${fingerprint}`))
    .limit(1);
  return Boolean(row);
}

/** What the timeline keeps of a decision it replaces (patient-free): enough to show the earlier one. */
function summaryOf(row: Submission): Record<string, unknown> {
  const view = row.responseView as Partial<ClaimResponseView> | null;
  return {
    status: row.status,
    ...(view?.identifiers?.[0]?.value ? { identifier: view.identifiers[0].value } : {}),
    ...(view?.preAuthPeriod ? { period: view.preAuthPeriod } : {}),
    ...(view?.total?.benefit?.minor !== undefined ? { benefitMinor: view.total.benefit.minor } : {}),
    ...(row.totalMinor !== null ? { totalMinor: row.totalMinor } : {}),
  };
}

/**
 * Records a payer's advanced authorization, or applies a later answer of the payer about it (same
 * preAuthRef, same patient): one transaction — the row, its timeline entry and its live event.
 * Idempotent: an answer already recorded (same content, whatever the key order) is `unchanged`.
 */
export async function recordPayerAuthorization(db: Db, input: PayerAuthorizationInput, at: Date = new Date()): Promise<PayerAuthorizationResult> {
  const { view, raw } = input;
  const preAuthRef = view.preAuthRef;
  if (!preAuthRef) throw new Error("a payer's authorization without a preAuthRef cannot be recorded");
  const fingerprint = answerFingerprint(raw);
  const { claim, form } = restatePayerLines(view, input.patient, input.coverage);
  const money = claimTotalMinor(claim);
  const identifier = view.identifiers.find((i) => i.value) ?? { system: `urn:preauthref:${input.coverage?.insurerId ?? input.insurerId ?? "payer"}`, value: preAuthRef };
  const cancels = input.reissueReason?.toLowerCase() === "cancel" || view.platformStatus === "cancelled";
  const decided = STATUS_OF[view.decision] ?? "complete";
  const detail = { origin: PAYER_CHANNEL, answer: fingerprint, ...input.detail };

  return db.transaction(async (tx): Promise<PayerAuthorizationResult> => {
    const existing = await findByPreAuthRef(tx, input.patient.nationalId, preAuthRef);
    if (!existing) {
      const [row] = await tx
        .insert(submissions)
        .values({
          kind: "preauthorization",
          status: cancels ? "cancelled" : decided,
          identifierSystem: identifier.system ?? null,
          identifierValue: identifier.value!,
          patientNationalId: input.patient.nationalId,
          insurerId: input.coverage?.insurerId ?? input.insurerId ?? null,
          claim,
          form,
          response: raw,
          responseView: view as unknown as Record<string, unknown>,
          totalMinor: money?.totalMinor ?? null,
          currency: money?.currency ?? null,
          channel: PAYER_CHANNEL,
          createdAt: at,
          updatedAt: at,
          decidedAt: at,
        })
        .returning();
      await appendTimeline(tx, { submissionId: row!.id, from: null, to: row!.status, source: input.source, detail, at });
      await emitLive(tx, row!, { from: null, source: input.source, at });
      return { result: "applied", change: "recorded", submission: row! };
    }
    if (await seenBefore(tx, existing.id, fingerprint)) return { result: "unchanged", submission: existing };
    // Cancelled is final: a later answer about a cancelled approval changes nothing (the inbox keeps it).
    if (existing.status === "cancelled" || existing.status === "denied") return { result: "unchanged", submission: existing };
    const previous = summaryOf(existing);
    const patch = {
      response: raw,
      responseView: view as unknown as Record<string, unknown>,
      decidedAt: at,
      ...(cancels ? {} : { claim, form: { ...form, coverageId: (existing.form?.coverageId as string | undefined) || form.coverageId }, totalMinor: money?.totalMinor ?? null, currency: money?.currency ?? null }),
    };
    const reissue = { ...detail, note: cancels ? "payerCancelled" : "reissued", ...(input.reissueReason ? { reissueReason: input.reissueReason } : {}), previous };
    if (cancels) {
      const row = await transition(tx, existing, "cancelled", input.source, reissue, patch, at);
      return { result: "applied", change: "cancelled", submission: row };
    }
    // A reissue becomes the current decision (its status may move between approved and partly approved).
    const [row] = await tx
      .update(submissions)
      .set({ ...patch, status: decided, updatedAt: at })
      .where(and(eq(submissions.id, existing.id), eq(submissions.status, existing.status)))
      .returning();
    await appendTimeline(tx, { submissionId: row!.id, from: existing.status, to: row!.status, source: input.source, detail: reissue, at });
    await emitLive(tx, row!, { from: existing.status, source: input.source, at });
    return { result: "applied", change: "reissued", submission: row! };
  });
}

/** Whether a stored submission is a payer's advanced authorization (the screens' "approved by the payer"). */
export const isPayerOriginated = (row: Pick<Submission, "channel">) => row.channel === PAYER_CHANNEL;
