import fs from "node:fs";
import path from "node:path";
import { CPT_CODES, ICD10AM_CODES, isExcludedService, parsePriceListCsv, priceFor, priceListSystemKey, type BenefitCategoryCode, type PriceListRow } from "../lib/fhir";
import { CPT_SYSTEM, NPHIES_CATALOGUE, catalogueKey, type CatalogueEntry } from "./catalogue";
import { COVERAGE_CLASS_ANNUAL, TRAINING_COVERAGES, TRAINING_PATIENTS, NETWORKS, PRACTITIONERS, type PractitionerDef } from "./seed-training";

/**
 * Reference data of the sandbox: payers, the clinic, patients, coverages with benefit schedules, a
 * price list over a small curated CPT subset and a curated ICD-10-AM subset.
 *
 * CPT descriptors (AMA) and ICD-10-AM descriptors (IHACPA) are licensed. The sandbox ships only code
 * numbers, each with a short description written by us; a real deployment imports the licensed code
 * sets. All names, organizations and identifiers are fictional.
 *
 * Amounts are integer halalas (1 SAR = 100 halalas). Coverage periods are relative to the sandbox
 * clock (the current calendar year), so the scenarios behave the same whatever the date.
 */

export interface Organization {
  id: string;
  name: { en: string; ar: string };
  kind: "payer" | "provider";
  /** Licence number on the national exchange (payer-license / provider-license identifier systems). */
  license?: string;
}

export const PAYERS: readonly Organization[] = [
  { id: "payer-rimal", name: { en: "Rimal Cooperative Health Insurance", ar: "رمال للتأمين الصحي التعاوني" }, kind: "payer", license: "7000000101" },
  { id: "payer-wadi", name: { en: "Wadi Takaful Health", ar: "وادي للتكافل الصحي" }, kind: "payer", license: "7000000102" },
  { id: "payer-nakheel", name: { en: "Nakheel Mutual Health", ar: "نخيل للتأمين الصحي التبادلي" }, kind: "payer", license: "7000000103" },
];

export const DEFAULT_PROVIDER_ORG_ID = "clinic-001";
/** The sandbox clinic's provider licence: `MessageHeader.sender` of its messages (PROVIDER_LICENSE's default). */
export const DEFAULT_PROVIDER_LICENSE = "PR-CLINIC-001";

export function providerOrganization(id: string): Organization {
  return { id, name: { en: "Sandbox Family Clinic", ar: "عيادة الأسرة التجريبية" }, kind: "provider", license: DEFAULT_PROVIDER_LICENSE };
}

export interface BenefitLine {
  category: BenefitCategoryCode;
  /** Annual limit for the category. */
  allowed: number;
  /** Already used this benefit period before the sandbox started (seed). */
  used: number;
  /** Patient share (copay) in whole percent. */
  copayPercent: number;
}

export interface CoverageDef {
  id: string;
  patientId: string;
  payerId: string;
  plan: string;
  /** `current`: the current calendar year; `lapsed`: the previous one; `future`: the next one. */
  period: "current" | "lapsed" | "future";
  benefits: readonly BenefitLine[];
  /** Member number on the card (Coverage.identifier); the coverage id when not given. */
  memberId?: string;
  /** Coverage class (Coverage.class, plan class): it sets the patient share (seed-training.ts). */
  coverageClass?: string;
  /** The payer's provider network; the whole market when not given. */
  network?: string;
  /**
   * Annual deductible and out-of-pocket maximum (docs/decisions/091), with what was met before
   * the sandbox started; the class's (seed-training.ts) when not given. None: not applied.
   */
  annual?: AnnualLimits;
}

export interface AnnualLimits {
  deductible?: number;
  deductibleMet?: number;
  outOfPocketMax?: number;
  outOfPocketPaid?: number;
}

export interface PatientDef {
  id: string;
  kind: "citizen" | "resident";
  /** Fictional names for training screens. Never logged. */
  name: { en: string; ar: string };
  birthDate: string;
  gender: "female" | "male";
  scenario: string;
  /** Other documents the patient is known by (Iqama, passport), beside `id`. */
  documents?: readonly { kind: "national-id" | "iqama" | "passport"; value: string }[];
}

const SAR = (riyals: number) => riyals * 100;

/**
 * 1000000001–1000000003 are published sandbox test identities (reserved range, no check digit —
 * docs/decisions/010). The others pass the Luhn check digit like real identifiers.
 */
