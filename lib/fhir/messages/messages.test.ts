import type { Bundle, Claim, Coverage, MessageHeader, Organization, Patient } from "@medplum/fhirtypes";
import { describe, expect, it } from "vitest";
import { buildCancelTask, buildClaim, buildCommunication, buildEligibilityRequest, buildPaymentNotice, NATIONAL_EXCHANGE, readCommunicationRequest, readMessage, answersRequest } from "@/lib/fhir";
import { buildBatchMessage, buildMessage, buildPollTask, checkMessageRules, claimInBatch, MessageBuildError, MessageTooLargeError, MESSAGE_LIMIT_BYTES } from "./index";
import { r4Problems } from "./r4-schema.test-support";

const at = new Date("2026-11-23T09:00:00.000Z");
const source = "https://clinic.example/fhir";

function claim(attachmentBytes = 15): Claim {
  // The builder leaves `identifier` empty until the claim is queued; a message carries it.
  const built = buildClaim({
    use: "preauthorization",
    nationalId: "1000000001",
    coverageRef: "cov-1000000001",
    providerOrgId: "clinic-001",
    created: at,
    diagnoses: ["M54.5"],
    procedures: ["72148"],
    items: [{ code: "72148", servicedDate: "2026-11-25", quantity: 1, unitPriceMinor: 200_000 }],
    attachments: [{ contentType: "application/pdf", data: Buffer.alloc(attachmentBytes, 7), title: "MRI request.pdf", creation: at }],
  });
  return { ...built, identifier: [{ system: "https://clinic.example/fhir/claim-id/clinic-001", value: "C-1" }] };
}
const patient: Patient = { resourceType: "Patient", id: "1000000001", identifier: [{ system: "https://platform.example/fhir/identifier/national-id", value: "1000000001" }] };
const coverage: Coverage = { resourceType: "Coverage", id: "cov-1000000001", status: "active", beneficiary: { reference: "Patient/1000000001" }, payor: [{ reference: "Organization/payer-rimal" }] };
const provider: Organization = { resourceType: "Organization", id: "clinic-001", identifier: [{ system: NATIONAL_EXCHANGE.providerLicense, value: "PR-FHIR-001" }], name: "Demo Clinic" };

