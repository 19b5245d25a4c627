import type { ClaimResponse } from "@medplum/fhirtypes";
import { audit } from "@/lib/audit";
import type { Db, TransitionSource } from "@/lib/db";
import { isFhirReadError, isResourceOf, readClaimResponse, type ClaimResponseView, type ReferenceView } from "@/lib/fhir";
import { findPatientByNationalId, listCoverages, type CoverageView } from "@/lib/patients";
import { submissionForRequest, type InboundHandler } from "@/lib/pipeline";
import { PAYER_CHANNEL, getSubmission, recordPayerAuthorization } from "@/lib/submissions";

/**
 * A payer's advanced authorization (guide v2.7 section 7.9, Tables 38–39; docs/decisions/101): a
 * ClaimResponse the payer originates — use `preauthorization`, no request of ours, a preAuthRef,
 * its validity (`preAuthPeriod`), the approved lines and amounts. The clinic fetches it by poll
 * (messaging) or is told by a `resource.available` webhook (REST); both bring it here through the
 * inbound routing (lib/server/inbound-handlers.ts), and the inbox's "Open as advanced
 * authorization" calls `recordAdvancedAuthorization` directly.
 *
 * Recognized by content, not only by event code: the two editions' events
 * (`advanced-authorization` in guide v2.7 Tables 11–12, `advanced-priorauth` in the web guide), the
 * advanced-preauth/advanced-priorauth profile, the `extension-advancedAuth-reason` extension, or —
 * whatever the event — a prior-authorization answer that answers no request at all.
 */
export const ADVANCED_AUTHORIZATION_EVENTS = ["advanced-authorization", "advanced-priorauth"] as const;

const ADVANCED_PROFILE = /\/StructureDefinition\/advanced-(preauth|priorauth)(\|.*)?$/;
const ADVANCED_REASON = /\/StructureDefinition\/extension-advancedAuth-reason$/i;
/** The exchange's reissue-reason extension (its URL differs between editions: match its tail). */
const REISSUE_EXTENSION = /\/StructureDefinition\/extension-(adjudication-)?reissue(-reason)?$/i;

type Json = Record<string, unknown>;
const list = (v: unknown): Json[] => (Array.isArray(v) ? (v as unknown[]).filter((x): x is Json => typeof x === "object" && x !== null) : []);

/** The marks an advanced authorization carries (event, profile, reason extension). */
export function carriesAdvancedMark(resource: Json, event?: string): boolean {
  if (event && (ADVANCED_AUTHORIZATION_EVENTS as readonly string[]).includes(event)) return true;
  const profiles = (resource.meta as { profile?: unknown } | undefined)?.profile;
  if (Array.isArray(profiles) && profiles.some((p) => typeof p === "string" && ADVANCED_PROFILE.test(p))) return true;
  return list(resource.extension).some((e) => typeof e.url === "string" && ADVANCED_REASON.test(e.url));
}

/** The reissue reason the answer carries (`cancel`, …), if any. */
export function reissueReasonOf(resource: Json): string | undefined {
  const ext = list(resource.extension).find((e) => typeof e.url === "string" && REISSUE_EXTENSION.test(e.url));
  const concept = ext?.valueCodeableConcept as { coding?: { code?: unknown }[]; text?: unknown } | undefined;
  const code = concept?.coding?.find((c) => typeof c.code === "string")?.code ?? ext?.valueCode ?? concept?.text;
  return typeof code === "string" && code.trim() ? code.trim() : undefined;
}

/**
 * Whether a read ClaimResponse is a payer's advanced authorization: a prior-authorization answer
 * with a preAuthRef that is marked as one, or that answers no request.
 */
export function isAdvancedAuthorization(resource: Json, view: ClaimResponseView, event?: string): boolean {
  if (view.use !== "preauthorization" || !view.preAuthRef) return false;
  return carriesAdvancedMark(resource, event) || !view.request;
}

function readOnce(resource: ClaimResponse): { raw: ClaimResponse; view: ClaimResponseView } | undefined {
  try {
    return readClaimResponse(resource) as { raw: ClaimResponse; view: ClaimResponseView };
  } catch (error) {
    if (isFhirReadError(error)) return undefined;
    throw error;
  }
}

/** The national ID the answer names the patient by: its identifier, else the id (the platform's Patient id is the national ID). */
function nationalIdOf(patient: ReferenceView | undefined): string | undefined {
  const value = patient?.identifier?.value ?? (patient?.type === "Patient" || !patient?.type ? patient?.id : undefined);
  return value && /^\d{10}$/.test(value) ? value : undefined;
}

/** The patient's coverage the answer names (by reference or identifier), else the one with the answer's payer, else the only one. */
function coverageOf(coverages: CoverageView[], view: ClaimResponseView): CoverageView | undefined {
  const named = view.insurance.find((i) => i.focal !== false)?.coverage ?? view.insurance[0]?.coverage;
  const ref = named?.id ?? named?.identifier?.value;
  const byRef = ref ? coverages.find((c) => c.coverageRef === ref || c.memberId === ref) : undefined;
  if (byRef) return byRef;
  const payer = view.insurer?.id ?? view.insurer?.identifier?.value;
  const byPayer = payer ? coverages.filter((c) => c.insurerId === payer) : [];
  if (byPayer.length === 1) return byPayer[0];
  return coverages.length === 1 ? coverages[0] : undefined;
}

