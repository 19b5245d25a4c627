import type { z } from "zod";
import { rankedWorkQueue } from "@/lib/claims";
import type { Database, SubmissionKind } from "@/lib/db";
import { estimateVisit, getCheckView, listChecksForPatient, runEligibilityCheck, type EligibilityCheckView } from "@/lib/eligibility";
import { AppError } from "@/lib/errors";
import { impossibleDatePath } from "@/lib/http";
import { findSubmission, listNotifications, recordLookup, recordSummary, statusResult, submitGatewayClaim, type AgentRole, type GatewayContext } from "@/lib/gateway";
import { answerInformationRequest, listInformationRequests } from "@/lib/information-requests";
import { getPatient } from "@/lib/patients";
import { portOf } from "@/lib/platform";
import { getSubmission, type Submission } from "@/lib/submissions";
import { clinicToday } from "@/lib/time";
import { worklist } from "@/lib/visits";
import { fromMinorUnits, PLATFORM_CURRENCY } from "@/lib/fhir";
import * as s from "./schemas";
import { waitForDecision } from "./wait";

/** One call of a tool: the gateway's call (token, kernel audit, config, port) plus the agent it speaks as. */
export interface McpContext extends GatewayContext {
  role: AgentRole;
  /** The brand or role name in the URL. */
  agentName: string;
  database: Database;
  timeZone: string;
  /** Submission kinds this agent may read and act on. */
  kinds: readonly SubmissionKind[];
  /** Sends a status-change notification on the call's stream (where the transport allows). */
  notify(message: { level: "info"; data: Record<string, unknown> }): Promise<void>;
  progress(progress: number, total: number | undefined, message: string): Promise<void>;
  signal: AbortSignal;
}

export interface ToolDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  /** Arabic title and description: listed under `_meta` (the protocol has one description per tool). */
  titleAr: string;
  description: string;
  descriptionAr: string;
  roles: readonly AgentRole[];
  input: I;
  output: O;
  /** Reads only (annotations.readOnlyHint). */
  readOnly: boolean;
  /** Creates something: the input carries an idempotency key. */
  creates?: boolean;
  /** Streams notifications while it runs (answered as Server-Sent Events). */
  streams?: boolean;
  run(ctx: McpContext, input: z.output<I>): Promise<z.output<O>>;
}

const tool = <I extends z.ZodType, O extends z.ZodType>(def: ToolDef<I, O>): ToolDef => def as unknown as ToolDef;

/** The kinds of submission each agent works with (the gateway's agents: claims, authorization requests, both for notifications). */
export const AGENT_KINDS: Record<AgentRole, readonly SubmissionKind[]> = {
  claim: ["claim"],
  authorization: ["preauthorization"],
  notification: ["claim", "preauthorization"],
  record: [],
};

/** The caller of a service the screens use, for a call made by a gateway token (no staff user). */
const tokenCaller = (ctx: McpContext) => ({ actor: ctx.actor, requestId: ctx.requestId, ...(ctx.ip ? { ip: ctx.ip } : {}) });

/** The system of the Claim identifier an MCP idempotency key becomes. */
export const MCP_IDEMPOTENCY_SYSTEM = "urn:clinic-exchange:mcp:idempotency-key";

const NOT_VISIBLE = "No submission with this id or identifier that this agent may read.";

async function located(ctx: McpContext, data: { submissionId?: string; identifier?: string }): Promise<Submission> {
  for (const kind of ctx.kinds) {
    const found = await findSubmission(ctx, kind, data);
    if (found) {
      ctx.audit.target = { type: "submission", id: found.id };
      return found;
    }
  }
  throw new AppError("not_found", NOT_VISIBLE);
}

function eligibilityView(view: EligibilityCheckView): z.output<typeof s.eligibilityOutput> {
  return {
    checkId: view.id,
    outcome: view.outcome,
    inforce: view.inforce,
    insurerId: view.insurer.id,
    servicedDate: view.servicedDate,
    checkedAt: view.checkedAt,
    error: view.error ? { code: view.error.code ?? null, httpStatus: view.error.status ?? null } : null,
    benefits: (view.benefits as unknown as Record<string, unknown> | undefined) ?? null,
  };
}

