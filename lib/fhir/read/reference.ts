/**
 * References in every form R4 allows (https://hl7.org/fhir/R4/references.html), read into one
 * shape the portal can resolve: relative (`Patient/123`, also `patient/123` as some servers
 * write it), absolute (`https://payer.example/fhir/Patient/123`, with or without `/_history/n`),
 * `urn:uuid:` / `urn:oid:` (inside Bundles), `#id` (contained), identifier-only, display-only.
 */

export interface IdentifierView {
  system?: string;
  value?: string;
  type?: string;
}

export type ReferenceKind = "relative" | "absolute" | "urn" | "contained" | "identifier" | "display" | "other";

export interface ReferenceView {
  kind: ReferenceKind;
  /** `Reference.reference` exactly as given. */
  reference?: string;
  /** Resource type: from the reference, or from `Reference.type`. */
  type?: string;
  /** Logical id when the reference names one (relative or absolute form). */
  id?: string;
  /** Version, from `/_history/{v}`. */
  version?: string;
  /** Server base of an absolute reference (`https://payer.example/fhir`). */
  base?: string;
  identifier?: IdentifierView;
  display?: string;
}

type Json = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === "string" && v.length > 0 ? v : undefined);

const TAIL = /(?:^|\/)([A-Za-z][A-Za-z]{1,63})\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/([A-Za-z0-9\-.]{1,64}))?\/?$/;

/** A resource type as written, to its canonical capitalization (`organization` → `Organization`). */
function canonicalType(type: string): string {
  return type.charAt(0).toUpperCase() + type.slice(1);
}

export function readIdentifier(value: unknown): IdentifierView | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const identifier = value as Json;
  const view: IdentifierView = {};
  const system = str(identifier.system);
  const val = str(identifier.value);
  const typeConcept = identifier.type as { coding?: { code?: string }[]; text?: string } | undefined;
  const type = str(typeConcept?.coding?.[0]?.code) ?? str(typeConcept?.text);
  if (system) view.system = system;
  if (val) view.value = val;
  if (type) view.type = type;
  return view.system || view.value ? view : undefined;
}

export function readReference(value: unknown): ReferenceView | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const ref = value as Json;
  const reference = str(ref.reference);
  const declaredType = str(ref.type);
  const identifier = readIdentifier(ref.identifier);
  const display = str(ref.display);
  let view: ReferenceView;
  if (reference?.startsWith("#")) {
    view = { kind: "contained", reference, id: reference.slice(1) };
  } else if (reference?.startsWith("urn:uuid:") || reference?.startsWith("urn:oid:")) {
    view = { kind: "urn", reference };
  } else if (reference) {
    const match = TAIL.exec(reference);
    const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(reference);
    if (match) {
      view = { kind: absolute ? "absolute" : "relative", reference, type: canonicalType(match[1]!), id: match[2]! };
      if (match[3]) view.version = match[3];
      if (absolute) view.base = reference.slice(0, match.index);
    } else {
      view = { kind: "other", reference };
    }
  } else if (identifier) {
    view = { kind: "identifier" };
  } else if (display) {
    view = { kind: "display" };
  } else {
    return undefined;
  }
  if (declaredType && !view.type) view.type = declaredType;
  if (identifier) view.identifier = identifier;
  if (display) view.display = display;
  return view;
}

/** The logical id of a reference to `type`, when it names one (relative or absolute form). */
export function referenceId(view: ReferenceView | undefined, type: string): string | undefined {
  if (!view?.id || view.kind === "contained") return undefined;
  return view.type === type ? view.id : undefined;
}

/** A short readable form for screens: `Organization/6055`, `license 7000911508`, the display text. */
export function describeReference(view: ReferenceView | undefined): string {
  if (!view) return "";
  if (view.type && view.id && view.kind !== "contained") return `${view.type}/${view.id}`;
  if (view.reference) return view.reference;
  if (view.identifier?.value) return view.identifier.value;
  return view.display ?? "";
}
