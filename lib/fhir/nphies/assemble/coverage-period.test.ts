import type { Bundle, Coverage } from "@medplum/fhirtypes";
import { describe, expect, it } from "vitest";
import { r4Problems } from "../../messages/r4-schema.test-support";
import { checkMessage } from "../rules/check";
import { DEMO_BASE, DEMO_PARTIES, demoClaim } from "./demo";
import type { CoverageFacts } from "./facts";
import { assembleMessage } from "./message";
import { coverageResource } from "./resources";

/**
 * The card's expiry in the message (decision 126): the guide's Coverage profile carries
 * Coverage.period (restored in its 3.9 release notes, a Period since 4.8); the portal sends the
 * card's last day as its end, and the rule module the sandbox applies accepts it.
 */
const AT = new Date("2026-11-25T09:00:00.000Z");

function claimMessage(coverage: CoverageFacts): Bundle {
  const claim = demoClaim("professional", "claim");
  return assembleMessage({
    providerLicense: "PR-CLINIC-001",
    sourceEndpoint: DEMO_BASE,
    timestamp: AT,
    bundleId: "00000000-0000-4000-8000-000000000001",
    headerId: "00000000-0000-4000-8000-000000000002",
    event: "claim-request",
    focus: { ...claim, id: "00000000-0000-4000-8000-000000000003" },
    parties: { ...DEMO_PARTIES, coverage },
    destination: { payerLicense: "INS-RIMAL-001" },
  }).bundle;
}

const coverageOf = (bundle: Bundle) => bundle.entry!.find((e) => e.resource?.resourceType === "Coverage")!.resource as Coverage;

describe("the coverage's expiry as Coverage.period.end (decision 126)", () => {
  it("sends the card's last day as the period's end; none when not known", () => {
    expect(coverageResource({ ...DEMO_PARTIES.coverage, periodEnd: "2026-12-31" }, DEMO_BASE, "1000000001", "payer-rimal").period).toEqual({ end: "2026-12-31" });
    expect(coverageResource(DEMO_PARTIES.coverage, DEMO_BASE, "1000000001", "payer-rimal")).not.toHaveProperty("period");
  });

  it("the message with the period is valid R4 and passes every rule of the exchange's profiles", () => {
    const bundle = claimMessage({ ...DEMO_PARTIES.coverage, periodEnd: "2026-12-31" });
    expect(coverageOf(bundle).period).toEqual({ end: "2026-12-31" });
    expect(r4Problems(bundle)).toEqual([]);
    const without = checkMessage(claimMessage(DEMO_PARTIES.coverage), { today: AT }).findings.map((f) => `${f.code} ${f.expression}`);
    expect(checkMessage(bundle, { today: AT }).findings.map((f) => `${f.code} ${f.expression}`)).toEqual(without);
    expect(checkMessage(bundle, { today: AT }).errors).toEqual([]);
  });
});