function submitTool(kind: SubmissionKind) {
  return async (ctx: McpContext, input: { idempotencyKey: string; claim: Record<string, unknown> }) => {
    if (input.claim.identifier !== undefined) {
      throw new AppError("unprocessable", "claim.identifier: leave it out — idempotencyKey is your identifier for this request.", {
        reason: "invalid_data",
        fields: [{ path: "claim.identifier", message: "leave it out; idempotencyKey is it" }],
      });
    }
    // The body reader leaves the arguments' dates to the tools (server.ts): a Claim's are checked here, in words.
    const badDate = impossibleDatePath(input.claim, "claim");
    if (badDate !== undefined) {
      throw new AppError("unprocessable", "A date in the claim does not exist; nothing was queued.", { reason: "impossible_date", fields: [{ path: badDate, message: "not a real calendar date or time (YYYY-MM-DD of a day that exists)" }] });
    }
    const claim = { ...input.claim, identifier: [{ system: MCP_IDEMPOTENCY_SYSTEM, value: input.idempotencyKey }] };
    const { submission, replay } = await submitGatewayClaim(ctx, claim, kind, "claim");
    return {
      submissionId: submission.id,
      kind: submission.kind,
      status: submission.status,
      identifier: submission.identifierSystem && submission.identifierValue ? { system: submission.identifierSystem, value: submission.identifierValue } : null,
      replay,
    };
  };
}

