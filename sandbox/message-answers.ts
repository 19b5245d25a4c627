import type { ClaimResponse } from "@medplum/fhirtypes";
import type { SandboxContext } from "./context";
import type { ClaimRecord } from "./store";

/**
 * A ClaimResponse as the sandbox sends it in a message (docs/decisions/072): `request` names the
 * clinic's Claim by its business identifier, as the exchange answers. Strict conformance sends the
 * identifier only (the exchange's style); lenient keeps the platform's `Claim/<id>` beside it, for
 * portals that still match answers by the platform id. The REST answers stay as the spec writes them.
 */
export function messagingClaimResponse(record: ClaimRecord, ctx: SandboxContext, response: ClaimResponse): ClaimResponse {
  const [, system, value] = JSON.parse(record.identifierKey) as [string, string, string];
  const identifier = { ...(system ? { system } : {}), value };
  const request = ctx.conformance === "strict" ? { type: "Claim" as const, identifier } : { ...response.request, type: "Claim" as const, identifier };
  return { ...response, request };
}
