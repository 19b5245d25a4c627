/**
 * Extensions, read without knowing them: every `extension` and `modifierExtension` anywhere in a
 * resource, with its place, its URL and its value in words — so that data the portal does not
 * interpret is shown ("Other data from the platform") instead of hidden.
 */

export interface ExtensionView {
  /** Where it sits: `ClaimResponse.item[0]` (the element that carries it). */
  path: string;
  url: string;
  /** A modifierExtension: it changes the meaning of the element that carries it. */
  modifier: boolean;
  /** The value[x] type (`CodeableConcept`, `Money` …), absent for a complex extension. */
  valueType?: string;
  /** The value in words (`12.50 SAR`, `approved (http://…|approved)`, `2026-01-01 – 2026-12-31`). */
  value?: string;
  /** Nested extensions of a complex extension. */
  children?: ExtensionView[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function words(type: string, value: unknown): string {
  if (!isObject(value)) return String(value);
  switch (type) {
    case "Coding":
      return codingWords(value);
    case "CodeableConcept": {
      const codings = Array.isArray(value.coding) ? (value.coding as unknown[]).filter(isObject).map(codingWords) : [];
      return [typeof value.text === "string" ? value.text : undefined, ...codings].filter(Boolean).join("; ");
    }
    case "Money":
      return [value.value, value.currency].filter((v) => v !== undefined).join(" ");
    case "Quantity":
    case "Age":
    case "Count":
    case "Distance":
    case "Duration":
      return [value.comparator, value.value, value.unit ?? value.code].filter((v) => v !== undefined).join(" ");
    case "Period":
      return `${String(value.start ?? "…")} – ${String(value.end ?? "…")}`;
    case "Reference": {
      const identifier = isObject(value.identifier) ? `${String(value.identifier.system ?? "")}|${String(value.identifier.value ?? "")}` : undefined;
      return [value.reference, identifier, value.display].filter((v) => typeof v === "string" && v.length > 0).join(" ");
    }
    case "Identifier":
      return [value.system, value.value].filter((v) => typeof v === "string").join("|");
    case "Attachment":
      return [value.title, value.contentType, value.url].filter((v) => typeof v === "string").join(" ");
    default:
      return JSON.stringify(value);
  }
}

function codingWords(coding: Json): string {
  const code = [coding.system, coding.code].filter((v) => typeof v === "string").join("|");
  return typeof coding.display === "string" ? `${coding.display} (${code})` : code;
}

function readOne(ext: Json, path: string, modifier: boolean): ExtensionView | undefined {
  if (typeof ext.url !== "string") return undefined;
  const view: ExtensionView = { path, url: ext.url, modifier };
  const valueKey = Object.keys(ext).find((k) => k.startsWith("value") && k.length > 5);
  if (valueKey) {
    view.valueType = valueKey.slice(5);
    view.value = words(view.valueType, ext[valueKey]);
  }
  if (Array.isArray(ext.extension)) {
    const children = (ext.extension as unknown[]).filter(isObject).flatMap((c) => readOne(c, path, false) ?? []);
    if (children.length > 0) view.children = children;
  }
  return view;
}

/**
 * Every extension in `resource` whose URL is not in `interpreted`, in document order. Contained
 * resources are walked too (their path says so).
 */
export function collectExtensions(resource: unknown, root: string, interpreted: ReadonlySet<string> = new Set()): ExtensionView[] {
  const out: ExtensionView[] = [];
  const walk = (node: unknown, path: string) => {
    if (Array.isArray(node)) {
      node.forEach((n, i) => walk(n, `${path}[${i}]`));
      return;
    }
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if ((key === "extension" || key === "modifierExtension") && Array.isArray(value)) {
        for (const ext of value) {
          if (!isObject(ext) || interpreted.has(String(ext.url))) continue;
          const view = readOne(ext, path, key === "modifierExtension");
          if (view) out.push(view);
        }
        continue;
      }
      const childPath = key.startsWith("_") ? `${path}.${key.slice(1)}` : `${path}.${key}`;
      walk(value, childPath);
    }
  };
  walk(resource, root);
  return out;
}

/** The `valueCodeableConcept`/`valueCode`/`valueCoding` code of the extension `url` on `element`. */
export function extensionCode(element: unknown, url: string): { system?: string; code: string } | undefined {
  if (!isObject(element) || !Array.isArray(element.extension)) return undefined;
  for (const ext of element.extension as unknown[]) {
    if (!isObject(ext) || ext.url !== url) continue;
    if (typeof ext.valueCode === "string") return { code: ext.valueCode };
    const codings = isObject(ext.valueCodeableConcept) ? ext.valueCodeableConcept.coding : isObject(ext.valueCoding) ? [ext.valueCoding] : undefined;
    if (Array.isArray(codings)) {
      const coding = codings.find((c): c is Json => isObject(c) && typeof c.code === "string");
      if (coding) return { code: coding.code as string, ...(typeof coding.system === "string" ? { system: coding.system } : {}) };
    }
  }
  return undefined;
}
