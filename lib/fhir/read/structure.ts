import modelJson from "./r4-model.json";
import { FhirReadError } from "./errors";
import { primitiveProblem } from "./primitives";

/**
 * Checks a resource against the structure of FHIR R4 — element names, JSON types, cardinality,
 * primitive formats, required code lists — from `r4-model.json` (generated from the official
 * StructureDefinitions by scripts/generate-fhir-model.ts). Everything R4 allows passes: any
 * extension or modifierExtension with any value[x], primitive extensions (`_status`), contained
 * resources, elements the portal never looks at.
 *
 * Liberal where R4 is strict without consequence for us: members R4 does not define (a newer
 * version's element, a vendor's addition) and empty strings are reported as `notes`, not refused.
 * Everything else that breaks R4 throws a FhirReadError naming the path.
 *
 * Strict (`{ strict: true }`, the sandbox's structure pass before any business rule, decision
 * 104): what the liberal reading keeps as notes is refused too — a member R4 does not define, an
 * empty string or array — and a literal reference (`Type/id`, or its `type`) must name a resource
 * type the element allows. The portal's readers stay liberal.
 */

/** One element of the R4 model (scripts/generate-fhir-model.ts writes them). */
export interface ModelElement {
  min: number;
  many: boolean;
  types: string[];
  path?: string;
  codes?: string[];
  /** Reference elements: the resource types the reference may name (absent: any). */
  targets?: string[];
}
export interface R4Model {
  elements: Record<string, Record<string, ModelElement>>;
  resources: string[];
  primitives: string[];
}

const model = modelJson as R4Model;
const PRIMITIVES = new Set(model.primitives);
const RESOURCES = new Set(model.resources);
const RESOURCE_TYPE_RE = /^[A-Z][A-Za-z]{1,63}$/;

export interface StructureReport {
  /** Tolerated departures from R4 (unknown members, empty strings), by path. */
  notes: string[];
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const cap = (type: string) => type.charAt(0).toUpperCase() + type.slice(1);

/** JSON member name → element definition, expanding choice elements (`value[x]` → `valueString` …). */
function membersOf(group: Record<string, ModelElement>): Map<string, { element: ModelElement; type?: string; name: string }> {
  const members = new Map<string, { element: ModelElement; type?: string; name: string }>();
  for (const [name, element] of Object.entries(group)) {
    if (name.endsWith("[x]")) {
      const base = name.slice(0, -3);
      for (const type of element.types) members.set(`${base}${cap(type)}`, { element, type, name: base });
    } else {
      members.set(name, { element, name });
    }
  }
  return members;
}

const memberCache = new Map<string, ReturnType<typeof membersOf>>();
function membersFor(groupPath: string) {
  let members = memberCache.get(groupPath);
  if (!members) {
    const group = model.elements[groupPath];
    if (!group) throw new Error(`r4-model.json has no element group ${groupPath}`);
    members = membersOf(group);
    memberCache.set(groupPath, members);
  }
  return members;
}

/** What kind of R4 fault a structure error is (the strict pass answers each with its own code). */
export type StructureFault = "datatype" | "element" | "cardinality" | "reference";

/** A FhirReadError of the structure check, with the kind of fault. */
export class StructureError extends FhirReadError {
  constructor(
    path: string,
    reason: string,
    readonly fault: StructureFault,
  ) {
    super(path, reason);
  }
}

export interface StructureOptions {
  /** Refuse what the liberal reading notes (unknown members, empty values) and wrong reference targets. */
  strict?: boolean;
}

/** The resource type a literal reference names (`Claim/1`, `http://x/fhir/Claim/1`, `Claim/1/_history/2`), if any. */
function literalReferenceType(reference: string): string | undefined {
  if (reference.startsWith("#") || reference.startsWith("urn:")) return undefined;
  const parts = reference.split("/");
  const history = parts.indexOf("_history");
  const tail = history > 0 ? parts.slice(0, history) : parts;
  const type = tail[tail.length - 2];
  return type && RESOURCE_TYPE_RE.test(type) ? type : undefined;
}

class Checker {
  readonly notes: string[] = [];
  constructor(private readonly strict = false) {}

