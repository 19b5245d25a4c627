import type { CommunicationRequest } from "@medplum/fhirtypes";
import type { Read } from "./errors";
import { readResource } from "./bundle";
import { readReference, type ReferenceView } from "./reference";

/**
 * What the portal reads from a payer's CommunicationRequest (docs/decisions/045) — any valid R4 form:
 * what it asks (payload text, reason text, the note), which documents it wants (payload
 * contentAttachment titles/types, payload contentReference displays), when it is
 * due (`occurrenceDateTime`, else `occurrencePeriod.end`, else a `…due-date` extension), and what
 * it is about (Claim references: relative, absolute or identifier-only).
 */
export interface CommunicationRequestView {
  id?: string;
  /**
   * The payer's business identifier of the request (its first `identifier`): what the clinic's answer
   * names it by (`Communication.basedOn` identifier-only, decision 098) — the exchange holds no
   * entry for the request's id in the answer's Bundle and refuses an id-only reference (BV-90005).
   */
  identifier?: { system?: string; value: string };
  status?: string;
  about: ReferenceView[];
  asks: string[];
  attachmentTypes: string[];
  /** ISO date or date-time as given. */
  due?: string;
  sender?: ReferenceView;
  notes: string[];
}

type Json = Record<string, unknown>;
const arr = (v: unknown): Json[] => (Array.isArray(v) ? v.filter((x): x is Json => typeof x === "object" && x !== null) : []);
const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);

function textOfConcept(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const c = value as Json;
  return str(c.text) ?? arr(c.coding).map((x) => str(x.display) ?? str(x.code)).find(Boolean);
}

export function readCommunicationRequest(json: unknown): Read<CommunicationRequestView, CommunicationRequest> {
  const read = readResource<CommunicationRequest>(json, "CommunicationRequest");
  const r = read.raw as unknown as Json;
  const asks: string[] = [];
  const attachmentTypes: string[] = [];
  for (const p of arr(r.payload)) {
    const s = str(p.contentString);
    if (s) asks.push(s);
    const a = p.contentAttachment as Json | undefined;
    if (a) {
      const t = str(a.title) ?? str(a.contentType);
      if (t) attachmentTypes.push(t);
    }
    const ref = p.contentReference as Json | undefined;
    if (ref) {
      const t = str(ref.display) ?? str(ref.type);
      if (t) attachmentTypes.push(t);
    }
  }
  for (const reason of arr(r.reasonCode)) {
    const t = textOfConcept(reason);
    if (t && !asks.includes(t)) asks.push(t);
  }
  for (const note of arr(r.note)) {
    const t = str(note.text);
    if (t) asks.push(t);
  }
  const period = r.occurrencePeriod as Json | undefined;
  const dueExtension = arr(r.extension).find((e) => typeof e.url === "string" && /due/i.test(e.url));
  const due = str(r.occurrenceDateTime) ?? str(period?.end) ?? str(dueExtension?.valueDateTime) ?? str(dueExtension?.valueDate);
  const sender = readReference(r.sender);
  const firstIdentifier = arr(r.identifier).find((i) => str(i.value));
  const identifier = firstIdentifier ? { ...(str(firstIdentifier.system) ? { system: str(firstIdentifier.system)! } : {}), value: str(firstIdentifier.value)! } : undefined;
  return {
    raw: read.raw,
    view: {
      ...(str(r.id) ? { id: str(r.id) } : {}),
      ...(identifier ? { identifier } : {}),
      ...(str(r.status) ? { status: str(r.status) } : {}),
      about: arr(r.about).flatMap((a) => {
        const v = readReference(a);
        return v ? [v] : [];
      }),
      asks,
      attachmentTypes: [...new Set(attachmentTypes)],
      ...(due ? { due } : {}),
      ...(sender ? { sender } : {}),
      notes: read.view.notes,
    },
  };
}
