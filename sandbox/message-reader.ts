import { nphies } from "../lib/fhir";
import type { SandboxContext } from "./context";
import type { ClaimRecord } from "./store";

/**
 * Reads a request message as the exchange does (docs/decisions/071): every reference form R4
 * allows is resolved inside the Bundle (the rule module's resolution: absolute fullUrl,
 * `urn:uuid:`, relative `Type/id`), an identifier-only reference by its business identifier
 * against the seed (patients by any document, coverages by member number, organizations by
 * licence) — and targets outside the
 * Bundle (the claim a Task or Communication names, the remittance a PaymentNotice answers) are
 * found by their identifier too. The result is the focus rewritten into the sandbox's own dialect
 * (`Patient/<seed id>`, `Coverage/<seed id>`, `Organization/<org id>`, `Claim/<platform id>`), so
 * the same engines serve REST and messaging. What cannot be resolved keeps its plain id, and the
 * engines refuse it as before.
 */

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : undefined);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

const TAIL = /(?:^|\/)([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/[A-Za-z0-9\-.]{1,64})?$/;

/** `Type` and `id` named by a relative or absolute reference. */
export function referenceTail(reference: string | undefined): { type: string; id: string } | undefined {
  const m = TAIL.exec(reference ?? "");
  return m ? { type: m[1]!, id: m[2]! } : undefined;
}

function identifiersOf(resource: Json | undefined): { system?: string; value?: string }[] {
  return arr(resource?.identifier).map((i) => obj(i) ?? {}) as { system?: string; value?: string }[];
}

export interface ReaderContext {
  ctx: SandboxContext;
  providerOrgId: string;
  /** Licence of the sender (its certificate's). */
  senderLicense: string | undefined;
  /** The message Bundle. */
  bundle: unknown;
  focusFullUrl: string;
}

/** One reference rewritten to `Type/<id>` by `decide`, which sees the resolved entry (if any) and the reference. */
function rewrite(r: ReaderContext, holder: Json, key: string, type: string, decide: (resolved: Json | undefined, ref: Json) => string | undefined): void {
  const ref = obj(holder[key]);
  if (!ref) return;
  // Resolution inside the Bundle is the rule module's (lib/fhir/nphies references); identifier-only
  // references name a business identifier, looked up in the seed below.
  const index = nphies.indexMessage(r.bundle);
  const from = index.entries.find((e) => e.fullUrl === r.focusFullUrl);
  const resolved = nphies.resolveResource(index, ref, from);
  const id = decide(resolved, ref) ?? referenceTail(str(ref.reference))?.id ?? str(resolved?.id) ?? str(obj(ref.identifier)?.value);
  if (id) holder[key] = { ...(str(ref.type) ? { type: ref.type } : {}), reference: `${type}/${id}` };
}

function patientId(r: ReaderContext, resolved: Json | undefined, ref: Json): string | undefined {
  const docs = r.ctx.reference.patientsByDocument;
  const candidates = [...identifiersOf(resolved).map((i) => i.value), str(obj(ref.identifier)?.value), referenceTail(str(ref.reference))?.id];
  for (const value of candidates) if (value && docs.has(value)) return docs.get(value)!.id;
  return identifiersOf(resolved)[0]?.value;
}

function coverageId(r: ReaderContext, resolved: Json | undefined, ref: Json): string | undefined {
  const all = [...r.ctx.reference.coverages.values()];
  const values = [str(resolved?.id), ...identifiersOf(resolved).map((i) => i.value), str(obj(ref.identifier)?.value), referenceTail(str(ref.reference))?.id];
  for (const value of values) {
    const hit = value ? all.find((c) => c.id === value || c.memberId === value) : undefined;
    if (hit) return hit.id;
  }
  return undefined;
}

function organizationId(r: ReaderContext, resolved: Json | undefined, ref: Json): string | undefined {
  const licences = [...identifiersOf(resolved).map((i) => i.value), str(obj(ref.identifier)?.value)].filter((v): v is string => v !== undefined);
  const own = new Set([r.senderLicense, r.ctx.reference.provider.license].filter(Boolean));
  if (licences.some((l) => own.has(l))) return r.providerOrgId;
  const payer = r.ctx.reference.payers.find((p) => p.license !== undefined && licences.includes(p.license));
  return payer?.id;
}

/** The clinic's claim a reference names: platform id in any form, or the clinic's business identifier. */
export function claimByReference(ctx: SandboxContext, providerOrgId: string, ref: unknown): ClaimRecord | undefined {
  const r = obj(ref);
  const tail = referenceTail(str(r?.reference));
  let record = tail?.type === "Claim" ? ctx.store.getClaim(tail.id) : undefined;
  const identifier = obj(r?.identifier);
  const value = str(identifier?.value);
  if (!record && value) {
    const system = str(identifier?.system);
    record = ctx.store.allClaims().find((c) => {
      const [org, sys, val] = JSON.parse(c.identifierKey) as [string, string, string];
      return org === providerOrgId && val === value && (!system || sys === system);
    });
  }
  return record?.providerOrgId === providerOrgId ? record : undefined;
}

/** A mailbox resource (CommunicationRequest, PaymentReconciliation) by id in any form or by identifier. */
function mailByReference(ctx: SandboxContext, providerOrgId: string, type: string, ref: unknown): string | undefined {
  const r = obj(ref);
  const tail = referenceTail(str(r?.reference));
  if (tail?.type === type && ctx.mailbox.read(providerOrgId, type, tail.id)) return tail.id;
  const value = str(obj(r?.identifier)?.value);
  if (!value) return undefined;
  const item = ctx.mailbox.forClinic(providerOrgId).find((m) => {
    if (m.resourceType !== type) return false;
    const res = m.resource as unknown as Json;
    return m.id === value || identifiersOf(res).some((i) => i.value === value) || obj(res.paymentIdentifier)?.value === value;
  });
  return item?.id;
}

function rewriteClaimTarget(r: ReaderContext, holder: Json | undefined, key: string): void {
  if (!holder || !obj(holder[key])) return;
  const record = claimByReference(r.ctx, r.providerOrgId, holder[key]);
  if (record) holder[key] = { type: "Claim", reference: `Claim/${record.id}` };
}

/**
 * The focus of a request message in the sandbox's dialect (a deep copy; the message is untouched).
 * `servicedPeriods` keeps each item's period (servicedDate becomes its start) and the eligibility
 * request's period.
 */
export function readFocus(r: ReaderContext, focus: Json): { focus: Json; servicedPeriod?: { start?: string; end?: string } } {
  const f = structuredClone(focus);
  const patient = (resolved: Json | undefined, ref: Json) => patientId(r, resolved, ref);
  const coverage = (resolved: Json | undefined, ref: Json) => coverageId(r, resolved, ref);
  const organization = (resolved: Json | undefined, ref: Json) => organizationId(r, resolved, ref);
  let servicedPeriod: { start?: string; end?: string } | undefined;
  switch (f.resourceType) {
    case "CoverageEligibilityRequest":
    case "Claim": {
      rewrite(r, f, "patient", "Patient", patient);
      rewrite(r, f, "provider", "Organization", organization);
      rewrite(r, f, "insurer", "Organization", organization);
      for (const ins of arr(f.insurance)) if (obj(ins)) rewrite(r, obj(ins)!, "coverage", "Coverage", coverage);
      const period = obj(f.servicedPeriod);
      if (period) {
        servicedPeriod = { start: str(period.start), end: str(period.end) };
        if (!f.servicedDate && servicedPeriod.start) f.servicedDate = servicedPeriod.start.slice(0, 10);
      }
      for (const item of arr(f.item)) {
        const it = obj(item);
        const p = obj(it?.servicedPeriod);
        if (it && p && !it.servicedDate && str(p.start)) it.servicedDate = str(p.start)!.slice(0, 10);
      }
      break;
    }
    case "Task":
      rewriteClaimTarget(r, f, "focus");
      break;
    case "Communication": {
      f.about = arr(f.about).map((a) => {
        const record = claimByReference(r.ctx, r.providerOrgId, a);
        return record ? { type: "Claim", reference: `Claim/${record.id}` } : a;
      });
      f.basedOn = arr(f.basedOn).map((b) => {
        const id = mailByReference(r.ctx, r.providerOrgId, "CommunicationRequest", b);
        return id ? { reference: `CommunicationRequest/${id}` } : b;
      });
      if ((f.basedOn as unknown[]).length === 0) delete f.basedOn;
      break;
    }
    case "PaymentNotice": {
      const id = mailByReference(r.ctx, r.providerOrgId, "PaymentReconciliation", f.payment);
      if (id) f.payment = { reference: `PaymentReconciliation/${id}` };
      rewriteClaimTarget(r, f, "request");
      break;
    }
  }
  return { focus: f, ...(servicedPeriod ? { servicedPeriod } : {}) };
}
