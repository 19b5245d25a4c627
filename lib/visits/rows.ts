import { z } from "zod";
import type { VisitRowProblem } from "@/lib/db";
import { checkNationalId, findCode } from "@/lib/fhir";
import { isCalendarDate } from "@/lib/time";
import { isCardDate } from "@/lib/patients";
import { parseCsv } from "./csv";

/**
 * One visit of a list, as the front desk's CSV, the exchange API and the gateway give it. Only
 * `nationalId` and `serviceDate` are required; names etc. serve to register an unknown patient.
 */
export const VisitRowSchema = z.object({
  nationalId: z.string().max(20).meta({ description: "National ID or Iqama (10 digits, check digit)." }),
  serviceDate: z.string().max(20).meta({ description: "Date of service, YYYY-MM-DD." }),
  insurer: z.string().max(100).optional().meta({ description: "Insurer id (payer-…) or name; optional — otherwise the patient's first coverage." }),
  services: z.array(z.string().max(20)).max(20).optional().meta({ description: "Planned services (CPT codes)." }),
  givenName: z.string().max(80).optional(),
  familyName: z.string().max(80).optional(),
  birthDate: z.string().max(20).optional(),
  gender: z.enum(["female", "male", "other", "unknown"]).optional(),
  memberId: z.string().max(40).optional(),
  coverageRef: z.string().max(64).optional(),
  coverageExpiresOn: z
    .string()
    .max(20)
    .optional()
    .meta({ description: "The insurance card's expiry date, YYYY-MM-DD; optional. Kept on the coverage registered with a new patient (with memberId and coverageRef)." }),
});
export type VisitRowInput = z.infer<typeof VisitRowSchema>;

/** A row that passed every check. */
export interface GoodVisitRow {
  line: number;
  nationalId: string;
  serviceDate: string;
  insurerId?: string;
  services: string[];
  registration?: { givenName: string; familyName: string; birthDate: string; gender: string; memberId?: string; coverageRef?: string; coverageExpiresOn?: string };
}

export interface Insurer {
  id: string;
  nameEn: string;
  nameAr: string;
}

export interface RowCheckOptions {
  insurers: readonly Insurer[];
  allowSandboxTestIds: boolean;
}

const MSG = {
  missingColumn: (name: string) => ({ en: `The header has no "${name}" column.`, ar: `لا يحتوي سطر العناوين على العمود "${name}".` }),
  dateImpossible: (v: string) => ({ en: `"${v}" is not a real date (use YYYY-MM-DD, e.g. 2026-03-01).`, ar: `"${v}" ليس تاريخًا صحيحًا (استخدم الصيغة YYYY-MM-DD، مثل 2026-03-01).` }),
  dateMissing: { en: "Enter the date of service (YYYY-MM-DD).", ar: "أدخل تاريخ الخدمة (YYYY-MM-DD)." },
  insurerUnknown: (v: string) => ({ en: `Unknown insurer "${v}": use an insurer id such as payer-rimal or its name.`, ar: `شركة تأمين غير معروفة "${v}": استخدم معرّف الشركة مثل payer-rimal أو اسمها.` }),
  serviceUnknown: (v: string) => ({ en: `Unknown service code "${v}" (use a CPT code of the clinic's list).`, ar: `رمز خدمة غير معروف "${v}" (استخدم رمز CPT من قائمة العيادة).` }),
  coverageExpiry: (v: string) => ({ en: `"${v}" is not a real card expiry date (use YYYY-MM-DD, e.g. 2026-12-31).`, ar: `"${v}" ليس تاريخ انتهاء بطاقة صحيحًا (استخدم الصيغة YYYY-MM-DD، مثل 2026-12-31).` }),
  birthDate: (v: string) => ({ en: `"${v}" is not a real birth date (YYYY-MM-DD).`, ar: `"${v}" ليس تاريخ ميلاد صحيحًا (YYYY-MM-DD).` }),
  tooMany: (n: number) => ({ en: `A list holds at most ${n} visits.`, ar: `تتسع القائمة لـ ${n} زيارة على الأكثر.` }),
  noRows: { en: "The file has a header but no visits.", ar: "يحتوي الملف على سطر العناوين دون زيارات." },
};

export const MAX_VISITS_PER_LIST = 5_000;

