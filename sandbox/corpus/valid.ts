import { nphies } from "../../lib/fhir";
import * as m from "./nphies-message";
import type { Env, Parties, ReferenceForm, ServicedForm } from "./nphies-message";

/**
 * Valid requests, one per event and per claim type at least (the implementation guide's message
 * structures): each with the answer the exchange would give. Cases run in order in one sandbox —
 * the later ones (status check, cancel, communication, payment notice) name, by identifier, the
 * claims the earlier ones created.
 */

type Json = Record<string, unknown>;

export interface Reply {
  status: number;
  body: Json;
}

export interface Runner {
  send(message: Json): Promise<Reply>;
  admin(method: string, path: string, body?: unknown): Promise<Reply>;
  /** The platform id of the clinic's claim with this identifier (admin view). */
  claimId(identifier: string): Promise<string>;
  /** Polls (claim-response only) until the claim with this identifier is decided; its ClaimResponse. */
  decided(identifier: string): Promise<Json>;
}

export interface ValidCase {
  name: string;
  event: string;
  /** The event of the answer. */
  replyEvent: string;
  build(e: Env, run: Runner): Promise<Json> | Json;
  /** What the answer's focus must say (beyond the envelope checks every case gets). */
  check?(focus: Json | undefined, reply: Json, run: Runner): Promise<void> | void;
  /** Measurements kept for the report (amounts of a decided claim …). */
  measure?(run: Runner): Promise<Record<string, unknown>>;
}

const VIP = { doc: { kind: "iqama" as const, value: "2456789011" }, memberId: "RML-55300", payer: m.PAYERS.rimal };
const CLASS_C = { doc: { kind: "national-id" as const, value: "1087654321" }, memberId: "NKL-55400", payer: m.PAYERS.nakheel };

export function vip(form: ReferenceForm = "absolute", practitionerLicense?: string): Parties {
  return m.parties({ ...VIP, form, ...(practitionerLicense ? { practitionerLicense } : {}) });
}

function all(ps: Parties, withLocation = false): m.Party[] {
  return [ps.patient, ps.coverage, ps.provider, ps.insurer, ...(withLocation ? [ps.location] : []), ...(ps.practitioner ? [ps.practitioner] : []), ...(ps.related ?? [])];
}

export function claimMessage(ps: Parties, e: Env, opts: Parameters<typeof m.claim>[2], event = opts.use === "claim" ? "claim-request" : "priorauth-request"): Json {
  // Institutional, professional and oral requests name their encounter (MDS note 5.2); an
  // institutional claim is admitted care (guide 9.19, 4.x claim types): an inpatient stay, its
  // diagnoses present on admission and, for a prior authorization, its estimated length.
  const subtype = opts.subtype ?? (opts.type === "institutional" ? "ip" : "op");
  const classCode = subtype === "emr" ? "EMER" : subtype === "ip" ? "IMP" : "AMB";
  const encounter = opts.type === "institutional" || opts.type === "professional" || opts.type === "oral" ? m.encounter(ps, e, classCode, undefined, { type: opts.type, use: opts.use }) : undefined;
  const stay = subtype === "ip" ? { onAdmission: opts.onAdmission ?? { code: "y" }, ...(opts.use === "preauthorization" ? { estimatedStay: opts.estimatedStay ?? { value: 2 } } : {}) } : {};
  const c = m.claim(ps, e, { ...opts, subtype, ...stay, ...(encounter ? { encounter } : {}) });
  return m.message(event, c, [...all(ps), ...(encounter ? [encounter] : [])], { payer: String((ps.insurer.resource.identifier as Json[])[0]!.value) }, e);
}

/**
 * An institutional prior authorization of an inpatient stay (subtype `ip`, an IMP encounter): the
 * estimated length of stay in days (BV-00802) and the diagnosis present on admission (BV-00027)
 * unless the options leave them out (`estimatedStay: null`, `onAdmission: null`) or change them.
 */
