/**
 * Where the national exchange's (NPHIES) canonical URLs live. Profiles carry the version real
 * traffic declares (`…/StructureDefinition/<name>|1.0.0`); extensions are referenced without a
 * version, as the guide's own examples do. Every URL of the exchange in this code base is built
 * here, so the portal's message assembly and the sandbox's validation can never disagree
 * (docs/decisions/056-one-rule-module-for-the-national-exchange.md).
 */

export const NPHIES_STRUCTURE_BASE = "http://nphies.sa/fhir/ksa/nphies-fs/StructureDefinition";
export const NPHIES_PROFILE_VERSION = "1.0.0";
export const NPHIES_CODE_SYSTEM_BASE = "http://nphies.sa/terminology/CodeSystem";
export const NPHIES_IDENTIFIER_BASE = "http://nphies.sa/identifier";
export const NPHIES_LICENSE_BASE = "http://nphies.sa/license";

/** `…/StructureDefinition/<name>|1.0.0` — what `meta.profile` carries. */
export function profileUrl(name: string): string {
  return `${NPHIES_STRUCTURE_BASE}/${name}|${NPHIES_PROFILE_VERSION}`;
}

/** `…/StructureDefinition/extension-<name>` — what `extension.url` carries. */
export function extensionUrl(name: string): string {
  return `${NPHIES_STRUCTURE_BASE}/extension-${name}`;
}

/** `http://nphies.sa/terminology/CodeSystem/<name>`. */
export function codeSystemUrl(name: string): string {
  return `${NPHIES_CODE_SYSTEM_BASE}/${name}`;
}

/**
 * The profile name of a canonical, whatever version it declares (or none): `…/oral-claim|1.0.0`
 * → `oral-claim`. Undefined when the URL is not one of the exchange's StructureDefinitions.
 */
export function profileNameOf(canonical: string): string | undefined {
  const prefix = `${NPHIES_STRUCTURE_BASE}/`;
  if (!canonical.startsWith(prefix)) return undefined;
  const name = canonical.slice(prefix.length).split("|")[0];
  return name && /^[A-Za-z0-9\-.]+$/.test(name) ? name : undefined;
}
