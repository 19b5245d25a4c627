import type { ClaimResponse } from "@medplum/fhirtypes";
import { claimProcessingStatus, readClaimResponse, type ClaimResponseView } from "@/lib/fhir";
import type { PlatformClient } from "./client";
import type { CallOptions } from "./port";
import { PlatformError } from "./errors";
import type { ClaimKey, ClaimStatusResult } from "./port";

/** Statuses after which the platform holds an adjudication to fetch. */
const DECIDED = new Set(["complete", "partial", "denied"]);

/**
 * The newest ClaimResponse that decides something (not queued/pended), with its view: what a
 * status check hands back as "the adjudication" in both protocols.
 */
export function newestDecided(responses: readonly { raw: ClaimResponse; view: ClaimResponseView }[]): { raw: ClaimResponse; view: ClaimResponseView } | undefined {
  const decided = responses.filter((r) => r.view.decision !== "pended");
  decided.sort((a, b) => Date.parse(b.raw.meta?.lastUpdated ?? b.raw.created ?? "") - Date.parse(a.raw.meta?.lastUpdated ?? a.raw.created ?? ""));
  return decided[0];
}

/**
 * The REST status check: `GET /Claim/{id}` for the processing status, then `GET
 * /ClaimResponse?request=` once decided. REST always answers a submission with the claim's
 * Location, so the platform id is known here; without it there is nothing to ask (decision 073).
 */
export async function restClaimStatus(client: Pick<PlatformClient, "readClaim" | "claimResponses">, key: ClaimKey, options: CallOptions = {}): Promise<ClaimStatusResult> {
  if (!key.platformId) {
    throw new PlatformError({
      status: 422,
      requestId: options.requestId ?? "",
      field: "Claim.id",
      diagnostics: "the REST protocol reads a claim by the platform's id, and this submission has none yet",
    });
  }
  const read = await client.readClaim(key.platformId, options);
  const processingStatus = read.processingStatus ?? claimProcessingStatus(read.data);
  if (!processingStatus || !DECIDED.has(processingStatus)) {
    return { ...(processingStatus ? { processingStatus } : {}), platformId: key.platformId, status: read.status, requestId: read.requestId };
  }
  const responses = await client.claimResponses(key.platformId, { ...options, requestId: read.requestId });
  const newest = newestDecided(responses.data.map((raw, i) => ({ raw, view: responses.views[i] ?? readClaimResponse(raw).view })));
  return {
    processingStatus,
    ...(newest ? { response: newest.raw, responseView: newest.view } : {}),
    platformId: key.platformId,
    status: read.status,
    requestId: read.requestId,
  };
}
