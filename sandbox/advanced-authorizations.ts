import { randomBytes, randomUUID } from "node:crypto";
import type { ClaimResponse, ClaimResponseAddItem, ClaimResponseItemAdjudication, Extension } from "@medplum/fhirtypes";
import { z } from "zod";
import { CLAIM_PROCESSING_STATUS_EXTENSION, CODE_SYSTEMS, NATIONAL_EXCHANGE, benefitCategoryOf, money, nphies, percentOf } from "../lib/fhir";
import { catalogueKey } from "./catalogue";
import type { SandboxContext } from "./context";
import { ApiError } from "./http";
import { ANSWER_STYLES, type AnswerStyle } from "./answer-style";

/**
 * The payer's advanced authorization (guide v2.7 section 7.9, Tables 38–39; docs/decisions/101): an
 * approval the clinic never asked for — a ClaimResponse with use `preauthorization`, no `request`,
 * a preAuthRef and its validity (`preAuthPeriod`), the approved lines as `addItem` with their
 * amounts. It reaches the clinic ONLY through the mailbox (sandbox/mailbox.ts): a poll hands it out
 * as a message of its event (`advanced-authorization`, guide v2.7 Table 11; `advanced-priorauth`
 * in the web guide's edition), REST announces it with a `resource.available` webhook and serves
 * `GET /ClaimResponse/{id}`. Both answer styles: `default` (relative references, the processing-
 * status extension) and `national` (absolute and identifier references, adjudication-outcome
 * extensions, an approved-quantity adjudication per line).
 *
 * The payer reissues one (same preAuthRef, a new answer with the reissue-reason extension) and
 * cancels one (a reissue with reason `cancel`); the clinic cancels one with a cancel-request whose
 * `Task.focus` names the advanced authorization's identifier (see `cancelAdvancedAuthorization`).
 */

export const ADVANCED_EVENTS = ["advanced-authorization", "advanced-priorauth"] as const;
export const ADVANCED_PROFILE = `${nphies.NPHIES_STRUCTURE_BASE}/advanced-priorauth`;
export const ADVANCED_REASON_EXTENSION = `${nphies.NPHIES_STRUCTURE_BASE}/extension-advancedAuth-reason`;
export const REISSUE_REASON_EXTENSION = `${nphies.NPHIES_STRUCTURE_BASE}/extension-adjudication-reissue`;
const ADVANCED_REASON_SYSTEM = nphies.codeSystemUrl("advancedAuth-reason");
/** One system for the reissue reason, the portal's and every sandbox answer's (the guide's value set "reissue-reason"; docs/decisions/121). */
const REISSUE_REASON_SYSTEM = nphies.SYSTEMS.reissueReason;
/** The payer's own identifier system for its approvals. */
const APA_IDENTIFIER_SYSTEM = (payerId: string) => `http://${payerId}.sandbox.example/advanced-authorization`;

const LineSchema = z
  .object({
    system: z.string().min(1).max(200).optional(),
    code: z.string().min(1).max(64),
    quantity: z.number().int().min(1).max(999).default(1),
    /** SAR, decimal; absent: the catalogue's price. */
    unitPrice: z.number().positive().max(1_000_000).optional(),
    servicedDate: z.iso.date().optional(),
  })
  .strict();

export const AdvancedAuthorizationRequestSchema = z
  .object({
    /** The patient's national ID / Iqama (a sandbox patient with a coverage). */
    patient: z.string().regex(/^[0-9]{10}$/, "a 10-digit national ID or Iqama"),
    items: z.array(LineSchema).min(1).max(50),
    /** Days the approval is valid from today (default 90). */
    validDays: z.number().int().min(1).max(730).default(90),
    /** Which edition's event code the message carries (default `advanced-authorization`, guide v2.7). */
    event: z.enum(ADVANCED_EVENTS).default("advanced-authorization"),
    /** Why the payer approves it unasked (free text; the sandbox's reason code is `chronic-care`). */
    reason: z.string().min(1).max(500).optional(),
    /** The answer style it is written in (default: the sandbox's messaging style, i.e. `national` unless one is set). */
    style: z.enum(ANSWER_STYLES).optional(),
  })
  .strict();
export type AdvancedAuthorizationRequest = z.input<typeof AdvancedAuthorizationRequestSchema>;

export const AdvancedReissueSchema = z
  .object({
    /** `cancel`: the payer withdraws it; anything else: a corrected approval. */
    reason: z.enum(["cancel", "correction", "extension"]).default("correction"),
    items: z.array(LineSchema).min(1).max(50).optional(),
    validDays: z.number().int().min(1).max(730).optional(),
    style: z.enum(ANSWER_STYLES).optional(),
  })
  .strict();
export type AdvancedReissue = z.input<typeof AdvancedReissueSchema>;

