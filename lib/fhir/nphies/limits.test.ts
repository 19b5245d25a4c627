import { describe, expect, it } from "vitest";
import { bodyLimitProblem, CLAIM_LIMITS } from "./limits";

const line = (i: number) => ({ sequence: i + 1, productOrService: { coding: [{ code: "99213" }] } });
const claim = (over: Record<string, unknown> = {}) => ({ resourceType: "Claim", item: Array.from({ length: 3 }, (_, i) => line(i)), ...over });

function nested(depth: number): unknown {
  let value: unknown = {};
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
}

describe("claim and body size limits (docs/decisions/093)", () => {
  it("accepts a claim at every limit exactly", () => {
    const body = claim({
      item: Array.from({ length: CLAIM_LIMITS.lines }, (_, i) => line(i)),
      diagnosis: Array.from({ length: CLAIM_LIMITS.diagnoses }, (_, i) => ({ sequence: i + 1 })),
      supportingInfo: Array.from({ length: CLAIM_LIMITS.supportingInfo }, (_, i) => (i < CLAIM_LIMITS.attachments ? { valueAttachment: {} } : { valueString: "x" })),
    });
    expect(bodyLimitProblem(body)).toBeUndefined();
    expect(bodyLimitProblem(nested(CLAIM_LIMITS.jsonDepth))).toBeUndefined();
  });

  it("names the limit one over it, wherever the claim sits", () => {
    const lines = Array.from({ length: CLAIM_LIMITS.lines + 1 }, (_, i) => line(i));
    expect(bodyLimitProblem(claim({ item: lines }))).toMatchObject({ limit: "lines", max: CLAIM_LIMITS.lines, actual: CLAIM_LIMITS.lines + 1, path: "item" });
    expect(bodyLimitProblem({ resourceType: "Bundle", entry: [{ resource: {} }, { resource: claim({ item: lines }) }] })).toMatchObject({ limit: "lines", path: "entry[1].resource.item" });
    // The gateway's /query task: data.claim, even without a resourceType.
    expect(bodyLimitProblem({ agent: "a", task: "t", data: { claim: { item: lines } } })).toMatchObject({ limit: "lines", path: "data.claim.item" });
    expect(bodyLimitProblem(claim({ item: lines }))!.message).toContain(`at most ${CLAIM_LIMITS.lines} lines`);
    expect(bodyLimitProblem(claim({ diagnosis: Array.from({ length: CLAIM_LIMITS.diagnoses + 1 }, () => ({})) }))).toMatchObject({ limit: "diagnoses" });
    expect(bodyLimitProblem(claim({ supportingInfo: Array.from({ length: CLAIM_LIMITS.supportingInfo + 1 }, () => ({})) }))).toMatchObject({ limit: "supportingInfo" });
    expect(bodyLimitProblem(claim({ supportingInfo: Array.from({ length: CLAIM_LIMITS.attachments + 1 }, () => ({ valueAttachment: {} })) }))).toMatchObject({ limit: "attachments" });
  });

  it("refuses nesting one level too deep, and a hostile depth without overflowing the stack", () => {
    expect(bodyLimitProblem(nested(CLAIM_LIMITS.jsonDepth + 1))).toMatchObject({ limit: "jsonDepth", max: CLAIM_LIMITS.jsonDepth });
    const deep = JSON.parse("[".repeat(100_000) + "]".repeat(100_000)) as unknown;
    expect(bodyLimitProblem(deep)).toMatchObject({ limit: "jsonDepth" });
  });

  it("a 20,000-line claim is refused in a few milliseconds (one linear pass)", () => {
    const body = claim({ item: Array.from({ length: 20_000 }, (_, i) => line(i)) });
    const started = performance.now();
    expect(bodyLimitProblem(body)).toMatchObject({ limit: "lines", actual: 20_000 });
    // Generous: the check reads the array's length before walking it.
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe("the staff form's caps", () => {
  it("never allow more than the machine APIs", async () => {
    const { FORM_CLAIM_LIMITS } = await import("./limits");
    expect(FORM_CLAIM_LIMITS.lines).toBeLessThanOrEqual(CLAIM_LIMITS.lines);
    expect(FORM_CLAIM_LIMITS.codes).toBeLessThanOrEqual(CLAIM_LIMITS.diagnoses);
  });
});