/** Checks one row; problems name the field and say what to fix in both languages. */
export function checkVisitRow(row: VisitRowInput, line: number, options: RowCheckOptions): { good?: GoodVisitRow; problems: VisitRowProblem[] } {
  const problems: VisitRowProblem[] = [];
  const id = checkNationalId(row.nationalId ?? "", { allowSandboxTestIds: options.allowSandboxTestIds });
  if (!id.valid) problems.push({ line, field: "nationalId", code: `national_id_${id.problem}`, message: id.message });
  const date = (row.serviceDate ?? "").trim();
  if (!date) problems.push({ line, field: "serviceDate", code: "date_missing", message: MSG.dateMissing });
  else if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !isCalendarDate(date) || date < "2000-01-01" || date > "2100-12-31")
    problems.push({ line, field: "serviceDate", code: "date_impossible", message: MSG.dateImpossible(date) });
  let insurerId: string | undefined;
  const insurerText = row.insurer?.trim();
  if (insurerText) {
    const wanted = insurerText.toLowerCase();
    const found = options.insurers.find((i) => i.id.toLowerCase() === wanted || i.nameEn.toLowerCase() === wanted || i.nameAr === insurerText);
    if (found) insurerId = found.id;
    else problems.push({ line, field: "insurer", code: "insurer_unknown", message: MSG.insurerUnknown(insurerText) });
  }
  const services = [...new Set((row.services ?? []).map((s) => s.trim()).filter(Boolean))];
  for (const code of services) if (!findCode("cpt", code)) problems.push({ line, field: "services", code: "service_unknown", message: MSG.serviceUnknown(code) });
  let registration: GoodVisitRow["registration"];
  const given = row.givenName?.trim();
  const family = row.familyName?.trim();
  if (given && family) {
    const birth = row.birthDate?.trim() ?? "";
    if (birth && !isCalendarDate(birth)) problems.push({ line, field: "birthDate", code: "birth_date_impossible", message: MSG.birthDate(birth) });
    else if (birth) registration = { givenName: given, familyName: family, birthDate: birth, gender: row.gender ?? "unknown", ...(row.memberId?.trim() ? { memberId: row.memberId.trim() } : {}), ...(row.coverageRef?.trim() ? { coverageRef: row.coverageRef.trim() } : {}) };
  }
  // The card's expiry (decision 126): a real day from 2000 to 2100, or none.
  const expiry = row.coverageExpiresOn?.trim() ?? "";
  if (expiry && !isCardDate(expiry)) problems.push({ line, field: "coverageExpiresOn", code: "coverage_expiry_impossible", message: MSG.coverageExpiry(expiry) });
  else if (expiry && registration) registration = { ...registration, coverageExpiresOn: expiry };
  if (problems.length > 0) return { problems };
  return { good: { line, nationalId: id.value, serviceDate: date, ...(insurerId ? { insurerId } : {}), services, ...(registration ? { registration } : {}) }, problems };
}

const COLUMNS: Record<string, keyof VisitRowInput> = {
  national_id: "nationalId",
  nationalid: "nationalId",
  iqama: "nationalId",
  id: "nationalId",
  date: "serviceDate",
  service_date: "serviceDate",
  date_of_service: "serviceDate",
  insurer: "insurer",
  payer: "insurer",
  services: "services",
  planned_services: "services",
  given_name: "givenName",
  family_name: "familyName",
  birth_date: "birthDate",
  gender: "gender",
  member_id: "memberId",
  coverage_ref: "coverageRef",
  coverage_expiry: "coverageExpiresOn",
  card_expiry: "coverageExpiresOn",
  expires_on: "coverageExpiresOn",
};

/**
 * Reads a CSV visit list (header row first). Bad rows are reported by line with every reason and
 * never stop the good ones.
 */