/** The demo: a seeded chronic patient's (Omar Testresident, 2087654311, Rimal Silver) diabetes follow-up, approved unasked. */
export const DEMO_ADVANCED_AUTHORIZATION: AdvancedAuthorizationRequest = {
  patient: "2087654311",
  items: [
    { system: nphies.SYSTEMS.services, code: "SVC-0102", quantity: 1 },
    { system: nphies.SYSTEMS.laboratory, code: "LAB-4002", quantity: 1 },
  ],
  validDays: 180,
  reason: "Chronic care plan: diabetes follow-up (specialist review and HbA1c)",
};
function NATIONAL_EXCHANGE_SERVICES(): string {
  return nphies.SYSTEMS.services;
}

const adjudication = (code: string, minor: number): ClaimResponseItemAdjudication => ({ category: { coding: [{ system: CODE_SYSTEMS.adjudication, code }] }, amount: money(minor) });
const outcome = (code: "approved" | "rejected"): Extension => ({ url: NATIONAL_EXCHANGE.adjudicationOutcomeExtension, valueCodeableConcept: { coding: [{ system: NATIONAL_EXCHANGE.adjudicationOutcomeSystem, code }] } });

interface Built {
  lines: z.output<typeof LineSchema>[];
  validDays: number;
  event: (typeof ADVANCED_EVENTS)[number];
  reason?: string;
  patient: string;
  preAuthRef?: string;
  reissue?: { reason: string };
}

/** The ClaimResponse of an advanced authorization in the answer style of the protocol it goes out in. */
function buildAdvanced(ctx: SandboxContext, spec: Built, style: AnswerStyle): ClaimResponse {
  const national = style === "national";
  const patient = ctx.reference.patientsByDocument.get(spec.patient);
  if (!patient) throw ApiError.plain(404, "not-found", "patient: no sandbox patient with this national ID or Iqama");
  const now = new Date(ctx.clock.now());
  const today = now.toISOString().slice(0, 10);
  const coverage = (ctx.reference.coveragesByPatient.get(patient.id) ?? []).find((c) => c.period === "current");
  if (!coverage) throw ApiError.plain(409, "business-rule", "patient: no coverage in force this year");
  const payer = ctx.reference.payers.find((p) => p.id === coverage.payerId)!;
  const addItem: ClaimResponseAddItem[] = spec.lines.map((line, i) => {
    const system = line.system ?? NATIONAL_EXCHANGE_SERVICES();
    const listed = ctx.reference.catalogue.get(catalogueKey(system, line.code));
    if (!listed && line.unitPrice === undefined) throw ApiError.plain(400, "required", `items[${i}]: ${line.code} is not in the catalogue; give its unitPrice`);
    const unitMinor = line.unitPrice !== undefined ? Math.round(line.unitPrice * 100) : listed!.price;
    const net = unitMinor * line.quantity;
    const category = benefitCategoryOf(system, line.code);
    const copayPercent = coverage.benefits.find((b) => b.category === category)?.copayPercent ?? coverage.benefits[0]?.copayPercent ?? 0;
    const copay = percentOf(net, copayPercent);
    return {
      itemSequence: [i + 1],
      ...(national ? { extension: [outcome("approved")] } : {}),
      productOrService: { coding: [{ system, code: line.code, ...(listed?.description ? { display: listed.description } : {}) }] },
      servicedDate: line.servicedDate ?? today,
      quantity: { value: line.quantity },
      unitPrice: money(unitMinor),
      net: money(net),
      adjudication: [
        adjudication("submitted", net),
        adjudication("eligible", net),
        adjudication("copay", copay),
        adjudication("benefit", net - copay),
        ...(national ? [{ category: { coding: [{ system: NATIONAL_EXCHANGE.adjudicationSystem, code: "approved-quantity" }] }, value: line.quantity }] : []),
      ],
    };
  });
  const sum = (code: string) => addItem.reduce((s, a) => s + Math.round((a.adjudication.find((x) => x.category.coding?.[0]?.code === code)?.amount?.value ?? 0) * 100), 0);
  const base = `${ctx.baseUrl()}/fhir`;
  const end = new Date(now.getTime() + spec.validDays * 86_400_000).toISOString().slice(0, 10);
  const preAuthRef = spec.preAuthRef ?? `APA-${randomBytes(5).toString("hex").toUpperCase()}`;
  const cancelled = spec.reissue?.reason === "cancel";
  const response: ClaimResponse = {
    resourceType: "ClaimResponse",
    id: randomUUID(),
    meta: { profile: [ADVANCED_PROFILE], lastUpdated: now.toISOString() },
    extension: [
      { url: ADVANCED_REASON_EXTENSION, valueCodeableConcept: { coding: [{ system: ADVANCED_REASON_SYSTEM, code: "chronic-care" }], ...(spec.reason ? { text: spec.reason } : {}) } },
      ...(spec.reissue ? [{ url: REISSUE_REASON_EXTENSION, valueCodeableConcept: { coding: [{ system: REISSUE_REASON_SYSTEM, code: spec.reissue.reason }] } }] : []),
      national ? outcome("approved") : { url: CLAIM_PROCESSING_STATUS_EXTENSION, valueCode: cancelled ? "cancelled" : "complete" },
    ],
    identifier: [{ system: APA_IDENTIFIER_SYSTEM(payer.id), value: `${preAuthRef}-${randomBytes(2).toString("hex").toUpperCase()}` }],
    status: cancelled ? "cancelled" : "active",
    type: { coding: [{ system: CODE_SYSTEMS.claimType, code: "professional" }] },
    subType: { coding: [{ system: nphies.SYSTEMS.claimSubtype, code: "op" }] },
    use: "preauthorization",
    patient: national
      ? { reference: `${base}/Patient/${patient.id}`, identifier: { system: NATIONAL_EXCHANGE_NATIONAL_ID(patient.kind), value: patient.id } }
      : { reference: `Patient/${patient.id}`, identifier: { system: NATIONAL_EXCHANGE_NATIONAL_ID(patient.kind), value: patient.id } },
    created: now.toISOString(),
    insurer: national ? { identifier: { system: NATIONAL_EXCHANGE.payerLicense, value: payer.license! } } : { reference: `Organization/${payer.id}` },
    requestor: national ? { reference: `${base}/Organization/${ctx.providerOrgId}` } : { reference: `Organization/${ctx.providerOrgId}` },
    outcome: "complete",
    disposition: cancelled ? "The payer cancelled this advanced authorization" : spec.reissue ? "The payer reissued this advanced authorization" : "Approved by the payer without a request (advanced authorization)",
    preAuthRef,
    preAuthPeriod: { start: today, end },
    insurance: [{ sequence: 1, focal: true, coverage: national ? { reference: `${base}/Coverage/${coverage.id}` } : { reference: `Coverage/${coverage.id}` } }],
    addItem,
    total: [
      { category: { coding: [{ system: CODE_SYSTEMS.adjudication, code: "submitted" }] }, amount: money(sum("submitted")) },
      { category: { coding: [{ system: CODE_SYSTEMS.adjudication, code: "eligible" }] }, amount: money(sum("eligible")) },
      { category: { coding: [{ system: CODE_SYSTEMS.adjudication, code: "copay" }] }, amount: money(sum("copay")) },
      { category: { coding: [{ system: CODE_SYSTEMS.adjudication, code: "benefit" }] }, amount: money(sum("benefit")) },
    ],
  };
  return response;
}

