/**
 * The scrubber measured (docs/decisions/090, 091): 200 generated claims, a share of them with a
 * seeded defect, each (1) scrubbed by the portal's scrubber exactly as queueDraft does, (2) stored
 * through lib/submissions so later claims see it (duplicates), and (3) adjudicated in-process by
 * the sandbox's own engine with the same contract file. Prints: what the sandbox would reject
 * without the scrubber, what the scrubber catches before sending, false alarms, misses per defect,
 * and the front-desk estimate's patient share against the sandbox's on 50 clean claims.
 *
 * Two sets of codes: `cpt` (the spec's REST: institutional claims with the curated CPT list) and
 * `exchange` (the national exchange's messaging: institutional and professional claims with the
 * demo catalogue's services, laboratory and imaging codes). Both run by default, one after the other.
 *
 *   npx tsx scripts/scrub-measure.ts [--seed 7] [--codes cpt|exchange|both]
 *
 * Runs on an in-memory database; nothing leaves the machine.
 */
// The owner reads boot hands down (the scrubber's payer filing windows among them): this process queues or sends itself.
import "@/lib/server/testing/owner-reads";
import { randomUUID } from "node:crypto";
import { openDatabase } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { coverages, eligibilityChecks, patients } from "@/lib/db";
import { computeShares, contractPriceFor, seedDemoContracts, vatPercentFor, type BenefitTerms } from "@/lib/contracts";
import { benefitCategoryOf, CODE_SYSTEMS, nphies, priceListSystemKey } from "@/lib/fhir";
import { seedDemoPatients } from "@/lib/patients";
import { scrubClaim } from "@/lib/scrubber";
import { submit } from "@/lib/submissions";
import { adjudicate, annualTermsOf, type AdjudicationResult } from "@/sandbox/adjudication";
import { buildReferenceData } from "@/sandbox/reference-data";
import { validateClaim } from "@/sandbox/validation";
import { eq } from "drizzle-orm";

type Defect = "none" | "price" | "no-authorization" | "lapsed-coverage" | "gender" | "duplicate" | "late" | "excluded";
const DEFECTS: Defect[] = ["price", "no-authorization", "lapsed-coverage", "gender", "duplicate", "late", "excluded"];

/** Deterministic pseudo-random numbers (mulberry32), so a run can be repeated. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PATIENTS = [
  { id: "1000000001", coverage: "cov-1000000001", insurer: "payer-rimal", gender: "female" },
  { id: "2087654311", coverage: "cov-2087654311", insurer: "payer-rimal", gender: "male" },
  { id: "1048573628", coverage: "cov-1048573628", insurer: "payer-nakheel", gender: "female" },
  // Class C: an annual deductible and out-of-pocket maximum, so the estimate comparison exercises them (decision 091).
  { id: "1087654321", coverage: "cov-1087654321", insurer: "payer-nakheel", gender: "female" },
];
const LAPSED = { id: "1000000002", coverage: "cov-1000000002", insurer: "payer-wadi", gender: "male" };
/** A line's code: its system (canonical URL) and code. */
interface Code {
  system: string;
  code: string;
}

type CodeSet = "cpt" | "exchange";

/** What each set bills: clean services, the defects' codes, and the claim types its claims take. */
interface Codes {
  /** Services every in-force coverage above covers. */
  clean: Code[];
  /** Codes whose contract row asks a prior authorization. */
  needsAuthorization: Code[];
  /** A code every plan excludes (lib/fhir EXCLUDED_SERVICES). */
  excluded: Code;
  /** A service the clinical table gives to women only (none: the misfit is seeded by a diagnosis only). */
  womenOnly?: Code;
  claimTypes: string[];
}

