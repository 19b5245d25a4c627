import { randomUUID } from "node:crypto";
import type { Bundle, Claim, ClaimResponse, Task } from "@medplum/fhirtypes";
import {
  buildStatusCheckTask,
  isFhirReadError,
  readClaimResponse,
  readResource,
  readStatusCheckAnswer,
  statusCheckResponse,
  type ClaimResponseView,
  type Read,
} from "@/lib/fhir";
import type { CallOptions } from "../port";
import { PlatformError, PlatformProtocolError } from "../errors";
import type { ClaimKey, ClaimStatusResult, PlatformPort } from "../port";
import { stableUuid, type MessagingCore } from "./core";

/** Processing status a decided ClaimResponse stands for, when the Task did not say. */
const DECISION_STATUS: Partial<Record<ClaimResponseView["decision"], string>> = { approved: "complete", "partly-approved": "partial", denied: "denied", pended: "pended" };

/**
 * The status check as the exchange does it (decision 073): a `status-check` message whose Task
 * (code `status`) names the claim by our identifier and is owned by the payer; the answer is read
 * from Task.output and the ClaimResponse it points at. Reading "the platform's Claim" and its
 * ClaimResponses (the port's REST-shaped calls) are answered through it.
 */
export function statusOperations(core: MessagingCore): Pick<PlatformPort, "claimStatus" | "readClaim" | "claimResponses" | "searchClaims"> {
  const { deps, clock } = core;

  async function claimStatus(key: ClaimKey, options: CallOptions = {}): Promise<ClaimStatusResult> {
    const requestId = options.requestId ?? randomUUID();
    const identifier = key.identifier ?? (key.platformId ? (await deps.sentClaim?.(key.platformId))?.identifier : undefined);
    if (!identifier) {
      throw new PlatformError({ status: 422, requestId, field: "Claim", diagnostics: "a status check names the claim by the portal's identifier, and no claim the portal sent has this id" });
    }
    const destination = await core.destinationFor({ claimIdentifier: identifier, ...(key.platformId ? { claimId: key.platformId } : {}) }, requestId, "Claim");
    const payer = await core.payer(destination.payerLicense!);
    const at = clock();
    const task = buildStatusCheckTask({
      id: stableUuid(`status|${identifier.system ?? ""}|${identifier.value}|${at.toISOString()}`),
      identifier,
      providerOrgId: deps.providerOrgId,
      payer: { orgId: payer.id, license: destination.payerLicense! },
      authoredOn: at,
    });
    const reply = await core.exchange({ event: "status-check", focus: task, resources: [core.provider(), payer], destination, bucket: "status" }, { ...options, requestId });
    const answered = core.focusOf<Read<{ notes: string[] }, Task>>(reply, "Task", (json) => readResource<Task>(json, "Task")).raw;
    const answer = readStatusCheckAnswer(answered);
    const raw = statusCheckResponse(answer, reply.view.entries);
    let response: { raw: ClaimResponse; view: ClaimResponseView } | undefined;
    if (raw) {
      try {
        response = readClaimResponse(raw);
      } catch (error) {
        if (!isFhirReadError(error)) throw error;
        throw new PlatformProtocolError({ status: reply.status, requestId: reply.requestId, message: "POST /$process-message: the status-check answer's ClaimResponse is not valid FHIR R4", problems: [`${error.path}: ${error.reason}`] });
      }
    }
    const processingStatus = answer.processingStatus ?? (response ? DECISION_STATUS[response.view.decision] : undefined);
    const decided = response && response.view.decision !== "pended" ? response : undefined;
    return {
      ...(processingStatus ? { processingStatus } : {}),
      ...(decided ? { response: decided.raw, responseView: decided.view } : {}),
      ...(key.platformId ? { platformId: key.platformId } : {}),
      status: reply.status,
      requestId: reply.requestId,
    };
  }

  /** The Claim the portal sent under this platform id, with the status the exchange answers for it (it answers a status, never the Claim). */
  async function readClaim(platformId: string, options: CallOptions = {}) {
    const requestId = options.requestId ?? randomUUID();
    const sent = await deps.sentClaim?.(platformId);
    if (!sent) throw new PlatformError({ status: 422, requestId, field: "Claim", diagnostics: "the portal sent no claim with this platform id: nothing to ask the exchange about" });
    const status = await claimStatus({ platformId, identifier: sent.identifier }, { ...options, requestId });
    return { data: { ...sent.claim, id: platformId }, status: status.status, requestId: status.requestId, ...(status.processingStatus ? { processingStatus: status.processingStatus } : {}) };
  }

  return {
    claimStatus,
    readClaim,

    async claimResponses(platformId, options = {}) {
      const requestId = options.requestId ?? randomUUID();
      const sent = await deps.sentClaim?.(platformId);
      if (!sent) throw new PlatformError({ status: 422, requestId, field: "Claim", diagnostics: "the portal sent no claim with this platform id: nothing to ask the exchange about" });
      const status = await claimStatus({ platformId, identifier: sent.identifier }, { ...options, requestId });
      return { data: status.response ? [status.response] : [], views: status.responseView ? [status.responseView] : [], status: status.status, requestId: status.requestId };
    },

    async searchClaims(query, options = {}) {
      // The exchange has no search: the patient's claims the portal sent, each asked about with a
      // status check (at most 50, newest first). Claims another system sent cannot be found here.
      const requestId = options.requestId ?? randomUUID();
      if (!deps.knownClaims) {
        throw new PlatformError({ status: 501, requestId, diagnostics: "searching claims is a REST call; the messaging protocol has no search" });
      }
      const known = await deps.knownClaims(query, 50);
      const claims: Claim[] = [];
      for (const { claim, identifier, platformId } of known) {
        try {
          // Asked by our identifier; the copy carries the platform's id only when it gave one.
          await claimStatus({ identifier, ...(platformId ? { platformId } : {}) }, { ...options, requestId });
          const sent: Claim = { ...claim };
          delete sent.id;
          claims.push(platformId ? { ...sent, id: platformId } : sent);
        } catch (error) {
          // A claim the exchange no longer knows (or that is not ours) is simply not in the answer.
          if (!(error instanceof PlatformError) || error.status >= 500) throw error;
        }
      }
      const bundle: Bundle<Claim> = { resourceType: "Bundle", type: "searchset", total: claims.length, entry: claims.map((resource) => ({ resource })) };
      return { data: bundle, status: 200, requestId };
    },
  };
}