  /** A tolerated departure: a note, or (strict) a refusal. */
  private depart(path: string, note: string, reason: string, fault: StructureFault): void {
    if (this.strict) throw new StructureError(path, reason, fault);
    this.notes.push(`${path}${note}`);
  }

  resource(value: unknown, path: string, expectedType?: string): void {
    if (!isObject(value)) throw new FhirReadError(path, "expected a resource (a JSON object)");
    const type = value.resourceType;
    if (typeof type !== "string" || !RESOURCE_TYPE_RE.test(type)) throw new FhirReadError(`${path}.resourceType`, "missing or not a resource type");
    if (expectedType && type !== expectedType) throw new FhirReadError(`${path}.resourceType`, `expected ${expectedType}, got ${type}`);
    if (!RESOURCES.has(type)) {
      // A resource type the portal never reads in depth (e.g. a contained Practitioner): valid as
      // long as it is an object with a resource type; kept as received.
      return;
    }
    this.group(value, type, path, new Set(["resourceType"]));
  }

  /** Checks the members of an object against the element group at `groupPath`. */
  group(value: Json, groupPath: string, path: string, skip: Set<string> = new Set()): void {
    const members = membersFor(groupPath);
    const seenChoice = new Map<string, string>();
    for (const [key, member] of Object.entries(value)) {
      // A member set to undefined is absent (objects built in code, never parsed JSON).
      if (skip.has(key) || member === undefined) continue;
      if (key.startsWith("_")) {
        this.primitiveExtension(key.slice(1), member, members, `${path}.${key}`);
        continue;
      }
      const def = members.get(key);
      if (!def) {
        if (key === "fhir_comments") continue;
        this.depart(`${path}.${key}`, `: not an element of R4 ${groupPath}; kept as received`, `not an element of R4 ${groupPath}`, "element");
        continue;
      }
      if (def.type) {
        const other = seenChoice.get(def.name);
        if (other) throw new StructureError(`${path}.${key}`, `only one of ${def.name}[x] may be present (also ${other})`, "cardinality");
        seenChoice.set(def.name, key);
      }
      this.element(member, def.element, def.type, `${path}.${key}`, value[`_${key}`]);
    }
    for (const [name, element] of Object.entries(model.elements[groupPath] ?? {})) {
      if (element.min < 1) continue;
      const present = name.endsWith("[x]") ? seenChoice.has(name.slice(0, -3)) : value[name] !== undefined || value[`_${name}`] !== undefined;
      if (!present) throw new StructureError(`${path}.${name}`, "required by R4 but missing", "cardinality");
    }
  }

  private element(value: unknown, element: ModelElement, choiceType: string | undefined, path: string, primitiveExt: unknown): void {
    if (element.many) {
      if (!Array.isArray(value)) throw new StructureError(path, "expected an array", "cardinality");
      if (value.length === 0) {
        this.depart(path, ": empty array", "an empty array is not a value in FHIR JSON", "datatype");
        return;
      }
      value.forEach((item, i) => {
        // A repeating primitive may carry null where only its extension (in _name[i]) is given.
        if (item === null && Array.isArray(primitiveExt) && isObject(primitiveExt[i])) return;
        this.single(item, element, choiceType, `${path}[${i}]`);
      });
      return;
    }
    if (Array.isArray(value)) throw new StructureError(path, "expected a single value, not an array", "cardinality");
    this.single(value, element, choiceType, path);
  }