const cpt = (code: string): Code => ({ system: CODE_SYSTEMS.cpt, code });
const S = nphies.SYSTEMS;
const CODE_SETS: Record<CodeSet, Codes> = {
  // Consultations and laboratory.
  cpt: { clean: ["99213", "99214", "85025", "80053", "83036", "36415", "81001"].map(cpt), needsAuthorization: ["72148", "70553"].map(cpt), excluded: cpt("15823"), claimTypes: ["institutional"] },
  // The demo catalogue's consultations, laboratory and imaging (lib/terminology, sandbox/catalogue.ts).
  exchange: {
    clean: [
      { system: S.services, code: "SVC-0101" },
      { system: S.services, code: "SVC-0102" },
      { system: S.laboratory, code: "LAB-4001" },
      { system: S.laboratory, code: "LAB-4002" },
      { system: S.laboratory, code: "LAB-4003" },
      { system: S.imaging, code: "IMG-3001" },
      { system: S.imaging, code: "IMG-3002" },
    ],
    needsAuthorization: [
      { system: S.imaging, code: "IMG-3003" },
      { system: S.procedures, code: "PRC-1003" },
    ],
    excluded: { system: S.services, code: "SVC-0403" },
    womenOnly: { system: S.services, code: "PKG-0501" },
    claimTypes: ["institutional", "professional"],
  },
};

const REJECTING = new Set(["price-list", "preauth-required", "coverage-inactive", "ar001", "quantity-limit", "package-included"]);
const sandboxRejects = (r: AdjudicationResult) => r.items.some((i) => i.denied || (i.reason !== undefined && REJECTING.has(i.reason)));

async function main() {
  const seedArg = process.argv.indexOf("--seed");
  const seed = seedArg > 0 ? Number(process.argv[seedArg + 1]) : 7;
  const codesArg = process.argv.indexOf("--codes");
  const which = codesArg > 0 ? process.argv[codesArg + 1] : "both";
  const sets: CodeSet[] = which === "both" ? ["cpt", "exchange"] : which === "cpt" || which === "exchange" ? [which] : [];
  if (sets.length === 0) throw new Error(`--codes: cpt, exchange or both, not ${which}`);
  for (const set of sets) {
    console.log(`== ${set === "cpt" ? "CPT (the spec's REST)" : "the exchange's own codes (messaging)"}, seed ${seed} ==`);
    await measure(set, seed);
  }
}

