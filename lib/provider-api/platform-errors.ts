import { AppError, codeForStatus } from "@/lib/errors";
import { operationOutcome, platformIssue, plainIssue } from "@/lib/fhir";
import { PlatformError, PlatformProtocolError, PlatformRateLimitedError, PlatformUnavailableError } from "@/lib/platform";

/**
 * A platform failure as the exchange API answers it: the platform's OperationOutcome with the
 * platform's status (ERR-001…005 kept), 429 with Retry-After when over the platform's limit, 503
 * when it is unreachable, 502 when it answered nonsense. Anything else is rethrown.
 */
export function platformProblem(error: unknown): AppError {
  if (error instanceof PlatformError) {
    const issues = error.outcome?.issue?.length
      ? error.outcome.issue
      : error.code
        ? [platformIssue({ code: error.code, diagnostics: error.diagnostics ?? error.message, ...(error.field ? { expression: [error.field] } : {}) })]
        : [plainIssue("processing", error.diagnostics ?? "The platform refused the request")];
    // The platform refusing the portal itself (token, certificate, method) is not the caller's fault.
    const callerFault = error.code !== undefined || [400, 404, 409, 422].includes(error.status);
    if (!callerFault) {
      return new AppError("platform_error", `The platform refused the portal (HTTP ${error.status}); an administrator must check the platform connection.`, { reason: `platform_${error.status}` });
    }
    const code = error.status >= 400 && error.status < 500 ? codeForStatus(error.status) : "unprocessable";
    return new AppError(code, error.diagnostics ?? "The platform refused the request.", { reason: `platform_${error.code ?? error.status}`, issues: operationOutcome(issues).issue });
  }
  if (error instanceof PlatformRateLimitedError) {
    const seconds = Math.max(1, Math.ceil(error.retryAfterMs / 1000));
    return new AppError("rate_limited", `The platform's rate limit is reached; retry in ${seconds} s.`, { reason: "platform_rate_limited", headers: { "Retry-After": String(seconds) } });
  }
  if (error instanceof PlatformUnavailableError) {
    const seconds = Math.max(1, Math.ceil((error.retryAfterMs ?? 5000) / 1000));
    return new AppError("unavailable", `The platform is unavailable (${error.reason}); retry later.`, { reason: `platform_${error.reason}`, headers: { "Retry-After": String(seconds) } });
  }
  if (error instanceof PlatformProtocolError) {
    return new AppError("platform_error", "The platform answered with an unexpected body.", { reason: "platform_protocol" });
  }
  throw error;
}