export const PATIENTS: readonly PatientDef[] = [
  {
    id: "1000000001",
    kind: "citizen",
    name: { en: "Test Patient One", ar: "مريض تجريبي واحد" },
    birthDate: "1985-03-14",
    gender: "female",
    scenario: "Coverage in force (Rimal Gold), benefits in several categories, some already used; X-ray nearly exhausted, vision exhausted.",
  },
  {
    id: "1000000002",
    kind: "citizen",
    name: { en: "Test Patient Two", ar: "مريض تجريبي اثنان" },
    birthDate: "1979-11-02",
    gender: "male",
    scenario: "Coverage exists (Wadi Silver) but lapsed at the end of last year: inforce false; claims are denied.",
  },
  {
    id: "1000000003",
    kind: "citizen",
    name: { en: "Test Patient Three", ar: "مريض تجريبي ثلاثة" },
    birthDate: "1992-07-21",
    gender: "female",
    scenario: "No coverage at all: eligibility and claims answer 404 ERR-002.",
  },
  {
    id: "1048573628",
    kind: "citizen",
    name: { en: "Huda Al-Sandbox", ar: "هدى التجريبية" },
    birthDate: "1990-01-09",
    gender: "female",
    scenario: "Realistic citizen ID. Coverage in force (Nakheel Basic), 20% copay, modest limits.",
  },
  {
    id: "2087654311",
    kind: "resident",
    name: { en: "Omar Testresident", ar: "عمر المقيم التجريبي" },
    birthDate: "1988-05-30",
    gender: "male",
    scenario: "Realistic resident (Iqama) ID. Coverage in force (Rimal Silver), nothing used yet.",
  },
  {
    id: "1122334459",
    kind: "citizen",
    name: { en: "Nora Al-Example", ar: "نورة المثال" },
    birthDate: "1975-12-12",
    gender: "female",
    scenario: "Realistic citizen ID. Coverage in force (Wadi Silver); consultation benefit exhausted (claims pay 0, reason ar002).",
  },
];

export const COVERAGES: readonly CoverageDef[] = [
  {
    id: "cov-1000000001",
    patientId: "1000000001",
    payerId: "payer-rimal",
    plan: "Gold",
    period: "current",
    benefits: [
      { category: "1", allowed: SAR(50_000), used: SAR(12_500), copayPercent: 10 },
      { category: "2", allowed: SAR(100_000), used: 0, copayPercent: 0 },
      { category: "3", allowed: SAR(5_000), used: SAR(1_250), copayPercent: 20 },
      { category: "4", allowed: SAR(8_000), used: SAR(7_800), copayPercent: 10 },
      { category: "5", allowed: SAR(6_000), used: SAR(600), copayPercent: 10 },
      { category: "62", allowed: SAR(10_000), used: 0, copayPercent: 20 },
      { category: "69", allowed: SAR(15_000), used: 0, copayPercent: 0 },
      { category: "F6", allowed: SAR(1_500), used: SAR(1_500), copayPercent: 0 },
    ],
  },
  {
    id: "cov-1000000002",
    patientId: "1000000002",
    payerId: "payer-wadi",
    plan: "Silver",
    period: "lapsed",
    benefits: [
      { category: "1", allowed: SAR(30_000), used: SAR(4_000), copayPercent: 15 },
      { category: "3", allowed: SAR(3_000), used: SAR(300), copayPercent: 20 },
      { category: "5", allowed: SAR(4_000), used: 0, copayPercent: 15 },
    ],
  },
  {
    id: "cov-1048573628",
    patientId: "1048573628",
    payerId: "payer-nakheel",
    plan: "Basic",
    period: "current",
    benefits: [
      { category: "1", allowed: SAR(20_000), used: SAR(2_000), copayPercent: 20 },
      { category: "3", allowed: SAR(2_000), used: SAR(500), copayPercent: 20 },
      { category: "4", allowed: SAR(3_000), used: 0, copayPercent: 20 },
      { category: "5", allowed: SAR(3_000), used: SAR(150), copayPercent: 20 },
    ],
  },
  {
    id: "cov-2087654311",
    patientId: "2087654311",
    payerId: "payer-rimal",
    plan: "Silver",
    period: "current",
    // A deductible already met this year: the shares stay the copay, the estimate shows what is left.
    annual: { deductible: SAR(500), deductibleMet: SAR(500), outOfPocketMax: SAR(5_000), outOfPocketPaid: SAR(500) },
    benefits: [
      { category: "1", allowed: SAR(40_000), used: 0, copayPercent: 10 },
      { category: "2", allowed: SAR(60_000), used: 0, copayPercent: 10 },
      { category: "3", allowed: SAR(4_000), used: 0, copayPercent: 10 },
      { category: "4", allowed: SAR(5_000), used: 0, copayPercent: 10 },
      { category: "5", allowed: SAR(5_000), used: 0, copayPercent: 10 },
      { category: "62", allowed: SAR(8_000), used: 0, copayPercent: 10 },
    ],
  },
  {
    id: "cov-1122334459",
    patientId: "1122334459",
    payerId: "payer-wadi",
    plan: "Silver",
    period: "current",
    benefits: [
      { category: "1", allowed: SAR(30_000), used: SAR(1_000), copayPercent: 15 },
      { category: "3", allowed: SAR(3_000), used: SAR(3_000), copayPercent: 20 },
      { category: "5", allowed: SAR(4_000), used: SAR(250), copayPercent: 15 },
    ],
  },
];

