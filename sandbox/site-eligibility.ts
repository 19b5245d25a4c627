import type { CoverageEligibilityResponse } from "@medplum/fhirtypes";
import { nphies } from "../lib/fhir";
import type { SandboxContext } from "./context";
import type { CoverageDef } from "./reference-data";

/**
 * The exchange's site eligibility on an eligibility answer (required when the outcome is complete):
 * `not-active` when the coverage is not in force for the requested period, `out-network` when the
 * payer's network for this coverage does not include the requesting site's licence, else
 * `eligible` (docs/decisions/071).
 */
export function siteEligibility(inforce: boolean, coverage: CoverageDef, providerLicense: string | undefined, ctx: SandboxContext): "eligible" | "not-active" | "out-network" {
  if (!inforce) return "not-active";
  const network = coverage.network ? ctx.reference.networks.get(coverage.network) : undefined;
  if (network && !network.has(providerLicense ?? "")) return "out-network";
  return "eligible";
}

export function withSiteEligibility(response: CoverageEligibilityResponse, coverage: CoverageDef, providerLicense: string | undefined, ctx: SandboxContext): CoverageEligibilityResponse {
  const inforce = response.insurance?.some((i) => i.inforce === true) ?? false;
  const code = siteEligibility(inforce, coverage, providerLicense, ctx);
  const extension = { url: nphies.EXTENSIONS.siteEligibility, valueCodeableConcept: { coding: [{ system: nphies.SYSTEMS.siteEligibility, code, display: nphies.SITE_ELIGIBILITY[code].en }] } };
  // On the resource (the guide's invariant BV-00503) and on each insurance, where readers of the
  // rule module look for it.
  return {
    ...response,
    extension: [...(response.extension ?? []), extension],
    ...(response.insurance ? { insurance: response.insurance.map((i) => ({ ...i, extension: [...(i.extension ?? []), extension] })) } : {}),
  };
}