/** Where an advanced authorization came from: the timeline's source and the message that brought it. */
export interface AdvancedSource {
  via: TransitionSource;
  event?: string;
  messageId?: string;
  at?: Date;
}

export type AdvancedAuthorizationOutcome =
  | { result: "applied"; change: "recorded" | "reissued" | "cancelled"; id: string }
  | { result: "unchanged"; id: string }
  /** Not one (`not-advanced`), unreadable as R4, or about a patient this clinic has not registered (the inbox keeps it). */
  | { result: "unrouted"; reason: "not-advanced" | "unreadable" | "patient-unknown" | "ours" };

/**
 * Records a payer's advanced authorization as an authorization of the clinic's (or applies the
 * payer's reissue or cancellation of one): the plain function behind the inbound handler, and what
 * the inbox's "Open as advanced authorization" calls. `force`: the person opening it says it is one
 * even without the marks (still a prior-authorization answer with a preAuthRef).
 */
export async function recordAdvancedAuthorization(
  db: Db,
  claimResponse: Record<string, unknown>,
  source: TransitionSource | AdvancedSource,
  options: { force?: boolean; log?: (message: string) => void } = {},
): Promise<AdvancedAuthorizationOutcome> {
  const from: AdvancedSource = typeof source === "string" ? { via: source } : source;
  if (!isResourceOf<ClaimResponse>(claimResponse, "ClaimResponse")) return { result: "unrouted", reason: "not-advanced" };
  const read = readOnce(claimResponse);
  if (!read) return { result: "unrouted", reason: "unreadable" };
  const { view } = read;
  const marked = isAdvancedAuthorization(claimResponse, view, from.event);
  if (!marked && !(options.force && view.use === "preauthorization" && view.preAuthRef)) return { result: "unrouted", reason: "not-advanced" };
  // An answer to a request of ours is that request's (lib/pipeline's claimResponseInbound), not a new authorization.
  if (view.request) {
    const ours = await submissionForRequest(db, view.request);
    const row = ours ? await getSubmission(db, ours.id) : undefined;
    if (row && row.channel !== PAYER_CHANNEL) return { result: "unrouted", reason: "ours" };
  }
  const nationalId = nationalIdOf(view.patient);
  const patient = nationalId ? await findPatientByNationalId(db, nationalId) : undefined;
  if (!patient) {
    options.log?.(`[advanced-authorization] a ${from.event ?? "ClaimResponse"} for a patient this clinic has not registered`);
    return { result: "unrouted", reason: "patient-unknown" };
  }
  const coverage = coverageOf(await listCoverages(db, patient.id), view);
  const reissueReason = reissueReasonOf(claimResponse);
  const recorded = await recordPayerAuthorization(
    db,
    {
      raw: read.raw as unknown as Record<string, unknown>,
      view,
      patient: { id: patient.id, nationalId: patient.nationalId },
      ...(coverage ? { coverage: { id: coverage.id, insurerId: coverage.insurerId } } : {}),
      ...(view.insurer?.id || view.insurer?.identifier?.value ? { insurerId: view.insurer.id ?? view.insurer.identifier!.value } : {}),
      ...(reissueReason ? { reissueReason } : {}),
      source: from.via,
      detail: { ...(from.event ? { event: from.event } : {}), ...(from.messageId ? { messageId: from.messageId } : {}) },
    },
    from.at ?? new Date(),
  );
  if (recorded.result === "unchanged") return { result: "unchanged", id: recorded.submission.id };
  await audit(db, {
    actor: from.via === "user" ? { kind: "system", name: "advanced-authorization" } : { kind: "system", name: from.via === "poll" ? "poller" : "platform-webhook" },
    action: `authorization.payer_${recorded.change}`,
    target: { type: "preauthorization", id: recorded.submission.id },
    outcome: "success",
    details: { patientId: patient.id, ...(from.messageId ? { messageId: from.messageId } : {}), ...(reissueReason ? { reissueReason } : {}) },
  });
  return { result: "applied", change: recorded.change, id: recorded.submission.id };
}

/**
 * The inbound handler (lib/pipeline/inbound.ts): an advanced authorization → recorded ("applied"),
 * the same one again → "unchanged", anything else → "unrouted" (the next handler, or the inbox).
 */
export const advancedAuthorizationInbound: InboundHandler = async (context, resource) => {
  const outcome = await recordAdvancedAuthorization(
    context.db,
    resource,
    { via: context.source, ...(context.event ? { event: context.event } : {}), ...(context.messageId ? { messageId: context.messageId } : {}), at: context.clock() },
    { log: context.log },
  );
  return outcome.result;
};