export function inpatientPreauthMessage(
  e: Env,
  opts: { identifier?: string; estimatedStay?: { value: number; code?: string } | null; onAdmission?: { code: string; system?: string } | null } = {},
): Json {
  const ps = vip("absolute", "PRAC-10005");
  const encounter = m.encounter(ps, e, "IMP", undefined, { type: "institutional", use: "preauthorization" });
  const c = m.claim(ps, e, {
    type: "institutional",
    subtype: "ip",
    use: "preauthorization",
    serviced: "period",
    encounter,
    ...(opts.identifier ? { identifier: opts.identifier } : {}),
    ...(opts.estimatedStay === null ? {} : { estimatedStay: opts.estimatedStay ?? { value: 4 } }),
    ...(opts.onAdmission === null ? {} : { onAdmission: opts.onAdmission ?? { code: "y" } }),
    items: [{ system: "services", code: "SVC-0301", price: 900, quantity: 4 }],
  });
  return m.message("priorauth-request", c, [...all(ps), encounter], { payer: String((ps.insurer.resource.identifier as Json[])[0]!.value) }, e);
}

export function eligibilityMessage(ps: Parties, e: Env, serviced: { date: string } | { start: string; end: string }): Json {
  return m.message("eligibility-request", m.eligibilityRequest(ps, e, serviced), all(ps, true), { payer: String((ps.insurer.resource.identifier as Json[])[0]!.value) }, e);
}

