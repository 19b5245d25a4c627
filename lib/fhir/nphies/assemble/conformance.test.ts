import { describe, expect, it } from "vitest";
import { r4Problems } from "../../messages/r4-schema.test-support";
import { checkMessage } from "../rules/check";
import { CLAIM_TYPES } from "../profiles";
import { DEMO_PARTIES, demoClaim, demoMessages } from "./demo";
import { assembleClaim } from "./claim";
import { CODE_SYSTEMS } from "../../systems";
import { SYSTEMS } from "../terminology";

/**
 * Conformance (docs/decisions/074): every request message the portal assembles — each event, and
 * claims and prior authorizations in each care setting — passes the rule module's checker with no
 * finding (references resolve in the Bundle, every resource profiled, each profile's required
 * elements present, codes from the right systems) and is valid against the R4 JSON schema.
 */
const messages = demoMessages();

describe("the portal's assembled messages", () => {
  it("cover every request event and every care setting", () => {
    expect(new Set(messages.map((m) => m.event))).toEqual(
      new Set(["priorauth-request", "claim-request", "eligibility-request", "status-check", "cancel-request", "poll-request", "communication", "payment-notice"]),
    );
    for (const event of ["priorauth-request", "claim-request"]) {
      expect(messages.filter((m) => m.event === event).map((m) => m.claimType).sort()).toEqual([...CLAIM_TYPES].sort());
    }
  });

  it.each(messages.map((m) => [m.name, m] as const))("%s passes every rule of the exchange", (_name, m) => {
    expect(checkMessage(m.built.bundle, { today: new Date("2026-11-25T12:00:00Z") }).findings).toEqual([]);
  });

  it.each(messages.map((m) => [m.name, m] as const))("%s is valid R4", (_name, m) => {
    expect(r4Problems(m.built.bundle)).toEqual([]);
  });

  it.each(messages.map((m) => [m.name, m] as const))("%s: every entry after the MessageHeader profiled, on the configured base", (_name, m) => {
    for (const entry of (m.built.bundle.entry ?? []).slice(1)) {
      expect(entry.fullUrl).toMatch(/^https:\/\/clinic\.example\/fhir\/[A-Z][A-Za-z]+\/[A-Za-z0-9\-.]+$/);
      expect(entry.resource?.meta?.profile?.[0]).toMatch(/^http:\/\/nphies\.sa\/fhir\/ksa\/nphies-fs\/StructureDefinition\/[\w-]+\|1\.0\.0$/);
    }
  });

  it("a rule the portal's data breaks is named: a claim line coded in CPT", () => {
    const claim = messages.find((m) => m.name === "claim-request-professional")!;
    const bundle = structuredClone(claim.built.bundle);
    const focus = bundle.entry![1]!.resource as { item: { productOrService: { coding: { system: string }[] } }[] };
    focus.item[0]!.productOrService.coding[0]!.system = "http://www.ama-assn.org/go/cpt";
    expect(checkMessage(bundle).findings.map((f) => f.code)).toEqual(["IC-90005"]);
  });

  it("an attachment in the spec's HL7 category goes in the exchange's category system", () => {
    const claim = demoClaim("professional", "claim");
    const attachment = { sequence: 9, category: { coding: [{ system: CODE_SYSTEMS.supportingInfoCategory, code: "attachment" }] }, valueAttachment: { contentType: "application/pdf", title: "Report" } };
    const assembled = assembleClaim({ ...claim, supportingInfo: [...(claim.supportingInfo ?? []), attachment] }, DEMO_PARTIES);
    expect(assembled.supportingInfo?.at(-1)?.category).toEqual({ coding: [{ system: SYSTEMS.claimInformationCategory, code: "attachment" }] });
    // What already names the exchange's category is kept as it is.
    expect(assembled.supportingInfo?.slice(0, -1)).toEqual(claim.supportingInfo);
  });
});
