import { describe, expect, it } from "vitest";
import { buildCommunication } from "../../builders/communication";
import { checkStructure } from "../../read/structure";
import { checkMessage, type CheckContext } from "..";
import { exampleClaimMessage as baseClaimMessage, exampleCommunicationMessage as baseCommunicationMessage } from "../testing/example-messages";
import { withMinimumDataSet } from "../testing/mds-fixtures";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;
const ctx: CheckContext = {};
const entryOf = (bundle: Json, type: string): Json => bundle.entry.find((e: Json) => e.resource.resourceType === type).resource;
const indexOf = (bundle: Json, type: string): number => bundle.entry.findIndex((e: Json) => e.resource.resourceType === type);
const refused = (message: Json) => checkMessage(message, ctx).errors.map(({ code, expression }) => ({ code, expression }));

describe("a change of a prior authorization (guide v2.7 Table 37; decision 114)", () => {
  const change = () => {
    const m: Json = withMinimumDataSet(baseClaimMessage("professional", "preauthorization"));
    const claim = entryOf(m, "Claim");
    claim.related = [{ claim: { identifier: { system: "http://provider.example.com/fhir/claim", value: "PA-FIRST" } }, relationship: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/ex-relatedclaimrelationship", code: "prior" }] } }];
    claim.insurance[0].preAuthRef = ["PA-REF-1"];
    return { m, claim, at: `Bundle.entry[${indexOf(m, "Claim")}].resource` };
  };

  it("names the earlier request by its business identifier, relationship prior, and keeps the reference: passes", () => {
    expect(refused(change().m)).toEqual([]);
  });

  it("BV-90140: the earlier request named without its identifier, or not as prior", () => {
    const { m, claim, at } = change();
    claim.related[0].claim = { reference: "Claim/first" };
    claim.related[0].relationship.coding[0].code = "associated";
    const found = refused(m);
    expect(found).toContainEqual({ code: "BV-90140", expression: `${at}.related[0].claim` });
    expect(found).toContainEqual({ code: "BV-90140", expression: `${at}.related[0].relationship` });
  });

  it("BV-90141: a change without the earlier reference", () => {
    const { m, claim, at } = change();
    delete claim.insurance[0].preAuthRef;
    expect(refused(m)).toContainEqual({ code: "BV-90141", expression: `${at}.insurance[0].preAuthRef` });
  });
});

describe("a Communication the clinic sends (guide v2.7 7.4.2.3; decision 115)", () => {
  it("BV-90142: about no claim by identifier, or with no payload", () => {
    const m: Json = withMinimumDataSet(baseCommunicationMessage());
    const communication = entryOf(m, "Communication");
    const at = `Bundle.entry[${indexOf(m, "Communication")}].resource`;
    expect(refused(m)).toEqual([]);
    communication.about = [{ reference: "Claim/c-1" }];
    expect(refused(m)).toContainEqual({ code: "BV-90142", expression: `${at}.about` });
    communication.about = [{ type: "Claim", identifier: { value: "C-1" } }];
    delete communication.payload;
    expect(refused(m).map((f) => f.code)).toContain("BV-90142");
  });

  it("the builder: unsolicited information has no basedOn, names the claim by identifier, and is valid R4", () => {
    const sent = new Date("2026-11-20T09:00:00Z");
    const unsolicited = buildCommunication({ id: "5f0c7a1e-2b3d-4c5e-8f90-a1b2c3d4e5f6", about: { identifier: { system: "https://clinic.example/fhir/claim-id/c1", value: "C-1" } }, providerOrgId: "clinic-001", text: "Report attached", attachments: [{ contentType: "application/pdf", data: new Uint8Array([37, 80, 68, 70]), title: "r.pdf", creation: sent }], sent });
    expect(unsolicited.basedOn).toBeUndefined();
    expect(unsolicited.about).toEqual([{ type: "Claim", identifier: { system: "https://clinic.example/fhir/claim-id/c1", value: "C-1" } }]);
    expect(unsolicited.payload).toHaveLength(2);
    expect(() => checkStructure(unsolicited as never)).not.toThrow();
    // The answer to a request keeps its basedOn.
    expect(buildCommunication({ id: "x", requestId: "cr-1", about: { platformId: "c" }, providerOrgId: "clinic-001", text: "ok", sent }).basedOn).toEqual([{ reference: "CommunicationRequest/cr-1" }]);
    expect(() => buildCommunication({ id: "x", about: { platformId: "c" }, providerOrgId: "clinic-001", text: " ", sent })).toThrow(/text or at least one attachment/);
  });
});