export interface PriceListEntry extends Partial<Pick<CatalogueEntry, "tooth" | "maxQuantity" | "maxDaysSupply" | "includes">> {
  /** Code system of `code` (CPT for the spec's REST dialect, the exchange's systems otherwise). */
  system?: string;
  code: string;
  /** Our own short wording, not the licensed CPT descriptor. */
  description: string;
  category: BenefitCategoryCode;
  /** Contracted price per unit. */
  price: number;
  /** Needs an approved prior authorization before it can be claimed. */
  requiresPreauth: boolean;
  /** Never covered (e.g. cosmetic): always denied. */
  excluded: boolean;
}

const cpt = (
  code: string,
  description: string,
  category: BenefitCategoryCode,
  riyals: number,
  flags: { preauth?: boolean } = {},
): PriceListEntry => ({
  code,
  description,
  category,
  price: SAR(riyals),
  requiresPreauth: flags.preauth ?? false,
  excluded: isExcludedService(CPT_SYSTEM, code),
});

/**
 * Contract prices and rules of the sandbox's payers, per code of the shared curated CPT list
 * (`CPT_CODES` in lib/fhir/terminology.ts — one list for the portal's pickers and the sandbox).
 */
const PRICING: Readonly<Record<string, { riyals: number; preauth?: boolean }>> = {
  "99202": { riyals: 200 },
  "99203": { riyals: 300 },
  "99213": { riyals: 250 },
  "99214": { riyals: 350 },
  "36415": { riyals: 15 },
  "81001": { riyals: 40 },
  "85025": { riyals: 60 },
  "80053": { riyals: 120 },
  "83036": { riyals: 90 },
  "71046": { riyals: 180 },
  "73030": { riyals: 150 },
  "96372": { riyals: 50 },
  "12001": { riyals: 400 },
  "92004": { riyals: 200 },
  "70553": { riyals: 2_500, preauth: true },
  "72148": { riyals: 2_000, preauth: true },
  "29881": { riyals: 9_000, preauth: true },
  "47562": { riyals: 12_000, preauth: true },
  "59400": { riyals: 8_000, preauth: true },
  "15823": { riyals: 4_000 },
  "58970": { riyals: 6_000, preauth: true },
};

export const PRICE_LIST: readonly PriceListEntry[] = CPT_CODES.map((entry) => {
  const pricing = PRICING[entry.code];
  if (!pricing) throw new Error(`sandbox price list: no price for CPT ${entry.code}`);
  return cpt(entry.code, entry.display.en, entry.category, pricing.riyals, pricing);
});

export interface DiagnosisDef {
  code: string;
  /** Our own short wording, not the licensed ICD-10-AM descriptor. */
  description: string;
}

/**
 * The diagnoses the sandbox knows: lib/fhir's one curated ICD-10-AM list, which is also all the
 * portal's diagnosis picker offers (lib/terminology/demo-catalogue.ts; docs/decisions/104) — so a
 * code the picker offers (K02.9 …) is never refused as unknown.
 */
export const DIAGNOSES: readonly DiagnosisDef[] = ICD10AM_CODES.map((d) => ({ code: d.code, description: d.display.en }));

export const REVIEW_THRESHOLD = SAR(10_000);