/** The day `days` before `day` (YYYY-MM-DD). */
export function daysBefore(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * A newborn (seed 1077712345, born `bornDaysBefore` days before today) and her mother (1066612340),
 * whose Rimal coverage (RML-55600) names the mother as subscriber and beneficiary: the coverage a
 * newborn is checked and billed under (extension-newborn, docs/decisions/056).
 */
export function newbornParties(e: Env, opts: { bornDaysBefore?: number; practitionerLicense?: string } = {}): Parties {
  const mother = m.party(m.patient({ kind: "national-id", value: "1066612340" }), "absolute");
  const baby = m.patient({ kind: "national-id", value: "1077712345" });
  baby.name = [{ use: "official", text: "Baby of Training Patient", family: "Patient", given: ["Baby"] }];
  baby.birthDate = daysBefore(e.today, opts.bornDaysBefore ?? 10);
  const patient = m.party(baby, "absolute");
  const provider = m.party(m.providerOrganization(), "absolute");
  const insurer = m.party(m.insurerOrganization(m.PAYERS.rimal), "absolute");
  return {
    patient,
    provider,
    insurer,
    coverage: m.party(m.coverage("RML-55600", mother, insurer), "absolute"),
    location: m.party(m.location(provider), "absolute"),
    ...(opts.practitionerLicense ? { practitioner: m.party(m.practitioner(opts.practitionerLicense), "absolute") } : {}),
    related: [mother],
  };
}

/**
 * The message's focus marked as a newborn's request (extension-newborn = true); a claim or prior
 * authorization also carries the birth weight (`weight`, in UCUM kg unless another unit is given;
 * `null` for none).
 */
export function asNewborn(bundle: Json, weight: { value: number; code: string } | null = { value: 3.1, code: "kg" }): Json {
  const focus = (bundle.entry as Json[])[1]!.resource as Json;
  focus.extension = [...((focus.extension as Json[] | undefined) ?? []), { url: NEWBORN, valueBoolean: true }];
  if (focus.resourceType === "Claim" && weight) {
    const infos = (focus.supportingInfo as Json[] | undefined) ?? [];
    infos.push({
      sequence: infos.length + 1,
      category: { coding: [{ system: "http://nphies.sa/terminology/CodeSystem/claim-information-category", code: "birth-weight" }] },
      valueQuantity: { value: weight.value, system: "http://unitsofmeasure.org", code: weight.code, unit: weight.code },
    });
    focus.supportingInfo = infos;
  }
  return bundle;
}

const NEWBORN = "http://nphies.sa/fhir/ksa/nphies-fs/StructureDefinition/extension-newborn";

const ext = (focus: Json | undefined, url: string) => ((focus?.extension as Json[] | undefined) ?? []).find((x) => x.url === url);
const siteEligibility = (focus: Json | undefined) =>
  ((ext(focus, "http://nphies.sa/fhir/ksa/nphies-fs/StructureDefinition/extension-siteEligibility")?.valueCodeableConcept as Json | undefined)?.coding as Json[] | undefined)?.[0]?.code;
const inforce = (focus: Json | undefined) => ((focus?.insurance as Json[] | undefined) ?? [])[0]?.inforce;

function expectEq(actual: unknown, expected: unknown, what: string): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

export const amount = (response: Json, category: string, itemSequence?: number): number | undefined => {
  const list = itemSequence === undefined ? ((response.total as Json[] | undefined) ?? []) : (((response.item as Json[] | undefined) ?? []).find((i) => i.itemSequence === itemSequence)?.adjudication as Json[] | undefined) ?? [];
  const hit = list.find((a) => ((a.category as Json).coding as Json[]).some((c) => c.code === category));
  return hit ? ((hit.amount as Json | undefined)?.value as number | undefined) ?? (hit.value as number | undefined) : undefined;
};

const ID = {
  institutional: "CORPUS-INST-1",
  professional: "CORPUS-PROF-1",
  oral: "CORPUS-ORAL-1",
  pharmacy: "CORPUS-PHARM-1",
  vision: "CORPUS-VIS-1",
  cancel: "CORPUS-CANCEL-1",
  newborn: "CORPUS-NEWBORN-1",
  newbornPreauth: "CORPUS-NEWBORN-PA-1",
  inpatientPreauth: "CORPUS-INPATIENT-PA-1",
};

/**
 * Benefits the seed's rules give (SAR): oral — VIP class (no patient share), the root canal reduced
 * from 1,500 to the 1,400 list price; pharmacy — class C (30 % share, 50 deductible: docs/decisions/091),
 * paracetamol cut from 6 to the 4-pack limit, metformin for 180 days cut to the 90-day limit (1 of 3
 * packs): the 32 of paracetamol all deductible, then of the 30 the 18 left of it, 70 % of the other 12.
 */
const EXPECTED_BENEFIT: Partial<Record<string, number>> = { oral: 1820, pharmacy: 8.4 };

export const VALID_CASES: ValidCase[] = [
  {
    name: "eligibility: current coverage, servicedDate, by Iqama",
    event: "eligibility-request",
    replyEvent: "eligibility-response",
    build: (e) => eligibilityMessage(vip(), e, { date: e.today }),
    check: (f) => {
      expectEq(inforce(f), true, "inforce");
      expectEq(siteEligibility(f), "eligible", "siteEligibility");
    },
  },
  {
    name: "eligibility: last year's period answered from last year's coverage",
    event: "eligibility-request",
    replyEvent: "eligibility-response",
    build: (e) => eligibilityMessage(m.parties({ doc: { kind: "national-id", value: "1055512345" }, memberId: "RML-55100", payer: m.PAYERS.rimal, form: "absolute" }), e, { start: `${e.year - 1}-03-01`, end: `${e.year - 1}-03-31` }),
    check: (f, _r) => {
      expectEq(inforce(f), true, "inforce");
      expectEq(siteEligibility(f), "eligible", "siteEligibility");
      expectEq((f?.servicedPeriod as Json | undefined)?.start !== undefined, true, "servicedPeriod echoed");
    },
  },
  {
    name: "eligibility: this year for a patient covered last and next year only → not-active",
    event: "eligibility-request",
    replyEvent: "eligibility-response",
    build: (e) => eligibilityMessage(m.parties({ doc: { kind: "national-id", value: "1055512345" }, memberId: "RML-55100", payer: m.PAYERS.rimal, form: "absolute" }), e, { start: e.today, end: e.today }),
    check: (f) => {
      expectEq(inforce(f), false, "inforce");
      expectEq(siteEligibility(f), "not-active", "siteEligibility");
    },
  },
  {
    name: "eligibility: next year's period answered from the future coverage",
    event: "eligibility-request",
    replyEvent: "eligibility-response",
    build: (e) => eligibilityMessage(m.parties({ doc: { kind: "national-id", value: "1055512345" }, memberId: "WDI-55101", payer: m.PAYERS.wadi, form: "absolute" }), e, { start: `${e.year + 1}-02-01`, end: `${e.year + 1}-02-02` }),
    check: (f) => expectEq(inforce(f), true, "inforce"),
  },
  {
    name: "eligibility: restricted network the clinic is not in → out-network",
    event: "eligibility-request",
    replyEvent: "eligibility-response",
    build: (e) => eligibilityMessage(m.parties({ doc: { kind: "iqama", value: "2176543219" }, memberId: "WDI-55200", payer: m.PAYERS.wadi, form: "absolute" }), e, { date: e.today }),
    check: (f) => expectEq(siteEligibility(f), "out-network", "siteEligibility"),
  },
  {
    name: "eligibility: visitor known by passport",
    event: "eligibility-request",
    replyEvent: "eligibility-response",
    build: (e) => eligibilityMessage(m.parties({ doc: { kind: "passport", value: "A4815162" }, memberId: "NKL-V-55500", payer: m.PAYERS.nakheel, form: "urn" }), e, { date: e.today }),
    check: (f) => expectEq(siteEligibility(f), "eligible", "siteEligibility"),
  },
  {
    name: "eligibility: a newborn under her mother's coverage (extension-newborn) → in force",
    event: "eligibility-request",
    replyEvent: "eligibility-response",
    build: (e) => asNewborn(eligibilityMessage(newbornParties(e), e, { date: e.today })),
    check: (f) => {
      expectEq(f?.outcome, "complete", "outcome");
      expectEq(inforce(f), true, "inforce");
      expectEq(siteEligibility(f), "eligible", "siteEligibility");
    },
  },
  {
    name: "priorauth: institutional delivery package",
    event: "priorauth-request",
    replyEvent: "priorauth-response",
    build: (e) =>
      claimMessage(vip("absolute", "PRAC-10005"), e, {
        type: "institutional",
        use: "preauthorization",
        serviced: "period",
        items: [
          { system: "services", code: "PKG-0501", price: 7_500 },
          { system: "services", code: "SVC-0301", price: 900, quantity: 2 },
        ],
      }),
    check: (f) => {
      expectEq(f?.outcome, "partial", "outcome (the bed days are in the package)");
      expectEq(typeof f?.preAuthRef, "string", "preAuthRef");
      expectEq(amount(f!, "benefit", 2), 0, "bed days paid by the package");
    },
  },
  {
    name: "priorauth: an inpatient admission (ip) with the estimated length of stay and the diagnosis present on admission",
    event: "priorauth-request",
    replyEvent: "priorauth-response",
    build: (e) => inpatientPreauthMessage(e, { identifier: ID.inpatientPreauth }),
    check: (f) => {
      expectEq(["complete", "partial"].includes(String(f?.outcome)), true, `outcome ${String(f?.outcome)}`);
      expectEq(typeof f?.preAuthRef, "string", "preAuthRef");
    },
  },
  ...(
    [
      ["institutional", ID.institutional, [{ system: "services", code: "SVC-0201", price: 400 }, { system: "laboratory", code: "LAB-4001", price: 60 }], "PRAC-10001"],
      ["professional", ID.professional, [{ system: "services", code: "SVC-0102", price: 300 }, { system: "imaging", code: "IMG-3001", price: 180 }], "PRAC-10001"],
      ["oral", ID.oral, [{ system: "oralHealthOp", code: "ORL-2001", price: 120 }, { system: "oralHealthOp", code: "ORL-2003", price: 300, tooth: "16" }, { system: "oralHealthOp", code: "ORL-2004", price: 1_500, tooth: "36" }], "PRAC-10002"],
      ["pharmacy", ID.pharmacy, [{ system: "medicationCodes", code: "06280000000101", price: 8, quantity: 6, daysSupply: 10 }, { system: "medicationCodes", code: "06280000000103", price: 30, quantity: 3, daysSupply: 180 }], "PRAC-10004"],
      ["vision", ID.vision, [{ system: "services", code: "SVC-0401", price: 200 }, { system: "services", code: "SVC-0402", price: 350 }], "PRAC-10003"],
    ] as const
  ).map(
    ([type, identifier, items, licence]): ValidCase => ({
      name: `claim: ${type}`,
      event: "claim-request",
      replyEvent: "claim-response",
      build: (e) =>
        claimMessage(type === "pharmacy" ? m.parties({ ...CLASS_C, form: "absolute", practitionerLicense: licence }) : vip("absolute", licence), e, {
          type,
          use: "claim",
          serviced: type === "oral" ? "period" : "date",
          identifier,
          items: items.map((i) => ({ ...i })),
        }),
      check: (f) => {
        expectEq((f?.request as Json | undefined)?.identifier !== undefined, true, "request by identifier");
        expectEq((f?.request as Json | undefined)?.reference, undefined, "request identifier-only (strict)");
      },
      measure: async (run) => {
        const decided = await run.decided(identifier);
        expectEq(((decided.item as Json[] | undefined) ?? []).length, items.length, "adjudicated items");
        const expected = EXPECTED_BENEFIT[type];
        if (expected !== undefined) expectEq(amount(decided, "benefit"), expected, `${type} benefit`);
        return { outcome: decided.outcome, items: decided.item, total: decided.total };
      },
    }),
  ),
  {
    name: "priorauth: a newborn's professional prior authorization under her mother's coverage",
    event: "priorauth-request",
    replyEvent: "priorauth-response",
    build: (e) =>
      asNewborn(
        claimMessage(newbornParties(e, { bornDaysBefore: 3, practitionerLicense: "PRAC-10001" }), e, {
          type: "professional",
          use: "preauthorization",
          serviced: "date",
          identifier: ID.newbornPreauth,
          items: [{ system: "services", code: "SVC-0102", price: 300 }],
        }),
      ),
    check: (f) => {
      expectEq(f?.outcome, "complete", "outcome");
      expectEq(typeof f?.preAuthRef, "string", "preAuthRef");
    },
  },
  {
    name: "claim: a newborn's professional claim under her mother's coverage, birth weight in kg",
    event: "claim-request",
    replyEvent: "claim-response",
    build: (e) =>
      asNewborn(
        claimMessage(newbornParties(e, { bornDaysBefore: 30, practitionerLicense: "PRAC-10001" }), e, {
          type: "professional",
          use: "claim",
          serviced: "date",
          identifier: ID.newborn,
          items: [
            { system: "services", code: "SVC-0101", price: 150 },
            { system: "laboratory", code: "LAB-4001", price: 60 },
          ],
        }),
      ),
    measure: async (run) => {
      const decided = await run.decided(ID.newborn);
      expectEq(decided.outcome, "complete", "outcome");
      expectEq(((decided.item as Json[] | undefined) ?? []).length, 2, "adjudicated items");
      // The mother's class A: 10 % patient share of 210.
      expectEq(amount(decided, "benefit"), 189, "benefit");
      return { outcome: decided.outcome, items: decided.item, total: decided.total };
    },
  },
  {
    name: "prescriber-request: pharmacy prescription answered at once",
    event: "prescriber-request",
    replyEvent: "prescriber-response",
    build: (e) =>
      claimMessage(
        m.parties({ ...CLASS_C, form: "relative", practitionerLicense: "PRAC-10001" }),
        e,
        { type: "pharmacy", use: "preauthorization", serviced: "date", items: [{ system: "medicationCodes", code: "06280000000102", price: 25, quantity: 2, daysSupply: 7 }] },
        "prescriber-request",
      ),
    check: (f) => expectEq(f?.outcome, "complete", "outcome"),
  },
  {
    // As real prescriber requests are written (guide 7.11, 9.6): use predetermination, the
    // prescriber profile (decision 104: the sandbox used to refuse them for their use).
    name: "prescriber-request: a predetermination (use predetermination, prescriber profile)",
    event: "prescriber-request",
    replyEvent: "prescriber-response",
    build: (e) => {
      const b = claimMessage(
        m.parties({ ...CLASS_C, form: "absolute", practitionerLicense: "PRAC-10001" }),
        e,
        { type: "pharmacy", use: "predetermination", serviced: "date", items: [{ system: "medicationCodes", code: "06280000000101", price: 8, quantity: 2, daysSupply: 10 }] },
        "prescriber-request",
      );
      // A line by GTIN says why it names no scientific code (guide 7.11: GTIN with justification).
      const line = (((b.entry as Json[])[1]!.resource as Json).item as Json[])[0]!;
      line.extension = [...((line.extension as Json[] | undefined) ?? []), { url: nphies.EXTENSIONS.absenceOfScientificCode, valueCodeableConcept: { coding: [{ system: nphies.SYSTEMS.absenceOfScientificCode, code: "no-scientific-code" }] } }];
      return b;
    },
    check: (f) => expectEq(f?.outcome, "complete", "outcome"),
  },
  {
    // The diagnosis picker's K02.9 (tooth decay): the sandbox reads the picker's catalogue (decision 104).
    name: "claim: oral, diagnosis K02.9 as the portal's picker offers it",
    event: "claim-request",
    replyEvent: "claim-response",
    build: (e) => {
      const b = claimMessage(vip("absolute", "PRAC-10002"), e, { type: "oral", use: "claim", serviced: "date", identifier: "CORPUS-K029", items: [{ system: "oralHealthOp", code: "ORL-2003", price: 300, tooth: "16" }] });
      const claim = (b.entry as Json[])[1]!.resource as Json;
      ((((claim.diagnosis as Json[])[0]!.diagnosisCodeableConcept as Json).coding as Json[])[0]!).code = "K02.9";
      return b;
    },
  },
  {
    name: "batch-request: two claims to one payer",
    event: "batch-request",
    replyEvent: "batch-response",
    build: (e) => {
      const inner = [
        claimMessage(vip("absolute", "PRAC-10001"), e, { type: "professional", use: "claim", serviced: "date", identifier: "CORPUS-BATCH-1", items: [{ system: "services", code: "SVC-0101", price: 150 }] }),
        claimMessage(vip("identifier", "PRAC-10001"), e, { type: "professional", use: "claim", serviced: "period", identifier: "CORPUS-BATCH-2", items: [{ system: "laboratory", code: "LAB-4002", price: 90 }] }),
      ];
      const headerId = m.guid();
      return {
        resourceType: "Bundle",
        id: m.guid(),
        meta: m.profile("bundle"),
        type: "message",
        timestamp: e.now,
        entry: [
          {
            fullUrl: `urn:uuid:${headerId}`,
            resource: {
              resourceType: "MessageHeader",
              id: headerId,
              meta: m.profile("message-header"),
              eventCoding: { system: "http://nphies.sa/terminology/CodeSystem/ksa-message-events", code: "batch-request" },
              destination: [{ endpoint: `http://nphies.sa/${m.PAYERS.rimal}`, receiver: { type: "Organization", identifier: { system: "http://nphies.sa/license/payer-license", value: m.PAYERS.rimal } } }],
              sender: { type: "Organization", identifier: { system: "http://nphies.sa/license/provider-license", value: m.CLINIC_LICENSE } },
              source: { endpoint: m.CLINIC_BASE },
              focus: inner.map((b) => ({ reference: `urn:uuid:${String(b.id)}` })),
            },
          },
          ...inner.map((b) => ({ fullUrl: `urn:uuid:${String(b.id)}`, resource: b })),
        ],
      };
    },
    check: (_f, reply) => {
      const inner = ((reply.entry as Json[]).slice(1) as Json[]).map((x) => x.resource as Json);
      expectEq(inner.length, 2, "inner answers");
    },
  },
  {
    name: "status-check: the claim named by its identifier",
    event: "status-check",
    replyEvent: "status-check-response",
    build: (e) => {
      const provider = m.party(m.providerOrganization(), "absolute");
      return m.message("status-check", m.claimTask("status", ID.institutional, provider, e), [provider], { payer: m.PAYERS.rimal }, e);
    },
    // The exchange answers a status check with the Task completed, the claim's state in its output (decision 073).
    check: (f) => expectEq([f?.resourceType, f?.status], ["Task", "completed"], `focus ${JSON.stringify(f).slice(0, 400)}`),
  },
  {
    name: "cancel-request: the claim named by its identifier",
    event: "cancel-request",
    replyEvent: "cancel-response",
    build: async (e, run) => {
      await run.send(claimMessage(vip("absolute", "PRAC-10001"), e, { type: "professional", use: "claim", serviced: "date", identifier: ID.cancel, items: [{ system: "services", code: "SVC-0101", price: 150 }] }));
      const provider = m.party(m.providerOrganization(), "absolute");
      return m.message("cancel-request", m.claimTask("cancel", ID.cancel, provider, e, "WI"), [provider], { payer: m.PAYERS.rimal }, e);
    },
    check: (f) => expectEq(f?.status, "completed", `Task.status ${JSON.stringify(f).slice(0, 400)}`),
  },
  {
    name: "communication: unsolicited, about a claim named by identifier",
    event: "communication",
    replyEvent: "acknowledgement",
    build: (e) => {
      const ps = vip();
      return m.message("communication", m.communication(ps, ID.professional, e), [ps.patient, ps.provider, ps.insurer], { payer: m.PAYERS.rimal }, e);
    },
    check: (f) => expectEq(f?.resourceType, "Communication", "focus"),
  },
  {
    name: "communication: answering an information request named by identifier",
    event: "communication",
    replyEvent: "acknowledgement",
    build: async (e, run) => {
      const id = await run.claimId(ID.vision);
      const asked = await run.admin("POST", `/_admin/claims/${id}/request-information`, { text: "Send the refraction report" });
      const ps = vip();
      return m.message("communication", m.communication(ps, ID.vision, e, { value: String(asked.body.id) }), [ps.patient, ps.provider, ps.insurer], { payer: m.PAYERS.rimal }, e);
    },
    check: (f) => expectEq(f?.resourceType, "Communication", "focus"),
  },
  {
    name: "payment-notice: the remittance named by its payment identifier",
    event: "payment-notice",
    replyEvent: "acknowledgement",
    build: async (e, run) => {
      await run.decided(ID.institutional);
      const id = await run.claimId(ID.institutional);
      const remitted = await run.admin("POST", "/_admin/remittances", { claims: [{ id }] });
      const identifier = remitted.body.paymentIdentifier as { system?: string; value: string };
      const provider = m.party(m.providerOrganization(), "absolute");
      return m.message("payment-notice", m.paymentNotice(provider, identifier, Number((remitted.body.paymentAmount as Json).value), e), [provider], "exchange", e);
    },
  },
  {
    name: "poll-request: only claim-response messages (message-type filter)",
    event: "poll-request",
    replyEvent: "poll-response",
    build: (e) => {
      const provider = m.party(m.providerOrganization(), "absolute");
      return m.message("poll-request", m.pollTask(provider, e, ["claim-response"]), [provider], "exchange", e);
    },
    check: async (_f, reply, run) => {
      // Mail of other types waits meanwhile (the information request and the payer's acknowledgements).
      const events = polledEvents(reply);
      for (const ev of events) expectEq(ev, "claim-response", "polled event");
      const e = m.env();
      const provider = m.party(m.providerOrganization(), "absolute");
      const other = await run.send(m.message("poll-request", m.pollTask(provider, e, ["communication-request"]), [provider], "exchange", e));
      expectEq(polledEvents(other.body), ["communication-request"], "the waiting information request, alone");
    },
  },
];

/** The events of the messages a poll-response hands out. */
function polledEvents(reply: Json): unknown[] {
  return ((reply.entry as Json[]).slice(2) as Json[]).map((x) => (((x.resource as Json).entry as Json[])[0]!.resource as Json).eventCoding as Json).map((c) => c.code);
}

export type { ServicedForm };