describe("batch-requests", () => {
  const claimMessage = (n: number, payerLicense = "INS-RIMAL") => {
    const c = claimInBatch({ ...claim(), use: "claim", id: `claim-${n}`, identifier: [{ system: "https://clinic.example/fhir/claim-id/clinic-001", value: `C-${n}` }] }, {
      id: "batch-1",
      system: `${source}/batch`,
      number: n,
      period: { start: "2026-11-01", end: "2026-11-23" },
    });
    return buildMessage({ event: "claim-request", focus: c, resources: [patient, coverage, provider], providerLicense: "PR-FHIR-001", destination: { payerLicense }, sourceEndpoint: source, timestamp: at });
  };
  const batch = (messages: ReturnType<typeof claimMessage>[], payerLicense = "INS-RIMAL") =>
    buildBatchMessage({ messages, providerLicense: "PR-FHIR-001", payerLicense, sourceEndpoint: source, timestamp: at });

  it("carries whole claim-request messages, focuses each, marks each claim with the batch; valid R4", () => {
    const inner = [1, 2, 3].map((n) => claimMessage(n));
    const built = batch(inner);
    const header = built.bundle.entry![0]!.resource as MessageHeader;
    expect(header.eventCoding?.code).toBe("batch-request");
    expect(header.destination?.[0]?.receiver?.identifier?.value).toBe("INS-RIMAL");
    expect(header.focus).toEqual(inner.map((m) => ({ reference: `urn:uuid:${m.bundleId}` })));
    expect(built.bundle.entry!.slice(1).map((e) => (e.resource as Bundle).id)).toEqual(inner.map((m) => m.bundleId));
    const second = (built.bundle.entry![2]!.resource as Bundle).entry![1]!.resource as Claim;
    expect(second.extension?.find((e) => e.url === NATIONAL_EXCHANGE.batchNumberExtension)?.valuePositiveInt).toBe(2);
    expect(second.extension?.find((e) => e.url === NATIONAL_EXCHANGE.batchIdentifierExtension)?.valueIdentifier?.value).toBe("batch-1");
    expect(r4Problems(built.bundle)).toEqual([]);
    // The reader sees the inner messages as messages.
    expect(readMessage(built.bundle).view.messages.map((m) => m.header.event)).toEqual(["claim-request", "claim-request", "claim-request"]);
  });

  it("refuses what the exchange would: another payer's claim, over 200 claims, a focus that misses a message", () => {
    expect(() => batch([claimMessage(1), claimMessage(2, "INS-WADI")])).toThrow(/batch's payer/);
    expect(() => batch([])).toThrow(MessageBuildError);
    const one = claimMessage(1);
    expect(() => batch(Array.from({ length: 201 }, () => one))).toThrow(/at most 200/);
    const built = batch([claimMessage(1), claimMessage(2)]);
    const tampered = structuredClone(built.bundle);
    (tampered.entry![0]!.resource as MessageHeader).focus = [{ reference: `urn:uuid:${claimMessage(1).bundleId}` }];
    expect(() => checkMessageRules(tampered)).toThrow(/names each of its messages/);
    const poll = structuredClone(built.bundle);
    ((poll.entry![1]!.resource as Bundle).entry![0]!.resource as MessageHeader).eventCoding!.code = "eligibility-request";
    expect(() => checkMessageRules(poll)).toThrow(/claim-request messages only/);
  });
});

describe("message Bundles the portal sends", () => {
  it("puts the header first, gives every entry a fullUrl and focuses exactly the main resource; valid R4", () => {
    const c = { ...claim(), id: "claim-1" };
    const built = buildMessage({ event: "priorauth-request", focus: c, resources: [patient, coverage, provider], providerLicense: "PR-FHIR-001", destination: { payerLicense: "INS-RIMAL" }, sourceEndpoint: source, timestamp: at });
    const b = built.bundle;
    expect(b.type).toBe("message");
    expect(b.entry![0]!.resource!.resourceType).toBe("MessageHeader");
    expect(b.entry!.every((e) => typeof e.fullUrl === "string" && e.fullUrl.length > 0)).toBe(true);
    const header = b.entry![0]!.resource as MessageHeader;
    expect(header.focus).toEqual([{ reference: `${source}/Claim/claim-1` }]);
    expect(b.entry![1]!.fullUrl).toBe(`${source}/Claim/claim-1`);
    expect(header.eventCoding).toEqual({ system: "http://nphies.sa/terminology/CodeSystem/ksa-message-events", code: "priorauth-request" });
    expect(header.sender?.identifier).toEqual({ system: "http://nphies.sa/license/provider-license", value: "PR-FHIR-001" });
    expect(header.destination?.[0]?.receiver?.identifier).toEqual({ system: "http://nphies.sa/license/payer-license", value: "INS-RIMAL" });
    expect(built.headerId).toBe(header.id);
    expect(built.bundleId).toBe(b.id);
    expect(r4Problems(b)).toEqual([]);
  });

  it("every event the portal sends builds valid R4", () => {
    const eligibility = { ...buildEligibilityRequest({ identifierValue: "0b0c9d51-7f6a-4a56-9d59-2b1b2d5f0c11", nationalId: "1000000001", insurerId: "payer-rimal", providerOrgId: "clinic-001", servicedDate: "2026-11-23", purposes: ["benefits"], categories: [], created: at }), id: "elig-1" };
    const poll = buildPollTask({ id: "poll-1", requesterOrgId: "clinic-001", count: 100, include: ["claim-response", "communication-request"], period: { start: "2026-11-22T00:00:00Z" }, authoredOn: at });
    const cases = [
      buildMessage({ event: "eligibility-request", focus: eligibility, resources: [patient, provider], providerLicense: "PR-FHIR-001", destination: { payerLicense: "INS-RIMAL" }, sourceEndpoint: source, timestamp: at }),
      buildMessage({ event: "claim-request", focus: { ...claim(), use: "claim" }, providerLicense: "PR-FHIR-001", destination: { payerLicense: "INS-RIMAL" }, sourceEndpoint: source, timestamp: at }),
      buildMessage({ event: "poll-request", focus: poll, resources: [provider], providerLicense: "PR-FHIR-001", destination: { exchange: true }, sourceEndpoint: source, timestamp: at }),
    ];
    for (const built of cases) {
      expect(() => checkMessageRules(built.bundle)).not.toThrow();
      expect(r4Problems(built.bundle)).toEqual([]);
    }
    expect((cases[2]!.bundle.entry![0]!.resource as MessageHeader).destination![0]!.receiver!.identifier!.system).toBe("http://nphies.sa/license/nphies");
  });

  it("payment-notice (docs/decisions/047): a PaymentNotice addressed to the exchange, paid and cleared, builds valid R4", () => {
    for (const paymentStatus of ["paid", "cleared"] as const) {
      const notice = buildPaymentNotice({ id: `pn-${paymentStatus}`, paymentId: "pr-1", paymentStatus, amountMinor: 123_456, currency: "SAR", providerOrgId: "clinic-001", paymentDate: "2026-11-23", created: at, identifierSystem: "https://clinic.example/fhir/payment-notice-id/clinic-001" });
      const built = buildMessage({ event: "payment-notice", focus: notice, providerLicense: "PR-FHIR-001", destination: { exchange: true }, sourceEndpoint: source, timestamp: at });
      expect(() => checkMessageRules(built.bundle)).not.toThrow();
      expect(r4Problems(built.bundle)).toEqual([]);
      expect(r4Problems(notice)).toEqual([]);
      expect(notice.amount).toEqual({ value: 1234.56, currency: "SAR" });
      expect(notice.paymentStatus?.coding?.[0]).toEqual({ system: "http://terminology.hl7.org/CodeSystem/paymentstatus", code: paymentStatus });
      expect((built.bundle.entry![0]!.resource as MessageHeader).destination![0]!.receiver!.identifier!.system).toBe("http://nphies.sa/license/nphies");
    }
    const notice = buildPaymentNotice({ id: "pn-x", paymentId: "pr-1", paymentStatus: "paid", amountMinor: 1, currency: "SAR", providerOrgId: "clinic-001", paymentDate: "2026-11-23", created: at, identifierSystem: "https://clinic.example/x" });
    expect(() => buildMessage({ event: "payment-notice", focus: notice, providerLicense: "PR-FHIR-001", destination: { payerLicense: "INS-RIMAL" }, sourceEndpoint: source, timestamp: at })).toThrow(MessageBuildError);
  });

  it("the R4 schema check can fail", () => {
    const built = buildMessage({ event: "claim-request", focus: claim(), providerLicense: "PR-FHIR-001", destination: { payerLicense: "INS-RIMAL" }, sourceEndpoint: source, timestamp: at });
    const broken = structuredClone(built.bundle) as unknown as { type: string };
    broken.type = "not-a-bundle-type";
    expect(r4Problems(broken).length).toBeGreaterThan(0);
    const nested = structuredClone(built.bundle);
    (nested.entry![1]!.resource as Claim).created = "23/11/2026";
    expect(r4Problems(nested).length).toBeGreaterThan(0);
    const extra = structuredClone(built.bundle);
    (extra.entry![0]!.resource as unknown as Record<string, unknown>).surprise = true;
    expect(r4Problems(extra).length).toBeGreaterThan(0);
  });

  it("a resend with the stored ids builds the identical Bundle", () => {
    const c = { ...claim(), id: "claim-1" };
    const input = { event: "claim-request" as const, focus: c, providerLicense: "PR-FHIR-001", destination: { payerLicense: "INS-RIMAL" }, sourceEndpoint: source, timestamp: at };
    const first = buildMessage(input);
    const again = buildMessage({ ...input, bundleId: first.bundleId, headerId: first.headerId });
    expect(JSON.stringify(again.bundle)).toBe(JSON.stringify(first.bundle));
  });

  it("refuses what the exchange would refuse, naming the rule", () => {
    expect(() => buildMessage({ focus: { ...claim(), identifier: [] }, event: "claim-request", providerLicense: "PR-FHIR-001", destination: { payerLicense: "INS-RIMAL" }, sourceEndpoint: source, timestamp: at })).toThrow(/identifier: empty array/);
    const base = { focus: claim(), providerLicense: "PR-FHIR-001", sourceEndpoint: source, timestamp: at };
    expect(() => buildMessage({ ...base, event: "claim-request", destination: { exchange: true } })).toThrow(/goes to a payer/);
    expect(() => buildMessage({ ...base, event: "poll-request", destination: { payerLicense: "INS-RIMAL" } })).toThrow(/goes to the exchange/);
    expect(() => buildMessage({ ...base, event: "claim-request", destination: { payerLicense: "" } })).toThrow(/payer licence/);
    expect(() => buildMessage({ ...base, event: "claim-request", providerLicense: "", destination: { payerLicense: "INS-RIMAL" } })).toThrow(/provider licence/);
    expect(() => buildMessage({ ...base, event: "claim-submit" as never, destination: { payerLicense: "INS-RIMAL" } })).toThrow(MessageBuildError);
    expect(() => buildMessage({ ...base, focus: { ...claim(), status: "bogus" as never }, event: "claim-request", destination: { payerLicense: "INS-RIMAL" } })).toThrow(MessageBuildError);
    expect(() => buildMessage({ ...base, focus: { ...claim(), surprise: 1 } as Claim, event: "claim-request", destination: { payerLicense: "INS-RIMAL" } })).toThrow(/not strict R4/);
    expect(() => buildPollTask({ id: "p", requesterOrgId: "clinic-001", count: 101, authoredOn: at })).toThrow(/1 to 100/);
  });

  it("checks the envelope of a received message (header first, focus = fullUrl, licences)", () => {
    const good = buildMessage({ event: "claim-request", focus: claim(), providerLicense: "PR-FHIR-001", destination: { payerLicense: "INS-RIMAL" }, sourceEndpoint: source, timestamp: at }).bundle;
    const swapped = structuredClone(good);
    swapped.entry!.reverse();
    expect(() => checkMessageRules(swapped)).toThrow(/MessageHeader must come first/);
    const unfocused = structuredClone(good);
    (unfocused.entry![0]!.resource as MessageHeader).focus = [{ reference: "Claim/elsewhere" }];
    expect(() => checkMessageRules(unfocused)).toThrow(/exactly the fullUrl/);
    const noUrl = structuredClone(good);
    delete noUrl.entry![1]!.fullUrl;
    expect(() => checkMessageRules(noUrl)).toThrow(/Bundle\.entry\[1\]\.fullUrl/);
    const noSender = structuredClone(good);
    (noSender.entry![0]!.resource as MessageHeader).sender = { identifier: { system: "urn:other", value: "x" } };
    expect(() => checkMessageRules(noSender)).toThrow(/provider's licence/);
  });

  it("refuses a message over 10 MB before sending, with its size and the attachment to shrink", () => {
    const big = claim(8 * 1024 * 1024); // 8 MB of PDF → ~10.7 MB of base64
    let error: unknown;
    try {
      buildMessage({ event: "priorauth-request", focus: big, providerLicense: "PR-FHIR-001", destination: { payerLicense: "INS-RIMAL" }, sourceEndpoint: source, timestamp: at });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MessageTooLargeError);
    const e = error as MessageTooLargeError;
    expect(e.bytes).toBeGreaterThan(MESSAGE_LIMIT_BYTES);
    expect(e.attachment).toMatchObject({ path: "Claim.supportingInfo[0].valueAttachment", title: "MRI request.pdf", contentType: "application/pdf" });
    expect(e.message).toMatch(/^The message is 10\.\d MB; the national exchange accepts at most 10\.0 MB\. Shrink the attachment "MRI request\.pdf" \(Claim\.supportingInfo\[0\]\.valueAttachment, 10\.\d MB, application\/pdf\)/);
    console.log(`10 MB refusal: ${e.message}`);
  });
});

describe("reading replies", () => {
  const request = buildMessage({ event: "claim-request", focus: { ...claim(), id: "claim-1", identifier: [{ system: "https://clinic.example/fhir/claim-id/clinic-001", value: "C-1" }] }, providerLicense: "PR-FHIR-001", destination: { payerLicense: "INS-RIMAL" }, sourceEndpoint: source, timestamp: at });

  function reply(init: { responseTo?: string; outcome?: string; error?: boolean; tag?: boolean }): Bundle {
    return {
      resourceType: "Bundle",
      id: "reply-1",
      type: "message",
      timestamp: at.toISOString(),
      ...(init.tag ? { meta: { tag: [{ system: NATIONAL_EXCHANGE.metaTagSystem, code: "queued-messages" }] } } : {}),
      entry: [
        {
          fullUrl: "urn:uuid:6a1d3c1e-98a4-4bfc-a0d6-8f0ad3a3c001",
          resource: {
            resourceType: "MessageHeader",
            id: "6a1d3c1e-98a4-4bfc-a0d6-8f0ad3a3c001",
            eventCoding: { system: NATIONAL_EXCHANGE.messageEventSystem, code: "claim-response" },
            source: { endpoint: "http://nphies.sa" },
            ...(init.responseTo ? { response: { identifier: init.responseTo, code: "ok" } } : {}),
            focus: [{ reference: "http://payer.example/ClaimResponse/cr-1" }],
          },
        },
        {
          fullUrl: "http://payer.example/ClaimResponse/cr-1",
          resource: {
            resourceType: "ClaimResponse",
            id: "cr-1",
            status: "active",
            type: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/claim-type", code: "institutional" }] },
            use: "claim",
            patient: { reference: "Patient/1000000001" },
            created: at.toISOString(),
            insurer: { identifier: { system: NATIONAL_EXCHANGE.payerLicense, value: "INS-RIMAL" } },
            request: { identifier: { system: "https://clinic.example/fhir/claim-id/clinic-001", value: "C-1" } },
            outcome: (init.outcome ?? "complete") as "complete",
            ...(init.error ? { error: [{ code: { coding: [{ system: "http://nphies.sa/terminology/CodeSystem/adjudication-error", code: "BV-00027", display: "The patient identifier is not valid" }] } }] } : {}),
          },
        },
      ],
    };
  }

  it("matches by MessageHeader.response.identifier, else by ClaimResponse.request.identifier", () => {
    const byHeader = readMessage(reply({ responseTo: request.headerId })).view;
    expect(byHeader.header.event).toBe("claim-response");
    expect(byHeader.focus[0]?.resourceType).toBe("ClaimResponse");
    expect(answersRequest(byHeader, request.headerId)).toBe(true);
    expect(answersRequest(readMessage(reply({ responseTo: "someone-else" })).view, request.headerId, { value: "C-1" })).toBe(false);
    const byIdentifier = readMessage(reply({})).view;
    expect(answersRequest(byIdentifier, request.headerId)).toBe(false);
    expect(answersRequest(byIdentifier, request.headerId, { system: "https://clinic.example/fhir/claim-id/clinic-001", value: "C-1" })).toBe(true);
  });

  it("reads error[] and the queued-messages tag, also in a poll reply's nested messages", () => {
    const withError = readMessage(reply({ responseTo: request.headerId, error: true })).view;
    expect(withError.errors).toEqual([{ source: "ClaimResponse", code: "BV-00027", system: "http://nphies.sa/terminology/CodeSystem/adjudication-error", words: "The patient identifier is not valid" }]);
    const poll: Bundle = {
      resourceType: "Bundle",
      id: "poll-reply",
      type: "message",
      timestamp: at.toISOString(),
      entry: [
        { fullUrl: "urn:uuid:0f6f1f0c-8d8c-4d0e-9d51-6f3c4e2d0001", resource: { resourceType: "MessageHeader", id: "0f6f1f0c-8d8c-4d0e-9d51-6f3c4e2d0001", eventCoding: { system: NATIONAL_EXCHANGE.messageEventSystem, code: "poll-response" }, source: { endpoint: "http://nphies.sa" }, focus: [{ reference: "http://nphies.sa/Task/t1" }] } },
        { fullUrl: "http://nphies.sa/Task/t1", resource: { resourceType: "Task", id: "t1", status: "completed", intent: "order", output: [{ type: { coding: [{ code: "error" }] }, valueCodeableConcept: { coding: [{ code: "GE-00013", display: "Poll count above 100" }] } }] } },
        { fullUrl: "urn:uuid:1f6f1f0c-8d8c-4d0e-9d51-6f3c4e2d0002", resource: reply({ outcome: "complete", tag: true }) },
      ],
    };
    const view = readMessage(poll).view;
    expect(view.messages).toHaveLength(1);
    expect(view.queuedMessages).toBe(true);
    expect(view.errors).toEqual([{ source: "Task", code: "GE-00013", words: "Poll count above 100" }]);
    expect(readMessage(reply({})).view.queuedMessages).toBe(false);
  });

  it("refuses what is not a message Bundle, naming the path", () => {
    expect(() => readMessage({ resourceType: "Bundle", type: "searchset" })).toThrow(/Bundle\.type/);
    expect(() => readMessage({ resourceType: "Bundle", type: "message", entry: [] })).toThrow(/without a MessageHeader/);
  });
});

describe("decision 045 messages: cancel-request and communication", () => {
  const task = buildCancelTask({
    id: "5b0a6d0e-0d8e-4c47-9a5b-2c4d1f2e3a01",
    target: { platformId: "claim-9", identifier: { system: "https://clinic.example/fhir/claim-id/clinic-001", value: "C-9" } },
    code: "nullify",
    reason: "resubmission",
    providerOrgId: "clinic-001",
    authoredOn: at,
  });
  const communication = buildCommunication({
    id: "0f7d2b2e-51c2-4d7a-8f0e-1a2b3c4d5e6f",
    requestId: "cr-1",
    about: { platformId: "claim-9", identifier: { value: "C-9" } },
    providerOrgId: "clinic-001",
    recipientOrgId: "payer-rimal",
    text: "The lab report is attached.",
    attachments: [{ contentType: "application/pdf", data: Buffer.from("%PDF-1.4 test"), title: "lab.pdf", creation: at }],
    sent: at,
  });

  it("builds valid R4 message Bundles the exchange accepts", () => {
    for (const built of [
      buildMessage({ event: "cancel-request", focus: task, resources: [provider], providerLicense: "PR-FHIR-001", destination: { payerLicense: "INS-RIMAL" }, sourceEndpoint: source, timestamp: at }),
      buildMessage({ event: "communication", focus: communication, resources: [provider], providerLicense: "PR-FHIR-001", destination: { payerLicense: "INS-RIMAL" }, sourceEndpoint: source, timestamp: at }),
    ]) {
      expect(() => checkMessageRules(built.bundle)).not.toThrow();
      expect(r4Problems(built.bundle)).toEqual([]);
    }
  });

  it("the cancel Task names the claim by our identifier (decision 073) and the exchange's reason code; the Communication is based on the request", () => {
    expect(r4Problems(task)).toEqual([]);
    expect(task.code?.coding?.[0]).toEqual({ system: "http://nphies.sa/terminology/CodeSystem/task-code", code: "nullify" });
    expect(task.reasonCode?.coding?.[0]).toMatchObject({ system: "http://nphies.sa/terminology/CodeSystem/task-reason-code", code: "resubmission" });
    expect(task.focus).toMatchObject({ type: "Claim", identifier: { value: "C-9" } });
    expect(task.focus?.reference).toBeUndefined();
    expect(r4Problems(communication)).toEqual([]);
    // Without the payer's identifier only the id is left; with it (what the portal sends, decision 098) the request is named by identifier only.
    expect(communication.basedOn).toEqual([{ reference: "CommunicationRequest/cr-1" }]);
    const byIdentifier = buildCommunication({ id: "x", requestId: "cr-1", requestIdentifier: { system: "https://payer.example/cr", value: "CR-1" }, about: { platformId: "c" }, providerOrgId: "clinic-001", text: "ok", sent: at });
    expect(byIdentifier.basedOn).toEqual([{ type: "CommunicationRequest", identifier: { system: "https://payer.example/cr", value: "CR-1" } }]);
    expect(communication.payload?.map((p) => Object.keys(p)[0])).toEqual(["contentString", "contentAttachment"]);
    expect(() => buildCommunication({ id: "x", requestId: "cr-1", about: { platformId: "c" }, providerOrgId: "clinic-001", text: " ", sent: at })).toThrow(/text or at least one attachment/);
    expect(() => buildCancelTask({ id: "t", target: {}, code: "cancel", reason: "NP", providerOrgId: "clinic-001", authoredOn: at })).toThrow(/platform id or the business identifier/);
  });

  it("reads a payer's CommunicationRequest in any valid form: due date from occurrencePeriod.end, identifier-only about, referenced documents", () => {
    const read = readCommunicationRequest({
      resourceType: "CommunicationRequest",
      id: "cr-2",
      status: "active",
      about: [{ type: "Claim", identifier: { system: "https://clinic.example/fhir/claim-id/clinic-001", value: "C-9" } }],
      payload: [{ contentString: "Operative report, please" }, { contentReference: { display: "Discharge summary" } }, { contentAttachment: { title: "X-ray images" } }],
      reasonCode: [{ text: "Clinical review" }],
      occurrencePeriod: { start: "2026-11-23", end: "2026-11-30" },
      sender: { identifier: { system: NATIONAL_EXCHANGE.payerLicense, value: "7000000101" } },
    });
    expect(read.view).toMatchObject({
      id: "cr-2",
      asks: ["Operative report, please", "Clinical review"],
      attachmentTypes: ["Discharge summary", "X-ray images"],
      due: "2026-11-30",
      about: [{ kind: "identifier", identifier: { value: "C-9" } }],
    });
    expect(readCommunicationRequest({ resourceType: "CommunicationRequest", status: "active", occurrenceDateTime: "2026-12-01T10:00:00Z" }).view.due).toBe("2026-12-01T10:00:00Z");
  });
});