function NATIONAL_EXCHANGE_NATIONAL_ID(kind: "citizen" | "resident"): string {
  return kind === "resident" ? nphies.PATIENT_DOCUMENTS.iqama.system : nphies.PATIENT_DOCUMENTS.nationalId.system;
}

/**
 * The style an advanced authorization is written in: the one asked for, else the style set on the
 * sandbox, else `national` (the exchange's own form: one mailbox item serves a poll and a webhook).
 */
const styleOf = (ctx: SandboxContext, asked?: AnswerStyle): AnswerStyle => asked ?? ctx.answerStyle.get("messaging");

/** The payer originates an advanced authorization: posted to the clinic's mailbox. */
export function originateAdvancedAuthorization(ctx: SandboxContext, request: AdvancedAuthorizationRequest): ClaimResponse {
  const spec = AdvancedAuthorizationRequestSchema.parse(request);
  const response = buildAdvanced(ctx, { lines: spec.items, validDays: spec.validDays, event: spec.event, patient: spec.patient, ...(spec.reason ? { reason: spec.reason } : {}) }, styleOf(ctx, spec.style));
  ctx.mailbox.post(ctx.providerOrgId, response, spec.event);
  return response;
}

/** The advanced authorizations the payer sent this clinic, newest answer per preAuthRef. */
export function advancedAuthorizations(ctx: SandboxContext): { preAuthRef: string; event: string; response: ClaimResponse; answers: number }[] {
  const byRef = new Map<string, { preAuthRef: string; event: string; response: ClaimResponse; answers: number }>();
  for (const item of ctx.mailbox.forClinic(ctx.providerOrgId)) {
    if (!(ADVANCED_EVENTS as readonly string[]).includes(item.event) || item.resourceType !== "ClaimResponse") continue;
    const response = item.resource as ClaimResponse;
    if (!response.preAuthRef) continue;
    const seen = byRef.get(response.preAuthRef);
    byRef.set(response.preAuthRef, { preAuthRef: response.preAuthRef, event: item.event, response, answers: (seen?.answers ?? 0) + 1 });
  }
  return [...byRef.values()];
}

