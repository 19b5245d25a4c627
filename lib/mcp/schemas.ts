import { z } from "zod";
import { ELIGIBILITY_PURPOSES, isBenefitCategoryCode } from "@/lib/fhir";
import { isUuid } from "@/lib/ids";
import { VISIT_VERDICTS } from "@/lib/db";

/*
 * The MCP tools' input and output schemas: one zod schema per tool and direction. The server
 * parses every call's arguments with the input schema (its issues become a tool error in words),
 * lists both as JSON Schema (z.toJSONSchema), and the reference (docs/mcp-tools.md) is generated
 * from the same objects (scripts/mcp-reference.ts).
 */

const uuid = (what: string) => z.string().refine(isUuid, `expected ${what} (a UUID)`);
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "expected a date as YYYY-MM-DD")
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v && v >= "2000-01-01" && v <= "2100-12-31";
  }, "not a calendar date between 2000-01-01 and 2100-12-31");

const money = z.object({ value: z.number(), currency: z.string() });
const idempotencyKey = z
  .string()
  .trim()
  .min(8, "at least 8 characters: a key you keep for this one request (a UUID is best)")
  .max(200)
  .describe("Your key for this one request (a UUID is best). Calling again with the same key returns the first submission (replay: true) instead of creating a second one.");

// ── inputs ───────────────────────────────────────────────────────────────────────────────────

export const findPatientInput = z.strictObject({
  nationalId: z.string().trim().min(1, "required: the national ID or Iqama number").max(20).describe("The patient's national ID (starts with 1) or Iqama number (starts with 2), 10 digits."),
});

export const patientInput = z.strictObject({ patientId: uuid("the portal's patient id from find_patient").describe("The portal's patient id (find_patient answers it).") });

export const checkEligibilityInput = z.strictObject({
  patientId: uuid("the portal's patient id from find_patient").describe("The portal's patient id (find_patient)."),
  coverageId: uuid("a coverage id from find_patient").describe("One of the patient's coverages (find_patient lists them)."),
  servicedDate: day.optional().describe("The day of the visit (YYYY-MM-DD); default today in the clinic's time zone."),
  purposes: z
    .array(z.enum(ELIGIBILITY_PURPOSES))
    .min(1, "at least one purpose")
    .max(2)
    .default(["benefits", "validation"])
    .describe("What to ask the payer: benefits (what is covered), validation (is the coverage in force)."),
  categories: z
    .array(z.string().refine(isBenefitCategoryCode, "not a benefit category code of the exchange (e.g. 1 medical care, 4 diagnostic lab, 5 diagnostic x-ray)"))
    .max(40)
    .default([])
    .describe("Benefit categories to ask about; empty = every category of the plan."),
});

export const estimateShareInput = z.strictObject({
  checkId: uuid("an eligibility check id from check_eligibility or last_eligibility").describe("The eligibility answer to estimate from (check_eligibility or last_eligibility)."),
  services: z
    .array(
      z.strictObject({
        code: z.string().trim().min(1).max(40).describe("The service code (CPT unless system says otherwise)."),
        system: z.string().trim().max(200).optional().describe("The code's list: canonical URL or price-list key; default CPT."),
        quantity: z.number().int("a whole number").min(1).max(999).default(1),
      }),
    )
    .min(1, "at least one service")
    .max(50),
});

const claimShape = z
  .record(z.string(), z.unknown())
  .describe(
    "A FHIR R4 Claim as the agent gateway takes it (README, Agent gateway): resourceType Claim, type, patient Patient/<national ID>, insurance[0].coverage Coverage/<platform coverage id> (find_patient: platformCoverageId), diagnosis, item with productOrService, servicedDate, quantity, unitPrice. use and provider are filled in; leave identifier out (idempotencyKey is it).",
  );

export const requestAuthorizationInput = z.strictObject({ idempotencyKey, claim: claimShape });
export const submitClaimInput = z.strictObject({
  idempotencyKey,
  claim: claimShape.describe(
    "A FHIR R4 Claim (use claim) as the agent gateway takes it: as for request_authorization, plus insurance[0].preAuthRef [<preAuthRef>] when an authorization covers it (submission_status answers decision.preAuthRef). The claim scrubber checks it before anything is queued.",
  ),
});

export const submissionInput = z
  .strictObject({
    submissionId: uuid("a submission id").optional().describe("The portal's submission id (request_authorization / submit_claim answer it)."),
    identifier: z.string().trim().min(1).max(200).optional().describe("Or: the portal's business identifier, or your idempotencyKey."),
  })
  .refine((d) => (d.submissionId === undefined) !== (d.identifier === undefined), { message: "give either submissionId or identifier (exactly one)", path: ["submissionId"] });

export const waitInput = z.strictObject({
  submissionId: uuid("a submission id").describe("The submission to wait for."),
  timeoutSeconds: z.number().int().min(1).max(120).default(60).describe("Give up after this many seconds (the answer then says decided: false)."),
});