export const TOOLS: readonly ToolDef[] = [
  tool({
    name: "find_patient",
    title: "Find a patient",
    titleAr: "البحث عن مريض",
    description:
      "Finds a patient registered in the clinic's portal by national ID or Iqama number. Answers the portal's patientId, display name, gender, birth year and the patient's coverages (coverageId for check_eligibility, platformCoverageId for a Claim's insurance). found: false when the number is not registered.",
    descriptionAr: "يبحث عن مريض مسجل في البوابة برقم الهوية الوطنية أو الإقامة، ويعيد معرّفه وتغطياته التأمينية.",
    roles: ["record", "authorization", "claim"],
    input: s.findPatientInput,
    output: s.findPatientOutput,
    readOnly: true,
    async run(ctx, input) {
      const found = await recordLookup(ctx.db, input, ctx.config.allowSandboxTestIds);
      ctx.audit.details.found = found.found;
      if (!found.patient) return { found: false, patient: null, coverages: [] };
      ctx.audit.target = { type: "patient", id: found.patient.patientId };
      const summary = await recordSummary(ctx.db, { patientId: found.patient.patientId }, ctx.config.allowSandboxTestIds);
      return { found: true, patient: summary.patient, coverages: summary.coverages };
    },
  }),
  tool({
    name: "check_eligibility",
    title: "Check eligibility",
    titleAr: "التحقق من الأهلية",
    description:
      "Asks the patient's insurer, through the national exchange, whether a coverage is in force on the visit day and what it covers (copay, remaining benefit, what needs prior authorization). Stored and shown in the portal like a check made at the front desk. outcome is in_force, not_in_force or rejected (the exchange refused: error.code says why). Use the checkId with estimate_share.",
    descriptionAr: "يسأل شركة التأمين عبر المنصة الوطنية عن سريان التغطية ومنافعها في يوم الزيارة.",
    roles: ["record", "authorization"],
    input: s.checkEligibilityInput,
    output: s.eligibilityOutput,
    readOnly: false,
    async run(ctx, input) {
      ctx.audit.target = { type: "patient", id: input.patientId };
      const port = await portOf(ctx.port, null);
      const servicedDate = input.servicedDate ?? clinicToday(ctx.timeZone, ctx.now);
      const outcome = await runEligibilityCheck(
        { db: ctx.db, client: port, providerOrgId: ctx.config.providerOrgId, now: () => new Date() },
        tokenCaller(ctx),
        { patientId: input.patientId, coverageId: input.coverageId, servicedDate, purposes: input.purposes.filter((p) => p !== "discovery"), categories: input.categories as never },
      );
      if (outcome.kind === "invalid") {
        const fields = [
          ...(outcome.fieldErrors.patientId ? [{ path: "patientId", message: "no patient with this id is registered in the portal" }] : []),
          ...(outcome.fieldErrors.coverageId ? [{ path: "coverageId", message: "not one of this patient's coverages (find_patient lists them)" }] : []),
        ];
        throw new AppError("unprocessable", "Nothing was sent to the exchange.", { reason: "invalid_data", fields });
      }
      if (outcome.kind === "rate_limited") {
        throw new AppError("rate_limited", `The exchange's eligibility limit is reached; call again in ${Math.ceil(outcome.retryAfterMs / 1000)} s.`, { reason: "platform_rate_limited" });
      }
      if (outcome.kind === "unavailable") throw new AppError("unavailable", "The exchange did not answer; nothing was stored. Try again in a minute.", { reason: "platform_unavailable" });
      ctx.audit.target = { type: "eligibility_check", id: outcome.check.id };
      ctx.audit.details.outcome = outcome.check.outcome;
      return eligibilityView(outcome.check);
    },
  }),
  tool({
    name: "last_eligibility",
    title: "Read the last eligibility answer",
    titleAr: "آخر نتيجة أهلية",
    description: "The patient's most recent eligibility answer stored in the portal (any coverage, made by staff or an agent), with its benefits. found: false when the patient was never checked.",
    descriptionAr: "أحدث نتيجة تحقق من الأهلية للمريض مع المنافع.",
    roles: ["record", "authorization", "claim"],
    input: s.patientInput,
    output: s.lastEligibilityOutput,
    readOnly: true,
    async run(ctx, input) {
      const patient = await getPatient(ctx.db, input.patientId);
      if (!patient) throw new AppError("not_found", "No patient with this id is registered in the portal.");
      ctx.audit.target = { type: "patient", id: patient.id };
      const [latest] = await listChecksForPatient(ctx.db, patient.id, 1);
      const view = latest ? await getCheckView(ctx.db, latest.id) : undefined;
      return { found: Boolean(view), check: view ? eligibilityView(view) : null };
    },
  }),
  tool({
    name: "estimate_share",
    title: "Estimate the patient's share",
    titleAr: "تقدير حصة المريض",
    description:
      "Estimates what the payer and the patient pay for planned services, from an eligibility answer (copay, remaining benefit, deductible) and the payer's contract prices on the visit day, with VAT. Amounts are in halalas (minor units: 100 = 1.00 SAR). unpriced lists services the contract does not price.",
    descriptionAr: "يقدّر ما يدفعه المريض وشركة التأمين للخدمات المخطط لها بحسب العقد ونتيجة الأهلية.",
    roles: ["record", "authorization", "claim"],
    input: s.estimateShareInput,
    output: s.estimateShareOutput,
    readOnly: true,
    async run(ctx, input) {
      const estimate = await estimateVisit(ctx.db, input.checkId, input.services);
      if (!estimate) throw new AppError("not_found", "No usable eligibility answer with this checkId (unknown, or the exchange refused that check): run check_eligibility first.");
      ctx.audit.target = { type: "eligibility_check", id: input.checkId };
      // The patient's document number stays out (it decides the VAT, which the answer already applies).
      const { patient: _patient, ...rest } = estimate;
      return rest as unknown as z.output<typeof s.estimateShareOutput>;
    },
  }),
  tool({
    name: "request_authorization",
    title: "Request a prior authorization",
    titleAr: "طلب موافقة مسبقة",
    description:
      "Queues a prior-authorization request (a FHIR Claim with use preauthorization) for the exchange, through the same intake, scrubber and outbox as the portal's pages and the agent gateway. Answers the submissionId; follow it with wait_for_decision or submission_status. Problems are answered as a tool error naming each element and how to fix it; nothing is queued then.",
    descriptionAr: "يرسل طلب موافقة مسبقة إلى المنصة الوطنية عبر نفس مسار البوابة.",
    roles: ["authorization"],
    input: s.requestAuthorizationInput,
    output: s.submittedOutput,
    readOnly: false,
    creates: true,
    run: submitTool("preauthorization"),
  }),
  tool({
    name: "submit_claim",
    title: "Submit a claim",
    titleAr: "تقديم مطالبة",
    description:
      "Queues a claim (a FHIR Claim with use claim) for the exchange. The claim scrubber checks it first (codes, prices against the contract, authorization, dates, the payer's rules): every finding that would be rejected comes back as a tool error with the element, the rejection code and the fix, and nothing is queued. Answers the submissionId; follow it with wait_for_decision or submission_status.",
    descriptionAr: "يقدّم مطالبة بعد فحصها؛ تعاد ملاحظات الفاحص كأخطاء مع طريقة الإصلاح.",
    roles: ["claim"],
    input: s.submitClaimInput,
    output: s.submittedOutput,
    readOnly: false,
    creates: true,
    run: submitTool("claim"),
  }),
  tool({
    name: "submission_status",
    title: "A submission's status and decision",
    titleAr: "حالة الطلب والقرار",
    description:
      "The state of an authorization request or claim (queued, sent, pended, complete, partial, denied, rejected, failed, cancelled), the payer's decision (outcome, disposition, preAuthRef, totals by category), the exchange's errors with their resolution, the timeline, and the payer's information requests. The claim agent sees claims, the authorization agent authorization requests.",
    descriptionAr: "حالة طلب الموافقة أو المطالبة وقرار شركة التأمين والسجل الزمني.",
    roles: ["authorization", "claim", "notification"],
    input: s.submissionInput,
    output: s.statusOutput,
    readOnly: true,
    async run(ctx, input) {
      const submission = await located(ctx, input);
      ctx.audit.details.submissionStatus = submission.status;
      return (await statusResult(ctx.db, submission)) as unknown as z.output<typeof s.statusOutput>;
    },
  }),
  tool({
    name: "wait_for_decision",
    title: "Wait for a decision",
    titleAr: "انتظار القرار",
    description:
      "Waits until the submission is decided (complete, partial, denied), refused (rejected, failed), cancelled, or the payer asks for information — at most timeoutSeconds. Each status change is sent as a notification (notifications/message, and notifications/progress when you pass a progressToken) while it waits. Answers the status then; decided: false when the time ran out.",
    descriptionAr: "ينتظر قرار شركة التأمين ويرسل إشعاراً عند كل تغيير في الحالة.",
    roles: ["authorization", "claim", "notification"],
    input: s.waitInput,
    output: s.waitOutput,
    readOnly: true,
    streams: true,
    async run(ctx, input) {
      const submission = await located(ctx, { submissionId: input.submissionId });
      return waitForDecision(ctx, submission, input.timeoutSeconds * 1000, () => getSubmission(ctx.db, submission.id));
    },
  }),
  tool({
    name: "visits_ahead",
    title: "Visits ahead (eligibility worklist)",
    titleAr: "الزيارات القادمة",
    description:
      "The morning worklist of visits ahead: each planned visit with its eligibility verdict (in_force, not_in_force, no_coverage, benefit_exhausted, benefit_low, preauth_required, not_registered, platform_error) or waiting, most serious first. verdict: problems = every verdict but in force.",
    descriptionAr: "قائمة الزيارات القادمة مع نتيجة الأهلية لكل زيارة، الأخطر أولاً.",
    roles: ["record"],
    input: s.visitsAheadInput,
    output: s.visitsAheadOutput,
    readOnly: true,
    async run(ctx, input) {
      const rows = await worklist(ctx.db, { ...(input.date ? { date: input.date } : {}), ...(input.verdict ? { verdict: input.verdict } : {}), limit: input.limit });
      ctx.audit.details.visits = Math.min(rows.length, input.limit);
      return {
        visits: rows.slice(0, input.limit).map((r) => ({
          visitId: r.visitId,
          serviceDate: r.serviceDate,
          patientId: r.patientId,
          patientName: r.patientName,
          insurerId: r.insurerId,
          services: r.services,
          checkState: r.checkState,
          verdict: r.verdict,
          checkId: r.checkId,
        })),
      };
    },
  }),
  tool({
    name: "denials_queue",
    title: "Denials work queue",
    titleAr: "قائمة المطالبات المرفوضة",
    description:
      "The top items of the denials work queue: rejected or failed claims to fix or retry, and denied lines still open to appeal, ranked by money at stake per day left before the deadline (resubmission or appeal window). Each item says the action (fix, retry, appeal), the amount at stake, the reason code and the deadline.",
    descriptionAr: "أهم المطالبات المرفوضة مرتبة بحسب المبلغ المعرض للخطر والموعد النهائي.",
    roles: ["claim"],
    input: s.denialsQueueInput,
    output: s.denialsQueueOutput,
    readOnly: true,
    async run(ctx, input) {
      const items = (await rankedWorkQueue(ctx.db, { today: clinicToday(ctx.timeZone, ctx.now), timeZone: ctx.timeZone, limit: input.limit })).slice(0, input.limit);
      ctx.audit.details.items = items.length;
      const total = items.reduce((sum, i) => sum + i.atStakeMinor, 0);
      return {
        items: items.map((i) => ({
          submissionId: i.id,
          status: i.status,
          action: i.action,
          insurerId: i.insurerId,
          atStake: { value: fromMinorUnits(i.atStakeMinor), currency: i.currency ?? PLATFORM_CURRENCY },
          reason: i.reason,
          deadline: i.deadline ? { kind: i.deadline.kind, due: i.deadline.due, daysLeft: i.deadline.daysLeft, level: i.deadline.level } : null,
          errors: (i.errors ?? []).map((e) => ({ code: e.code ?? null, resolution: e.resolution ?? null, field: e.field ?? null })),
        })),
        totalAtStake: { value: fromMinorUnits(total), currency: PLATFORM_CURRENCY },
      };
    },
  }),
  tool({
    name: "answer_information_request",
    title: "Answer a payer's information request",
    titleAr: "الرد على طلب معلومات",
    description:
      "Answers the payer's information request about a claim or authorization request (submission_status lists them under informationRequests) with text, sent to the exchange as a Communication. Sending evidence the payer did not ask for is not offered yet. Answering an already answered request is refused.",
    descriptionAr: "يرد على طلب معلومات من شركة التأمين بنص يرسل عبر المنصة الوطنية.",
    roles: ["authorization", "claim"],
    input: s.answerRequestInput,
    output: s.answerRequestOutput,
    readOnly: false,
    async run(ctx, input) {
      const submission = await located(ctx, { submissionId: input.submissionId });
      const requests = await listInformationRequests(ctx.db, { submissionId: submission.id, filter: "all", kinds: ctx.kinds });
      if (!requests.some((r) => r.id === input.informationRequestId)) throw new AppError("not_found", "No information request with this id about this submission.");
      const result = await answerInformationRequest({ db: ctx.db, port: ctx.port, providerOrgId: ctx.config.providerOrgId }, tokenCaller(ctx), { id: input.informationRequestId, text: input.text, attachmentIds: [] });
      ctx.audit.details.informationRequestId = input.informationRequestId;
      if (!result.ok) {
        const words: Record<string, string> = {
          not_found: "No information request with this id about this submission.",
          already_answered: "This request is already answered; submission_status shows the answer's state.",
          empty: "text: write the answer.",
          attachments: "Attachments cannot be sent here.",
          platform: `The exchange refused the answer${result.reason ? `: ${result.reason}` : ""}; the request stays open.`,
        };
        throw new AppError(result.error === "platform" ? "unavailable" : result.error === "not_found" ? "not_found" : "conflict", words[result.error] ?? "The answer was not sent.", { reason: result.error });
      }
      return { informationRequestId: input.informationRequestId, status: result.status };
    },
  }),
  tool({
    name: "status_changes",
    title: "Status changes since last time",
    titleAr: "تغييرات الحالة",
    description:
      "Status changes of authorization requests and claims in order (the notification agent's feed): eventId, submissionId, kind, from, to, source. Pass the answered cursor to read the next page; without a cursor it starts after this token's acknowledged position (POST /query notification.acknowledge moves it).",
    descriptionAr: "تغييرات حالة الطلبات والمطالبات بالترتيب.",
    roles: ["notification"],
    input: s.statusChangesInput,
    output: s.statusChangesOutput,
    readOnly: true,
    async run(ctx, input) {
      const result = await listNotifications(ctx.db, ctx.token.id, { ...input, mine: false });
      ctx.audit.details.events = result.events.length;
      return result;
    },
  }),
];

/** The tools an agent role may list and call. */
export function toolsFor(role: AgentRole): ToolDef[] {
  return TOOLS.filter((t) => t.roles.includes(role));
}