async function measure(set: CodeSet, seed: number) {
  const codes = CODE_SETS[set];
  const random = rng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

  const database = await openDatabase({ kind: "pglite-memory" });
  await runMigrations(database);
  const db = database.db;
  await seedDemoPatients(db);
  await seedDemoContracts(db);
  // The class C patient is one of the sandbox's training identities, not a portal demo patient.
  const [sara] = await db.insert(patients).values({ nationalId: "1087654321", documentType: "nationalId", givenName: "Sara", familyName: "Pharmacy", birthDate: "1970-06-30", gender: "female" }).returning({ id: patients.id });
  await db.insert(coverages).values({ patientId: sara!.id, insurerId: "payer-nakheel", memberId: "NKL-55400", coverageRef: "cov-1087654321" });
  const now = new Date();
  const today = now.toISOString().slice(0, 10);
  // The front desk checked eligibility today: in force for the three, not for the lapsed coverage.
  for (const p of [...PATIENTS, LAPSED]) {
    const [row] = await db.select({ id: patients.id }).from(patients).where(eq(patients.nationalId, p.id));
    const inforce = p !== LAPSED;
    await db.insert(eligibilityChecks).values({
      patientId: row!.id,
      insurerId: p.insurer,
      servicedDate: today,
      purposes: ["benefits", "validation"],
      requestId: randomUUID(),
      identifierValue: randomUUID(),
      request: {},
      outcome: inforce ? "in_force" : "not_in_force",
      inforce,
      checkedAt: now,
    });
  }

  const reference = buildReferenceData("clinic-001");
  const consumedByRun = new Map<string, number>();
  const consumed = (coverageId: string, category: string, year: number) => consumedByRun.get(`${coverageId}|${category}|${year}`) ?? 0;
  const ctx = { now: now.getTime(), reference, consumed, findPreAuth: () => undefined };
  const earlier: { patient: string; code: Code; date: string }[] = [];

  const tally = { claims: 0, defective: 0, sandboxRejects: 0, sandboxRejectsDefective: 0, caughtErrors: 0, caughtWarnings: 0, caughtDefective: 0, falseAlarms: 0 };
  const perDefect = new Map<Defect, { seeded: number; sandbox: number; scrubber: number }>();
  const estimate = { compared: 0, exact: 0, maxDiffMinor: 0, withAnnual: 0, annualChanged: 0 };

  for (let n = 0; n < 200; n++) {
    const defect: Defect = random() < 0.4 ? pick(DEFECTS) : "none";
    let patient = pick(PATIENTS);
    let code = pick(codes.clean);
    // A clean claim is a new service: a code and day this patient has not had claimed yet (days of
    // this calendar year, the coverage's period).
    let servicedDate = today;
    for (let tries = 0; tries < 50 && defect !== "duplicate" && earlier.some((e) => e.patient === patient.id && e.code.system === code.system && e.code.code === code.code && e.date === servicedDate); tries++) {
      code = pick(codes.clean);
      const back = Math.floor(random() * 60);
      const day = new Date(Math.max(now.getTime() - back * 86_400_000, Date.UTC(now.getUTCFullYear(), 0, 1)));
      servicedDate = day.toISOString().slice(0, 10);
    }
    let diagnosis = "R51";
    if (defect === "no-authorization") code = pick(codes.needsAuthorization);
    if (defect === "lapsed-coverage") patient = LAPSED;
    if (defect === "gender") {
      patient = PATIENTS[1]!; // a man
      // A pregnancy check, or (where the clinical table has one) a service for women only.
      if (codes.womenOnly && random() < 0.5) code = codes.womenOnly;
      else diagnosis = "Z34.9";
    }
    if (defect === "duplicate") {
      const before = earlier.length ? pick(earlier) : undefined;
      if (before) {
        patient = [...PATIENTS, LAPSED].find((p) => p.id === before.patient)!;
        code = before.code;
        servicedDate = before.date;
      }
    }
    if (defect === "late") servicedDate = new Date(now.getTime() - 400 * 86_400_000).toISOString().slice(0, 10);
    if (defect === "excluded") code = codes.excluded; // cosmetic: excluded by every plan
    // One claim type draws nothing, so the CPT run's claims are the ones it always generated for a seed.
    const claimType = codes.claimTypes.length > 1 ? pick(codes.claimTypes) : codes.claimTypes[0]!;
    const contract = await contractPriceFor(db, { insurerId: patient.insurer, system: priceListSystemKey(code.system)!, code: code.code, date: servicedDate });
    const listPrice = contract?.priceMinor ?? 10_000;
    const priceMinor = defect === "price" ? listPrice + 2_500 : listPrice;
    const quantity = 1;

    const claim = {
      resourceType: "Claim",
      identifier: [{ system: "https://clinic.example/measure", value: randomUUID() }],
      status: "active",
      type: { coding: [{ system: CODE_SYSTEMS.claimType, code: claimType }] },
      use: "claim",
      patient: { reference: `Patient/${patient.id}` },
      created: now.toISOString(),
      provider: { reference: "Organization/clinic-001" },
      insurer: { reference: `Organization/${patient.insurer}` },
      priority: { coding: [{ system: CODE_SYSTEMS.processPriority, code: "normal" }] },
      insurance: [{ sequence: 1, focal: true, coverage: { reference: `Coverage/${patient.coverage}` } }],
      diagnosis: [{ sequence: 1, diagnosisCodeableConcept: { coding: [{ system: CODE_SYSTEMS.icd10am, code: diagnosis }] } }],
      item: [{ sequence: 1, productOrService: { coding: [{ system: code.system, code: code.code }] }, servicedDate, quantity: { value: quantity }, unitPrice: { value: priceMinor / 100, currency: "SAR" } }],
    };

    // (1) The scrubber, as queueDraft runs it (before the claim is stored).
    const scrub = await scrubClaim(db, { kind: "claim", patientNationalId: patient.id, insurerId: patient.insurer, claim }, now);
    // (2) Sent anyway (the baseline sends everything): stored through the pipeline so later claims see it.
    await submit({ db, clock: () => now }, { kind: "claim", patientNationalId: patient.id, insurerId: patient.insurer, claim, channel: "measure", source: "system" }, { acknowledgeWarnings: true, overrideReason: "measurement baseline" });
    earlier.push({ patient: patient.id, code, date: servicedDate });
    // (3) The sandbox's decision.
    const validated = validateClaim(claim, reference, "clinic-001");
    const result = adjudicate(validated, ctx);
    for (const c of result.consumption) consumedByRun.set(`${c.coverageId}|${c.category}|${c.year}`, consumed(c.coverageId, c.category, c.year) + c.amount);

    const caught = scrub.errors.length > 0 || scrub.warnings.length > 0;
    const rejects = sandboxRejects(result);
    tally.claims++;
    if (rejects) tally.sandboxRejects++;
    if (scrub.errors.length > 0) tally.caughtErrors++;
    else if (scrub.warnings.length > 0) tally.caughtWarnings++;
    if (defect !== "none") {
      tally.defective++;
      if (rejects) tally.sandboxRejectsDefective++;
      if (caught) tally.caughtDefective++;
      const d = perDefect.get(defect) ?? { seeded: 0, sandbox: 0, scrubber: 0 };
      d.seeded++;
      if (rejects) d.sandbox++;
      if (caught) d.scrubber++;
      perDefect.set(defect, d);
    } else if (caught) tally.falseAlarms++;

    // (4) The front-desk estimate on clean claims, against the sandbox's patient share.
    if (defect === "none" && estimate.compared < 50) {
      const coverage = reference.coverages.get(patient.coverage)!;
      const year = now.getUTCFullYear();
      // What the eligibility answer of this moment says: copay and remaining per category.
      // What the answer said before this claim: its own consumption taken back out.
      const before = (key: string) => consumed(coverage.id, key, year) - (result.consumption.find((c) => c.category === key)?.amount ?? 0);
      const terms: BenefitTerms[] = coverage.benefits.map((b) => ({ category: b.category, copayPercent: b.copayPercent, remainingMinor: Math.max(0, b.allowed - b.used - before(b.category)) }));
      const annual = annualTermsOf(coverage, year, before);
      if (annual.deductibleMinor !== undefined || annual.outOfPocketMaxMinor !== undefined) estimate.withAnnual++;
      // The code's category in its own list: the shared list the sandbox's catalogue reads (lib/fhir).
      const category = benefitCategoryOf(code.system, code.code);
      const shareLine = { sequence: 1, code: code.code, ...(category ? { category } : {}), quantity, unitPriceMinor: priceMinor, ...(contract ? { contractPriceMinor: contract.priceMinor } : {}) };
      const [line] = computeShares([shareLine], terms, vatPercentFor(patient.id), annual);
      // Whether the deductible or the out-of-pocket maximum changed the share (the comparison exercises them).
      if (computeShares([shareLine], terms, vatPercentFor(patient.id))[0]!.patientMinor !== line!.patientMinor) estimate.annualChanged++;
      const sandboxShare = result.items.reduce((s, i) => s + i.copay, 0);
      estimate.compared++;
      if (line!.patientMinor === sandboxShare) estimate.exact++;
      estimate.maxDiffMinor = Math.max(estimate.maxDiffMinor, Math.abs(line!.patientMinor - sandboxShare));
    }
  }
  await database.close();

  const pct = (a: number, b: number) => (b === 0 ? "–" : `${((100 * a) / b).toFixed(1)} %`);
  console.log(`Claims generated: ${tally.claims} (${tally.defective} with a seeded defect, ${tally.claims - tally.defective} clean)`);
  console.log(`Without the scrubber, the sandbox rejects or cuts: ${tally.sandboxRejects} claims (${tally.sandboxRejectsDefective} of them defective)`);
  console.log(`The scrubber stops before sending: ${tally.caughtErrors + tally.caughtWarnings} claims (${tally.caughtErrors} blocked by errors, ${tally.caughtWarnings} asked with warnings)`);
  console.log(`  defective claims caught: ${tally.caughtDefective} of ${tally.defective} (${pct(tally.caughtDefective, tally.defective)})`);
  console.log(`  false alarms (clean claims stopped): ${tally.falseAlarms} of ${tally.claims - tally.defective}`);
  console.log("Per defect (seeded / sandbox rejects / scrubber catches):");
  for (const d of DEFECTS) {
    const v = perDefect.get(d) ?? { seeded: 0, sandbox: 0, scrubber: 0 };
    console.log(`  ${d.padEnd(18)} ${String(v.seeded).padStart(3)} / ${String(v.sandbox).padStart(3)} / ${String(v.scrubber).padStart(3)}`);
  }
  console.log(`Estimate vs the sandbox's patient share: exact on ${estimate.exact} of ${estimate.compared} clean claims (largest difference ${(estimate.maxDiffMinor / 100).toFixed(2)} SAR)`);
  console.log(`  of them under an annual deductible / out-of-pocket maximum: ${estimate.withAnnual} (the share changed by them on ${estimate.annualChanged})`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