/** The payer reissues (or, with reason `cancel`, cancels) an advanced authorization it sent: same preAuthRef, a new answer. */
export function reissueAdvancedAuthorization(ctx: SandboxContext, preAuthRef: string, change: AdvancedReissue): ClaimResponse {
  const spec = AdvancedReissueSchema.parse(change);
  const current = advancedAuthorizations(ctx).find((a) => a.preAuthRef === preAuthRef);
  if (!current) throw ApiError.plain(404, "not-found", "preAuthRef: no advanced authorization of this clinic with this preAuthRef");
  if (current.response.status === "cancelled" || cancelledByClinic(ctx).has(preAuthRef)) throw ApiError.plain(409, "business-rule", "preAuthRef: this advanced authorization is already cancelled");
  const previous = current.response;
  const lines =
    spec.items ??
    (previous.addItem ?? []).map((a) => ({
      system: a.productOrService.coding?.[0]?.system,
      code: a.productOrService.coding?.[0]?.code ?? "",
      quantity: a.quantity?.value ?? 1,
      unitPrice: a.unitPrice?.value,
      servicedDate: a.servicedDate,
    }));
  const patient = previous.patient.identifier?.value ?? previous.patient.reference?.split("/").pop() ?? "";
  const validDays = spec.validDays ?? Math.max(1, Math.round((Date.parse(previous.preAuthPeriod?.end ?? "") - ctx.clock.now()) / 86_400_000) || 90);
  const reason = previous.extension?.find((e) => e.url === ADVANCED_REASON_EXTENSION)?.valueCodeableConcept?.text;
  const response = buildAdvanced(
    ctx,
    { lines: lines.map((l) => LineSchema.parse(Object.fromEntries(Object.entries(l).filter(([, v]) => v !== undefined)))), validDays, event: current.event as Built["event"], patient, preAuthRef, reissue: { reason: spec.reason }, ...(reason ? { reason } : {}) },
    styleOf(ctx, spec.style),
  );
  ctx.mailbox.post(ctx.providerOrgId, response, current.event);
  return response;
}

/**
 * The clinic's cancel-request for an advanced authorization (`Task.focus` = its identifier):
 * the approval named by that identifier (any of its answers) is withdrawn. Undefined when the
 * focus names no advanced authorization (then it is about a claim).
 */
export function cancelAdvancedAuthorization(ctx: SandboxContext, providerOrgId: string, focus: { identifier?: { system?: string; value?: string } } | undefined): { status: "completed" | "rejected"; why?: string } | undefined {
  const value = focus?.identifier?.value;
  if (!value || providerOrgId !== ctx.providerOrgId) return undefined;
  const named = ctx.mailbox
    .forClinic(providerOrgId)
    .find((m) => m.resourceType === "ClaimResponse" && (ADVANCED_EVENTS as readonly string[]).includes(m.event) && (m.resource as ClaimResponse).identifier?.some((i) => i.value === value && (!focus?.identifier?.system || i.system === focus.identifier.system)));
  if (!named) return undefined;
  const preAuthRef = (named.resource as ClaimResponse).preAuthRef!;
  const current = advancedAuthorizations(ctx).find((a) => a.preAuthRef === preAuthRef);
  const cancelled = cancelledByClinic(ctx);
  if (current?.response.status === "cancelled" || cancelled.has(preAuthRef)) return { status: "rejected", why: "The advanced authorization is already cancelled" };
  cancelled.add(preAuthRef);
  return { status: "completed" };
}

/** preAuthRefs the clinic cancelled (kept for the sandbox's life; a restart forgets them, the mailbox's answers are journaled). */
const clinicCancellations = new WeakMap<SandboxContext, Set<string>>();
function cancelledByClinic(ctx: SandboxContext): Set<string> {
  let set = clinicCancellations.get(ctx);
  if (!set) clinicCancellations.set(ctx, (set = new Set()));
  return set;
}

/** The advanced authorization a reference names by its identifier (a Communication's `about`), if the payer sent it to this clinic. */
export function advancedAuthorizationNamed(ctx: SandboxContext, providerOrgId: string, about: { identifier?: { system?: string; value?: string } } | undefined): ClaimResponse | undefined {
  const value = about?.identifier?.value;
  if (!value) return undefined;
  const item = ctx.mailbox
    .forClinic(providerOrgId)
    .find((m) => m.resourceType === "ClaimResponse" && (ADVANCED_EVENTS as readonly string[]).includes(m.event) && (m.resource as ClaimResponse).identifier?.some((i) => i.value === value));
  return item?.resource as ClaimResponse | undefined;
}
