import { operationOutcome, platformIssue, plainIssue } from "@/lib/fhir";
import { PlatformError, PlatformProtocolError, PlatformRateLimitedError, PlatformUnavailableError } from "@/lib/platform";
import { ApiProblem } from "./http";

/**
 * A platform failure as the exchange API answers it: the platform's OperationOutcome with the
 * platform's status (ERR-001…005 kept), 429 with Retry-After when over the platform's limit, 503
 * when it is unreachable, 502 when it answered nonsense. Anything else is rethrown.
 */
export function platformProblem(error: unknown): ApiProblem {
  if (error instanceof PlatformError) {
    const issues = error.outcome?.issue?.length
      ? error.outcome.issue
      : error.code
        ? [platformIssue({ code: error.code, diagnostics: error.diagnostics ?? error.message, ...(error.field ? { expression: [error.field] } : {}) })]
        : [plainIssue("processing", error.diagnostics ?? "The platform refused the request")];
    // The platform refusing the portal itself (token, certificate, method) is not the caller's fault.
    const callerFault = error.code !== undefined || [400, 404, 409, 422].includes(error.status);
    if (!callerFault) {
      return new ApiProblem(502, [plainIssue("exception", `The platform refused the portal (HTTP ${error.status}); an administrator must check the platform connection`)], {}, `platform_${error.status}`);
    }
    const status = error.status >= 400 && error.status < 500 ? error.status : 422;
    return new ApiProblem(status, operationOutcome(issues).issue, {}, `platform_${error.code ?? error.status}`);
  }
  if (error instanceof PlatformRateLimitedError) {
    const seconds = Math.max(1, Math.ceil(error.retryAfterMs / 1000));
    return new ApiProblem(429, [plainIssue("throttled", `The platform's rate limit is reached; retry in ${seconds} s`)], { "Retry-After": String(seconds) }, "platform_rate_limited");
  }
  if (error instanceof PlatformUnavailableError) {
    const seconds = Math.max(1, Math.ceil((error.retryAfterMs ?? 5000) / 1000));
    return new ApiProblem(503, [plainIssue("transient", `The platform is unavailable (${error.reason}); retry later`)], { "Retry-After": String(seconds) }, `platform_${error.reason}`);
  }
  if (error instanceof PlatformProtocolError) {
    return new ApiProblem(502, [plainIssue("exception", "The platform answered with an unexpected body")], {}, "platform_protocol");
  }
  throw error;
}