export const visitsAheadInput = z.strictObject({
  date: day.optional().describe("Only visits on this service date."),
  verdict: z.enum(["problems", "unchecked", ...VISIT_VERDICTS]).optional().describe("Only this verdict; problems = every verdict but in force."),
  limit: z.number().int().min(1).max(200).default(50),
});

export const denialsQueueInput = z.strictObject({
  limit: z.number().int().min(1).max(100).default(10).describe("How many of the top items (ranked by money at stake per day left)."),
});

export const answerRequestInput = z.strictObject({
  submissionId: uuid("a submission id").describe("The claim or authorization request the payer asks about."),
  informationRequestId: uuid("an information request id from submission_status").describe("The payer's request (submission_status lists informationRequests)."),
  text: z.string().trim().min(1, "required: the answer's text").max(4000).describe("The answer to the payer, in words."),
});

export const statusChangesInput = z.strictObject({
  cursor: z.number().int().min(0).optional().describe("Events after this event id; default after this token's acknowledged position."),
  limit: z.number().int().min(1).max(200).default(50),
  kind: z.enum(["claim", "authorization"]).optional(),
});

// ── outputs ──────────────────────────────────────────────────────────────────────────────────

const patientBasics = z.object({ patientId: z.string(), name: z.string(), gender: z.string(), birthYear: z.number() });
const coverage = z.object({ coverageId: z.string(), platformCoverageId: z.string().nullable(), insurerId: z.string(), insurerName: z.object({ en: z.string(), ar: z.string() }) });

export const findPatientOutput = z.object({ found: z.boolean(), patient: patientBasics.nullable(), coverages: z.array(coverage) });
export const coveragesOutput = z.object({ patientId: z.string(), coverages: z.array(coverage) });

export const eligibilityOutput = z.object({
  checkId: z.string(),
  outcome: z.string(),
  inforce: z.boolean().nullable(),
  insurerId: z.string(),
  servicedDate: z.string(),
  checkedAt: z.string(),
  error: z.object({ code: z.string().nullable(), httpStatus: z.number().nullable() }).nullable(),
  benefits: z.record(z.string(), z.unknown()).nullable(),
});
export const lastEligibilityOutput = z.object({ found: z.boolean(), check: eligibilityOutput.nullable() });

const shareLine = z.looseObject({ code: z.string(), system: z.string(), quantity: z.number() });
export const estimateShareOutput = z.looseObject({
  checkId: z.string(),
  servicedDate: z.string(),
  insurerId: z.string(),
  vatPercent: z.number(),
  lines: z.array(shareLine),
  totals: z.record(z.string(), z.unknown()),
  unpriced: z.array(z.string()),
});

export const submittedOutput = z.object({
  submissionId: z.string(),
  kind: z.string(),
  status: z.string(),
  identifier: z.object({ system: z.string(), value: z.string() }).nullable(),
  replay: z.boolean(),
});

export const statusOutput = z.looseObject({
  submissionId: z.string(),
  kind: z.string(),
  status: z.string(),
  decision: z.looseObject({ outcome: z.string().nullable(), disposition: z.string().nullable(), preAuthRef: z.string().optional() }).nullable(),
  errors: z.array(z.record(z.string(), z.unknown())),
  timeline: z.array(z.record(z.string(), z.unknown())),
  informationRequests: z.array(z.record(z.string(), z.unknown())),
});

export const waitOutput = z.object({
  submissionId: z.string(),
  status: z.string(),
  decided: z.boolean(),
  informationRequested: z.boolean(),
  changes: z.array(z.object({ at: z.string(), status: z.string().nullable(), kind: z.string() })),
});

export const visitsAheadOutput = z.object({
  visits: z.array(
    z.object({
      visitId: z.string(),
      serviceDate: z.string(),
      patientId: z.string().nullable(),
      patientName: z.string().nullable(),
      insurerId: z.string().nullable(),
      services: z.array(z.string()),
      checkState: z.string(),
      verdict: z.string().nullable(),
      checkId: z.string().nullable(),
    }),
  ),
});

export const denialsQueueOutput = z.object({
  items: z.array(
    z.object({
      submissionId: z.string(),
      status: z.string(),
      action: z.string(),
      insurerId: z.string().nullable(),
      atStake: money,
      reason: z.string().nullable(),
      deadline: z.object({ kind: z.string(), due: z.string(), daysLeft: z.number(), level: z.string() }).nullable(),
      errors: z.array(z.object({ code: z.string().nullable(), resolution: z.string().nullable(), field: z.string().nullable() })),
    }),
  ),
  totalAtStake: money,
});

export const answerRequestOutput = z.object({ informationRequestId: z.string(), status: z.string() });

export const statusChangesOutput = z.object({
  events: z.array(z.record(z.string(), z.unknown())),
  cursor: z.number(),
  hasMore: z.boolean(),
  acknowledgedUpTo: z.number(),
});
