import { describe, expect, it } from "vitest";
import { ClaimSchema } from "../schemas";
import { buildClaim } from "./claim";

const created = new Date("2026-11-21T09:30:00.000Z");

describe("buildClaim", () => {
  it("builds the exact spec structure for a prior authorization with an attachment", () => {
    const pdf = Buffer.from("%PDF-1.4\n%%EOF\n");
    const claim = buildClaim({
      use: "preauthorization",
      nationalId: "1000000001",
      coverageRef: "cov-1000000001",
      providerOrgId: "clinic-001",
      created,
      diagnoses: ["M54.5", "R51"],
      procedures: ["72148"],
      items: [
        { code: "72148", servicedDate: "2026-11-25", quantity: 1, unitPriceMinor: 200_000 },
        { code: "85025", servicedDate: "2026-11-25", quantity: 3, unitPriceMinor: 1_010 },
      ],
      attachments: [{ contentType: "application/pdf", data: pdf, title: "MRI request.pdf", creation: new Date("2026-11-21T09:00:00Z") }],
    });
    expect(claim).toEqual({
      resourceType: "Claim",
      identifier: [],
      status: "active",
      type: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/claim-type", code: "institutional" }] },
      use: "preauthorization",
      patient: { reference: "Patient/1000000001" },
      created: "2026-11-21T09:30:00.000Z",
      provider: { reference: "Organization/clinic-001" },
      priority: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/processpriority", code: "normal" }] },
      insurance: [{ sequence: 1, focal: true, coverage: { reference: "Coverage/cov-1000000001" } }],
      diagnosis: [
        { sequence: 1, diagnosisCodeableConcept: { coding: [{ system: "http://hl7.org/fhir/sid/icd-10-am", code: "M54.5" }] } },
        { sequence: 2, diagnosisCodeableConcept: { coding: [{ system: "http://hl7.org/fhir/sid/icd-10-am", code: "R51" }] } },
      ],
      procedure: [{ sequence: 1, procedureCodeableConcept: { coding: [{ system: "http://www.ama-assn.org/go/cpt", code: "72148" }] } }],
      item: [
        {
          sequence: 1,
          productOrService: { coding: [{ system: "http://www.ama-assn.org/go/cpt", code: "72148" }] },
          servicedDate: "2026-11-25",
          quantity: { value: 1 },
          unitPrice: { value: 2000, currency: "SAR" },
        },
        {
          sequence: 2,
          productOrService: { coding: [{ system: "http://www.ama-assn.org/go/cpt", code: "85025" }] },
          servicedDate: "2026-11-25",
          quantity: { value: 3 },
          unitPrice: { value: 10.1, currency: "SAR" },
        },
      ],
      supportingInfo: [
        {
          sequence: 1,
          category: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/claiminformationcategory", code: "attachment" }] },
          valueAttachment: {
            contentType: "application/pdf",
            data: pdf.toString("base64"),
            title: "MRI request.pdf",
            creation: "2026-11-21T09:00:00.000Z",
          },
        },
      ],
    });
    // The platform's own schema accepts it.
    expect(ClaimSchema.safeParse(claim).success).toBe(true);
  });

  it("puts preAuthRef on the insurance of a claim, sets identifier when given, leaves out empty lists", () => {
    const claim = buildClaim({
      use: "claim",
      identifier: { system: "https://clinic.example/fhir/claim-id/clinic-001", value: "abc" },
      nationalId: "1000000001",
      coverageRef: "cov-1000000001",
      providerOrgId: "clinic-001",
      created,
      diagnoses: ["M54.5"],
      procedures: [],
      items: [{ code: "72148", servicedDate: "2026-11-25", quantity: 1, unitPriceMinor: 200_000 }],
      preAuthRefs: ["PA-0000000001", "PA-0000000001"],
    });
    expect(claim.identifier).toEqual([{ system: "https://clinic.example/fhir/claim-id/clinic-001", value: "abc" }]);
    expect(claim.insurance).toEqual([{ sequence: 1, focal: true, coverage: { reference: "Coverage/cov-1000000001" }, preAuthRef: ["PA-0000000001"] }]);
    expect(claim).not.toHaveProperty("procedure");
    expect(claim).not.toHaveProperty("supportingInfo");
  });

  it("money is exact: halalas become the wire number once, never summed as floats", () => {
    const items = [
      { code: "85025", servicedDate: "2026-11-25", quantity: 1, unitPriceMinor: 10 }, // 0.10
      { code: "85025", servicedDate: "2026-11-25", quantity: 1, unitPriceMinor: 20 }, // 0.20
      { code: "85025", servicedDate: "2026-11-25", quantity: 7, unitPriceMinor: 1_999_999_99 },
    ];
    const claim = buildClaim({ use: "claim", nationalId: "1", coverageRef: "c", providerOrgId: "p", created, diagnoses: ["R51"], procedures: [], items });
    expect(claim.item!.map((i) => i.unitPrice!.value)).toEqual([0.1, 0.2, 1999999.99]);
    expect(() =>
      buildClaim({ use: "claim", nationalId: "1", coverageRef: "c", providerOrgId: "p", created, diagnoses: [], procedures: [], items: [{ ...items[0]!, unitPriceMinor: 1.5 }] }),
    ).toThrow();
    expect(() =>
      buildClaim({ use: "claim", nationalId: "1", coverageRef: "c", providerOrgId: "p", created, diagnoses: [], procedures: [], items: [{ ...items[0]!, quantity: 0 }] }),
    ).toThrow();
  });
});

describe("buildClaim — resubmission linked to the prior claim", () => {
  it("carries related[prior] with the prior's platform id and business identifier; valid R4; the schema keeps it", async () => {
    const { r4Problems } = await import("../messages/r4-schema.test-support");
    const claim = buildClaim({
      use: "claim",
      nationalId: "1000000001",
      coverageRef: "cov-1000000001",
      providerOrgId: "clinic-001",
      created,
      diagnoses: ["J06.9"],
      procedures: [],
      items: [{ code: "99213", servicedDate: "2026-11-21", quantity: 1, unitPriceMinor: 25_000 }],
      prior: { platformId: "a1b2", identifier: { system: "https://clinic.example/fhir/claim-id/clinic-001", value: "C-1" } },
    });
    expect(claim.related).toEqual([
      {
        claim: { reference: "Claim/a1b2", identifier: { system: "https://clinic.example/fhir/claim-id/clinic-001", value: "C-1" } },
        relationship: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/ex-relatedclaimrelationship", code: "prior" }] },
      },
    ]);
    expect(r4Problems({ ...claim, identifier: [{ system: "https://clinic.example/fhir/claim-id/clinic-001", value: "C-2" }] })).toEqual([]);
    expect(ClaimSchema.parse(claim).related).toEqual(claim.related);
    const identifierOnly = buildClaim({ use: "claim", nationalId: "1000000001", coverageRef: "cov-1000000001", providerOrgId: "clinic-001", created, diagnoses: ["J06.9"], procedures: [], items: [{ code: "99213", servicedDate: "2026-11-21", quantity: 1, unitPriceMinor: 25_000 }], prior: { identifier: { value: "C-1" } } });
    expect(identifierOnly.related?.[0]?.claim).toEqual({ identifier: { value: "C-1" } });
    expect(buildClaim({ use: "claim", nationalId: "1000000001", coverageRef: "cov-1000000001", providerOrgId: "clinic-001", created, diagnoses: ["J06.9"], procedures: [], items: [{ code: "99213", servicedDate: "2026-11-21", quantity: 1, unitPriceMinor: 25_000 }] }).related).toBeUndefined();
  });
});