export function readVisitCsv(text: string, options: RowCheckOptions): { good: GoodVisitRow[]; problems: VisitRowProblem[]; total: number } {
  const records = parseCsv(text);
  const [header, ...rows] = records;
  if (!header) return { good: [], problems: [{ line: 1, field: "file", code: "no_rows", message: MSG.noRows }], total: 0 };
  const columns = header.fields.map((h) => COLUMNS[h.trim().toLowerCase().replace(/[\s-]+/g, "_")]);
  const problems: VisitRowProblem[] = [];
  for (const required of ["nationalId", "serviceDate"] as const) {
    if (!columns.includes(required)) problems.push({ line: header.line, field: "file", code: "missing_column", message: MSG.missingColumn(required === "nationalId" ? "national_id" : "date") });
  }
  if (problems.length > 0) return { good: [], problems, total: rows.length };
  if (rows.length === 0) return { good: [], problems: [{ line: header.line, field: "file", code: "no_rows", message: MSG.noRows }], total: 0 };
  if (rows.length > MAX_VISITS_PER_LIST) return { good: [], problems: [{ line: header.line, field: "file", code: "too_many", message: MSG.tooMany(MAX_VISITS_PER_LIST) }], total: rows.length };
  const good: GoodVisitRow[] = [];
  for (const record of rows) {
    const row: Record<string, unknown> = {};
    columns.forEach((key, i) => {
      if (!key) return;
      const value = (record.fields[i] ?? "").trim();
      if (!value) return;
      row[key] = key === "services" ? value.split(/[\s;|]+/).filter(Boolean) : value;
    });
    if (row.gender !== undefined && !["female", "male", "other", "unknown"].includes(String(row.gender).toLowerCase())) delete row.gender;
    else if (row.gender !== undefined) row.gender = String(row.gender).toLowerCase();
    const checked = checkVisitRow(row as VisitRowInput, record.line, options);
    if (checked.good) good.push(checked.good);
    problems.push(...checked.problems);
  }
  return { good, problems, total: rows.length };
}

/** The same checks for a list sent as JSON (exchange API, gateway): `line` is the 1-based item. */
export function checkVisitItems(items: readonly VisitRowInput[], options: RowCheckOptions): { good: GoodVisitRow[]; problems: VisitRowProblem[]; total: number } {
  const good: GoodVisitRow[] = [];
  const problems: VisitRowProblem[] = [];
  items.forEach((item, i) => {
    const checked = checkVisitRow(item, i + 1, options);
    if (checked.good) good.push(checked.good);
    problems.push(...checked.problems);
  });
  return { good, problems, total: items.length };
}

const RunChoiceSchema = z.union([z.literal("now"), z.iso.datetime({ offset: true })]).meta({ description: '"now", or an ISO date-time with offset to schedule the run (e.g. the evening before).' });

/** The body the exchange API (`POST /api/exchange/visits`) and the gateway's record agent (`visits` task) take. */
export const VisitListBodySchema = z.object({
  name: z.string().trim().min(1).max(120).optional().meta({ description: "Shown in the portal; default: the date of the first visit." }),
  visits: z.array(VisitRowSchema).min(1).max(MAX_VISITS_PER_LIST),
  register: z.boolean().optional().meta({ description: "Register unknown patients whose rows carry givenName, familyName and birthDate." }),
  lowThresholdPercent: z.number().int().min(1).max(90).optional().meta({ description: "Remaining benefit below this share of the limit → benefit_low (default 20)." }),
  run: RunChoiceSchema.optional(),
});
export type VisitListBody = z.infer<typeof VisitListBodySchema>;

const ProblemSchema = z.object({ line: z.number().int(), field: z.string(), code: z.string(), message: z.object({ en: z.string(), ar: z.string() }) });

/** What a stored list answers: accepted and refused rows (by item number, with the reason), and the run. */
export const VisitListAnswerSchema = z.object({
  listId: z.string(),
  name: z.string(),
  accepted: z.number().int(),
  rejected: z.number().int(),
  registered: z.number().int(),
  notRegistered: z.number().int(),
  problems: z.array(ProblemSchema),
  run: z.object({ id: z.string(), status: z.string(), runAt: z.string(), total: z.number().int() }).optional(),
});

/** A list's progress and verdicts (`GET /api/exchange/visits/{id}`, record agent `visitsStatus`). */
export const VisitListStatusSchema = z.object({
  listId: z.string(),
  name: z.string(),
  runs: z.array(z.object({ id: z.string(), status: z.string(), runAt: z.string(), total: z.number().int(), done: z.number().int(), problems: z.number().int() })),
  visits: z.array(
    z.object({
      line: z.number().int(),
      nationalId: z.string(),
      serviceDate: z.string(),
      checked: z.boolean(),
      verdict: z.string().nullable().meta({ description: "in_force | not_in_force | no_coverage | benefit_exhausted | benefit_low | preauth_required | not_registered | platform_error; null until checked." }),
      problems: z.array(z.object({ verdict: z.string(), category: z.string().optional(), service: z.string().optional() })),
      eligibilityCheckId: z.string().nullable(),
    }),
  ),
});
