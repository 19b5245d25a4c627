import { readReference, type ReferenceView } from "../read/reference";

/**
 * Resolving references inside one message Bundle, in every form R4 allows
 * (https://hl7.org/fhir/R4/bundle.html#references): absolute URLs against the entries' fullUrls,
 * `urn:uuid:` fullUrls, relative `Type/id` against the referencing entry's base (or any entry of
 * that type and id), `#id` contained resources, and identifier-only references (which name a
 * business identifier and are resolved by the receiver, never inside the Bundle).
 */

type Json = Record<string, unknown>;

export interface MessageEntry {
  index: number;
  fullUrl?: string;
  resource?: Json;
}

export type Resolution =
  | { kind: "entry"; entry: MessageEntry }
  | { kind: "contained" }
  | { kind: "identifier" }
  | { kind: "unresolved"; reason: string };

export interface MessageIndex {
  entries: MessageEntry[];
  byFullUrl: Map<string, MessageEntry>;
  byTypeAndId: Map<string, MessageEntry[]>;
}

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export function indexMessage(bundle: unknown): MessageIndex {
  const entries: MessageEntry[] = [];
  const byFullUrl = new Map<string, MessageEntry>();
  const byTypeAndId = new Map<string, MessageEntry[]>();
  const list = isObject(bundle) && Array.isArray(bundle.entry) ? bundle.entry : [];
  list.forEach((raw, index) => {
    const entry: MessageEntry = { index };
    if (isObject(raw)) {
      if (typeof raw.fullUrl === "string" && raw.fullUrl) entry.fullUrl = raw.fullUrl;
      if (isObject(raw.resource)) entry.resource = raw.resource;
    }
    entries.push(entry);
    if (entry.fullUrl && !byFullUrl.has(entry.fullUrl)) byFullUrl.set(entry.fullUrl, entry);
    const type = entry.resource?.resourceType;
    const id = entry.resource?.id;
    if (typeof type === "string" && typeof id === "string") {
      const key = `${type}/${id}`;
      byTypeAndId.set(key, [...(byTypeAndId.get(key) ?? []), entry]);
    }
  });
  return { entries, byFullUrl, byTypeAndId };
}

/** Base of a RESTful fullUrl (`https://p.example/fhir/Claim/1` → `https://p.example/fhir`). */
function baseOf(fullUrl: string | undefined): string | undefined {
  if (!fullUrl) return undefined;
  const match = /^(https?:\/\/.+)\/[A-Z][A-Za-z]+\/[A-Za-z0-9\-.]{1,64}$/.exec(fullUrl);
  return match?.[1];
}

function withoutHistory(url: string): string {
  return url.replace(/\/_history\/[A-Za-z0-9\-.]{1,64}$/, "");
}

/** Resolves one Reference (as JSON) found in the entry `from`. */
export function resolveReference(index: MessageIndex, reference: unknown, from?: MessageEntry): Resolution {
  const view: ReferenceView | undefined = readReference(reference);
  if (!view) return { kind: "unresolved", reason: "the reference is empty" };
  if (view.kind === "identifier" || (view.kind === "display" && !view.reference)) {
    return view.identifier ? { kind: "identifier" } : { kind: "unresolved", reason: "a display alone names nothing" };
  }
  if (view.kind === "contained") {
    const contained = from?.resource?.contained;
    const found = Array.isArray(contained) && contained.some((c) => isObject(c) && c.id === view.id);
    return found ? { kind: "contained" } : { kind: "unresolved", reason: `no contained resource #${view.id}` };
  }
  const target = view.reference!;
  if (view.kind === "urn") {
    const entry = index.byFullUrl.get(target);
    return entry ? { kind: "entry", entry } : { kind: "unresolved", reason: `no entry has fullUrl ${target}` };
  }
  if (view.kind === "absolute") {
    const entry = index.byFullUrl.get(withoutHistory(target));
    return entry ? { kind: "entry", entry } : { kind: "unresolved", reason: `no entry has fullUrl ${withoutHistory(target)}` };
  }
  if (view.kind === "relative" && view.type && view.id) {
    const base = baseOf(from?.fullUrl);
    const exact = base ? index.byFullUrl.get(`${base}/${view.type}/${view.id}`) : undefined;
    if (exact) return { kind: "entry", entry: exact };
    const candidates = index.byTypeAndId.get(`${view.type}/${view.id}`) ?? [];
    if (candidates.length === 1) return { kind: "entry", entry: candidates[0]! };
    if (candidates.length > 1) return { kind: "unresolved", reason: `${view.type}/${view.id} matches ${candidates.length} entries` };
    return { kind: "unresolved", reason: `no entry is ${view.type}/${view.id}` };
  }
  return { kind: "unresolved", reason: "the reference is not a URL, a urn:uuid, Type/id or #id" };
}

/** Resolves and returns the entry's resource, or undefined (identifier-only, contained or not found). */
export function resolveResource(index: MessageIndex, reference: unknown, from?: MessageEntry): Json | undefined {
  const resolution = resolveReference(index, reference, from);
  return resolution.kind === "entry" ? resolution.entry.resource : undefined;
}

export interface FoundReference {
  /** FHIRPath-like path below the resource (`insurance[0].coverage`). */
  path: string;
  value: Json;
}

const REFERENCE_KEYS = new Set(["reference", "type", "identifier", "display", "extension", "id"]);

/** Every Reference inside a resource (not descending into contained resources), with its path. */
export function referencesIn(resource: Json): FoundReference[] {
  const found: FoundReference[] = [];
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, `${path}[${i}]`));
      return;
    }
    if (!isObject(value)) return;
    const keys = Object.keys(value);
    const looksLikeReference =
      typeof value.reference === "string" ||
      (isObject(value.identifier) && keys.every((k) => REFERENCE_KEYS.has(k)) && path !== "" && !("resourceType" in value));
    if (looksLikeReference && keys.every((k) => REFERENCE_KEYS.has(k))) {
      found.push({ path, value });
      return;
    }
    for (const key of keys) {
      if (key === "contained" || key === "resourceType") continue;
      walk(value[key], path ? `${path}.${key}` : key);
    }
  };
  walk(resource, "");
  return found;
}
