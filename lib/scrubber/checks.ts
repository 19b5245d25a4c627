import clinical from "./rules/clinical-table.json";
import { formatMinorUnits, nphies } from "@/lib/fhir";
import type { ScrubFacts, Words } from "./types";

/**
 * The checks the rule files name (docs/decisions/090): each takes the facts and the rule's
 * params and returns the places it finds a problem, with the values its words need. Pure.
 */
export type Hit = { sequence?: number; values: Record<string, string | number | Words> };
export type Check = (facts: ScrubFacts, params: Record<string, number | string | boolean>) => Hit[];

interface TableRow {
  /** Services: the code's list as a price-list system key (`services`, …); absent = CPT (the table's first rows). */
  system?: string;
  code: string;
  gender?: "female" | "male";
  minAge?: number;
  maxAge?: number;
  why: Words;
}
const SERVICES = clinical.services as TableRow[];
const DIAGNOSES = clinical.diagnoses as TableRow[];

/** Whole years between a birth date and a day (both YYYY-MM-DD). */
export function ageOn(birthDate: string, day: string): number {
  const [by, bm, bd] = birthDate.split("-").map(Number) as [number, number, number];
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

const matches = (row: TableRow, code: string, system?: string) =>
  (system === undefined || (row.system ?? "cpt") === system) && (row.code.endsWith("*") ? code.startsWith(row.code.slice(0, -1)) : row.code === code);
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** The rows of the clinical table a patient does not fit, for one dimension. */
function misfits(rows: TableRow[], code: string, patient: { birthDate: string; gender: string }, day: string, dimension: "age" | "gender" | "both", system?: string): TableRow[] {
  const age = ageOn(patient.birthDate, day);
  return rows.filter((r) => {
    if (!matches(r, code, system)) return false;
    const genderBad = r.gender !== undefined && (patient.gender === "female" || patient.gender === "male") && patient.gender !== r.gender;
    const ageBad = (r.minAge !== undefined && age < r.minAge) || (r.maxAge !== undefined && age > r.maxAge);
    return dimension === "gender" ? genderBad : dimension === "age" ? ageBad : genderBad || ageBad;
  });
}

/** The authorization that covers a code, if any of the referenced ones does. */
const covering = (facts: ScrubFacts, code: string) => facts.authorizations.filter((a) => a.lines.some((l) => l.code === code));
const needsAuth = (facts: ScrubFacts) => facts.items.filter((i) => i.contract?.authorizationRequired);
const inPeriod = (a: { periodStart?: string; periodEnd?: string }, day: string) => (!a.periodStart || day >= a.periodStart) && (!a.periodEnd || day <= a.periodEnd);
const VITAL_SIGNS = ["vital-sign-weight", "vital-sign-height", "vital-sign-systolic", "vital-sign-diastolic", "temperature", "pulse", "respiratory-rate", "oxygen-saturation"];
const PLAN_EXCLUSION: Words = { en: "no plan of the payer covers it (cosmetic)", ar: "لا تغطيها أي خطة لدى الجهة الدافعة (تجميلية)" };
const size = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

export const CHECKS: Readonly<Record<string, Check>> = {
  coverageInForce: (f) => {
    if (f.eligibility?.inforce !== false) return [];
    const date = f.items.map((i) => i.servicedDate).sort()[0] ?? f.eligibility.servicedDate;
    return [{ values: { checked: f.eligibility.checkedAt.slice(0, 10), date } }];
  },
  serviceExcluded: (f) =>
    f.items.flatMap((i) => {
      if (i.excluded) return [{ sequence: i.sequence, values: { sequence: i.sequence, code: i.code, why: PLAN_EXCLUSION } }];
      if (i.category && f.eligibility?.excludedCategories?.includes(i.category)) {
        const checked = f.eligibility.checkedAt.slice(0, 10);
        return [{ sequence: i.sequence, values: { sequence: i.sequence, code: i.code, why: { en: `the eligibility answer of ${checked} says benefit category ${i.category} is not covered`, ar: `رد التحقق من الأهلية في ${checked} يفيد بأن فئة المنافع ${i.category} غير مشمولة` } } }];
      }
      return [];
    }),
  // A claim relying on an offline eligibility (docs/decisions/111) is not "unconfirmed".
  eligibilityUnconfirmed: (f) => (f.eligibilityUnconfirmed === undefined || f.offline?.eligibility?.reference ? [] : [{ values: { date: f.items.map((i) => i.servicedDate).sort()[0] ?? f.today } }]),
  // Nor is a claim relying on an offline authorization "without an authorization" (its reference is a preAuthRef the portal never stored).
  authorizationMissing: (f) => (f.authorizations.length > 0 || (f.offline?.authorization && f.preAuthRefs.length > 0) ? [] : needsAuth(f).map((i) => ({ sequence: i.sequence, values: { sequence: i.sequence, code: i.code } }))),
  offlineReferenceMissing: (f) => [
    ...(f.offline?.eligibility && !f.offline?.eligibility.reference ? [{ values: { what: { en: "offline eligibility", ar: "الأهلية دون اتصال" } } }] : []),
    ...(f.offline?.authorization && f.preAuthRefs.length === 0 ? [{ values: { what: { en: "offline authorization", ar: "الموافقة دون اتصال" } } }] : []),
  ],
  offlineAfterService: (f) => {
    const first = f.items.map((i) => i.servicedDate).filter(Boolean).sort()[0];
    if (!first) return [];
    const late = (date: string | undefined, what: Words) => (date && date > first ? [{ values: { what, date, service: first } }] : []);
    return [
      ...late(f.offline?.eligibility?.date, { en: "offline eligibility", ar: "الأهلية دون اتصال" }),
      ...late(f.offline?.authorization?.date, { en: "offline authorization", ar: "الموافقة دون اتصال" }),
    ];
  },
  authorizationOtherService: (f) =>
    f.authorizations.length === 0 ? [] : needsAuth(f).filter((i) => covering(f, i.code).length === 0).map((i) => ({ sequence: i.sequence, values: { sequence: i.sequence, code: i.code } })),
  authorizationExpired: (f) =>
    needsAuth(f).flatMap((i) => {
      const auths = covering(f, i.code);
      if (auths.length === 0 || auths.some((a) => inPeriod(a, i.servicedDate))) return [];
      const a = auths[0]!;
      return [{ sequence: i.sequence, values: { sequence: i.sequence, code: i.code, date: i.servicedDate, period: `${a.periodStart ?? "…"} – ${a.periodEnd ?? "…"}` } }];
    }),
  authorizationUsedUp: (f) => {
    // Lines of this claim draw on the same authorization in order.
    const drawn = new Map<string, number>();
    return needsAuth(f).flatMap((i) => {
      const auths = covering(f, i.code).filter((a) => inPeriod(a, i.servicedDate));
      if (auths.length === 0) return [];
      const remaining = auths.reduce((sum, a) => sum + a.lines.filter((l) => l.code === i.code).reduce((s, l) => s + Math.max(0, l.approved - l.used), 0), 0) - (drawn.get(i.code) ?? 0);
      drawn.set(i.code, (drawn.get(i.code) ?? 0) + i.quantity);
      return i.quantity > remaining ? [{ sequence: i.sequence, values: { sequence: i.sequence, code: i.code, quantity: i.quantity, remaining: Math.max(0, remaining) } }] : [];
    });
  },
  serviceAgeGender: (f) =>
    !f.patient ? [] : f.items.flatMap((i) => misfits(SERVICES, i.code, f.patient!, i.servicedDate, "both", i.system || undefined).slice(0, 1).map((r) => ({ sequence: i.sequence, values: { sequence: i.sequence, code: i.code, why: r.why } }))),
  diagnosisAge: (f) => {
    const day = f.items[0]?.servicedDate ?? f.today;
    return !f.patient ? [] : f.diagnoses.flatMap((code, index) => misfits(DIAGNOSES, code, f.patient!, day, "age").slice(0, 1).map((r) => ({ values: { index, code, why: r.why } })));
  },
  diagnosisGender: (f) => {
    const day = f.items[0]?.servicedDate ?? f.today;
    return !f.patient ? [] : f.diagnoses.flatMap((code, index) => misfits(DIAGNOSES, code, f.patient!, day, "gender").slice(0, 1).map((r) => ({ values: { index, code, why: r.why } })));
  },
  duplicateService: (f) => f.items.filter((i) => i.alreadyClaimed).map((i) => ({ sequence: i.sequence, values: { sequence: i.sequence, code: i.code, date: i.servicedDate } })),
  contractPriceDiffers: (f) =>
    f.items
      .filter((i) => i.contract && i.contract.priceMinor !== i.unitPriceMinor)
      .map((i) => ({ sequence: i.sequence, values: { sequence: i.sequence, code: i.code, date: i.servicedDate, price: formatMinorUnits(i.unitPriceMinor), contract: formatMinorUnits(i.contract!.priceMinor) } })),
  contractPriceMissing: (f) => (f.insurerId === undefined ? [] : f.items.filter((i) => !i.contract).map((i) => ({ sequence: i.sequence, values: { sequence: i.sequence, code: i.code, date: i.servicedDate } }))),
  supportingInfoMissing: (f) => {
    // Only claims that name the exchange's care setting and subtype (the exchange's message); the
    // portal's simple REST-dialect claim (no subtype) carries no supporting information at all.
    if (!f.subType || !nphies.isClaimType(f.claimType)) return [];
    return nphies.requiredSupportingInfo(f.claimType as nphies.ClaimType, f.subType, f.use).filter((c) => !f.supportingInfo.includes(c)).map((category) => ({ values: { type: f.claimType!, category, what: f.use === "preauthorization" ? { en: "prior authorization", ar: "طلب الموافقة المسبقة" } : { en: "claim", ar: "المطالبة" } } }));
  },
  emergencyVitalSigns: (f) => (f.subType === "emr" && !f.supportingInfo.some((c) => VITAL_SIGNS.includes(c)) ? [{ values: {} }] : []),
  filingWindow: (f, params) => {
    const days = f.filingDays ?? Number(params.days ?? 365);
    return f.items.filter((i) => daysBetween(i.servicedDate, f.today) > days).map((i) => ({ sequence: i.sequence, values: { sequence: i.sequence, date: i.servicedDate, days } }));
  },
  messageTooLarge: (f) => (f.messageBytes > f.messageLimitBytes ? [{ values: { size: size(f.messageBytes), limit: size(f.messageLimitBytes) } }] : []),
};