  private single(value: unknown, element: ModelElement, choiceType: string | undefined, path: string): void {
    const type = choiceType ?? element.types[0];
    if (!type) return; // an element R4 defines without a type (never reached in the base model)
    if (element.types.length > 1 && !choiceType) throw new Error(`choice element at ${path} without a type`);
    if (value === null) throw new FhirReadError(path, "null is not a value in FHIR JSON");
    if (PRIMITIVES.has(type)) {
      const problem = primitiveProblem(type, value);
      if (problem) {
        if (typeof value === "string" && value.length === 0) {
          this.depart(path, ": empty string", problem, "datatype");
          return;
        }
        throw new FhirReadError(path, problem);
      }
      if (element.codes && !element.codes.includes(value as string)) {
        throw new FhirReadError(path, `"${String(value)}" is not one of the codes R4 allows here (${element.codes.slice(0, 8).join(", ")}${element.codes.length > 8 ? ", …" : ""})`);
      }
      return;
    }
    // An element holding a resource (contained, Bundle.entry.resource, Bundle.entry.response.outcome):
    // checked as whatever resource it says it is.
    if (type === "Resource" || RESOURCES.has(type)) {
      this.resource(value, path);
      return;
    }
    if (!isObject(value)) throw new FhirReadError(path, `expected an object (${type === "BackboneElement" ? "an element" : type})`);
    if (type === "BackboneElement" || type === "Element") {
      if (element.path) this.group(value, element.path, path);
      return;
    }
    this.group(value, type, path);
    if (this.strict && type === "Reference" && element.targets) this.referenceTarget(value, element.targets, path);
  }

  /** Strict: a literal reference or its `type` names a resource type the element allows. */
  private referenceTarget(value: Json, targets: string[], path: string): void {
    const named = typeof value.reference === "string" ? literalReferenceType(value.reference) : undefined;
    if (named && !targets.includes(named)) throw new StructureError(`${path}.reference`, `a reference to a ${named}; this element takes ${targets.join(" or ")}`, "reference");
    if (typeof value.type === "string" && !targets.includes(value.type)) throw new StructureError(`${path}.type`, `"${value.type}" is not a type this reference takes (${targets.join(", ")})`, "reference");
  }

  /** `_name`: the id/extensions of primitive `name` (an object, or an array parallel to the values). */
  private primitiveExtension(name: string, value: unknown, members: ReturnType<typeof membersOf>, path: string): void {
    const def = members.get(name);
    if (!def) {
      this.depart(path, ": extension of an element R4 does not define; kept as received", "extension of an element R4 does not define", "element");
      return;
    }
    const check = (v: unknown, p: string) => {
      if (v === null) return;
      if (!isObject(v)) throw new FhirReadError(p, "expected an object with id and/or extension");
      this.group(v, "Element", p);
    };
    if (Array.isArray(value)) value.forEach((v, i) => check(v, `${path}[${i}]`));
    else check(value, path);
  }
}

/**
 * Checks `value` as an R4 resource of `expectedType` (any resource type when omitted).
 * Throws FhirReadError on the first structural problem; returns the tolerated notes.
 */
export function checkStructure(value: unknown, expectedType?: string, options: StructureOptions = {}): StructureReport {
  const checker = new Checker(options.strict === true);
  checker.resource(value, expectedType ?? (isObject(value) && typeof value.resourceType === "string" ? value.resourceType : "Resource"), expectedType);
  return { notes: checker.notes };
}

/**
 * The resource types a Reference element may name, by resource type and element path without
 * indexes (`Claim`, `careTeam.provider`); undefined when any resource (or the element is unknown).
 */
export function referenceTargets(resourceType: string, elementPath: string): readonly string[] | undefined {
  let group = resourceType;
  const names = elementPath.replace(/\[\d+\]/g, "").split(".");
  for (let i = 0; i < names.length; i++) {
    const element = model.elements[group]?.[names[i]!];
    if (!element) return undefined;
    if (i === names.length - 1) return element.types.includes("Reference") ? element.targets : undefined;
    const next = element.path ?? element.types[0];
    if (!next) return undefined;
    group = next;
  }
  return undefined;
}