export interface ReferenceData {
  payers: readonly Organization[];
  provider: Organization;
  patients: ReadonlyMap<string, PatientDef>;
  coverages: ReadonlyMap<string, CoverageDef>;
  coveragesByPatient: ReadonlyMap<string, CoverageDef[]>;
  priceList: ReadonlyMap<string, PriceListEntry>;
  /** Every priced code, by `system|code` (catalogueKey): CPT and the exchange's systems. */
  catalogue: ReadonlyMap<string, PriceListEntry>;
  diagnoses: ReadonlyMap<string, DiagnosisDef>;
  /** Patients by every document number they are known by (id, Iqama, passport). */
  patientsByDocument: ReadonlyMap<string, PatientDef>;
  /** Provider licences in each payer network. */
  networks: ReadonlyMap<string, ReadonlySet<string>>;
  practitioners: ReadonlyMap<string, PractitionerDef>;
  /** The payers' contracts (the shared price-list CSV, docs/decisions/089); prices override the catalogue's. */
  contracts: readonly PriceListRow[];
}

/**
 * The contract file the sandbox adjudicates with: the demo contract file shipped in the
 * repository (run from the repository's folder) — the same file the portal's demo seed imports, so the portal's
 * estimate and the sandbox's decision use the same prices (docs/decisions/089). A missing file
 * leaves the catalogue's prices; a bad line stops the sandbox (a silent half price list would
 * make every estimate wrong).
 */
export function loadContracts(file: string = path.join(process.cwd(), "contracts", "demo-contracts.csv")): PriceListRow[] {
  if (!fs.existsSync(file)) return [];
  const parsed = parsePriceListCsv(fs.readFileSync(file, "utf8"));
  if (parsed.errors.length > 0) throw new Error(`sandbox contracts ${file}: ${parsed.errors.length} bad line(s), first line ${parsed.errors[0]!.line} (${parsed.errors[0]!.column}: ${parsed.errors[0]!.problem})`);
  return parsed.rows;
}

/** A coverage's annual deductible and out-of-pocket maximum: its own, else its class's (none: {}). */
export function annualLimitsOf(coverage: CoverageDef): AnnualLimits {
  return coverage.annual ?? (coverage.coverageClass ? (COVERAGE_CLASS_ANNUAL[coverage.coverageClass] ?? {}) : {});
}

/** The contract row for an item of a coverage on its service date, if the payer's contract prices it. */
export function contractRowFor(reference: Pick<ReferenceData, "contracts">, coverage: CoverageDef, system: string, code: string, date: string): PriceListRow | undefined {
  const key = priceListSystemKey(system);
  if (!key || reference.contracts.length === 0) return undefined;
  return priceFor(reference.contracts, { insurerId: coverage.payerId, network: coverage.network ?? "", coverageClass: coverage.coverageClass ?? "", system: key, code, date });
}

export function buildReferenceData(providerOrgId: string): ReferenceData {
  const coveragesByPatient = new Map<string, CoverageDef[]>();
  const coverages = [...COVERAGES, ...TRAINING_COVERAGES];
  const patients = [...PATIENTS, ...TRAINING_PATIENTS];
  const priced: PriceListEntry[] = [
    ...PRICE_LIST.map((p) => ({ ...p, system: CPT_SYSTEM })),
    ...NPHIES_CATALOGUE.map((e) => ({ ...e, requiresPreauth: e.requiresPreauth ?? false, excluded: e.excluded ?? false })),
  ];
  const patientsByDocument = new Map<string, PatientDef>();
  for (const p of patients) for (const value of [p.id, ...(p.documents ?? []).map((d) => d.value)]) patientsByDocument.set(value, p);
  for (const c of coverages) coveragesByPatient.set(c.patientId, [...(coveragesByPatient.get(c.patientId) ?? []), c]);
  return {
    payers: PAYERS,
    provider: providerOrganization(providerOrgId),
    patients: new Map(patients.map((p) => [p.id, p])),
    coverages: new Map(coverages.map((c) => [c.id, c])),
    coveragesByPatient,
    priceList: new Map(PRICE_LIST.map((p) => [p.code, p])),
    catalogue: new Map(priced.map((p) => [catalogueKey(p.system, p.code), p])),
    diagnoses: new Map(DIAGNOSES.map((d) => [d.code, d])),
    patientsByDocument,
    networks: new Map(Object.entries(NETWORKS).map(([name, licences]) => [name, new Set(licences)])),
    practitioners: new Map(PRACTITIONERS.map((p) => [p.license, p])),
    contracts: loadContracts(),
  };
}

/** Coverage period in UTC dates for the calendar year of `now`. */
export function coveragePeriod(def: CoverageDef, now: Date): { start: string; end: string } {
  const year = now.getUTCFullYear() + (def.period === "lapsed" ? -1 : def.period === "future" ? 1 : 0);
  return { start: `${year}-01-01`, end: `${year}-12-31` };
}
