import { sql } from "drizzle-orm";
import { boolean, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from "drizzle-orm/pg-core";

const utc = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * Front desk: the clinic's patient registry, their coverages, the insurers (payers) the clinic
 * works with, and every eligibility check sent to the platform with its answer.
 *
 * Patient data (national ID, names, birth date, phone) lives only in these rows; logs and audit
 * details refer to patients by their internal UUID.
 */

export const PATIENT_GENDERS = ["female", "male", "other", "unknown"] as const;
export type PatientGender = (typeof PATIENT_GENDERS)[number];

/**
 * The identity document a patient's number comes from (the exchange's Patient identifier slices,
 * lib/fhir/nphies PATIENT_DOCUMENTS): national ID, Iqama (resident permit), passport or border
 * number (docs/decisions/084).
 */
export const PATIENT_DOCUMENT_TYPES = ["nationalId", "iqama", "passport", "borderNumber"] as const;
export type PatientDocumentType = (typeof PATIENT_DOCUMENT_TYPES)[number];

/** An insurer (payer) on the platform: its Organization id (`payer-…`) and display names. */
export const insurers = pgTable("insurers", {
  id: text("id").primaryKey(),
  nameEn: text("name_en").notNull(),
  nameAr: text("name_ar").notNull(),
  /** The payer's licence on the national exchange (`http://nphies.sa/license/payer-license`), when known. */
  license: text("license"),
  active: boolean("active").notNull().default(true),
  createdAt: utc("created_at").notNull().defaultNow(),
});

export const patients = pgTable(
  "patients",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /**
     * The document's number (national ID, Iqama, passport or border number): the patient's id on
     * the platform (`Patient/<nationalId>`). The column keeps its first name.
     */
    nationalId: text("national_id").notNull(),
    /** Which document `national_id` is the number of (docs/decisions/084). */
    documentType: text("document_type").$type<PatientDocumentType>().notNull().default("nationalId"),
    givenName: text("given_name").notNull(),
    familyName: text("family_name").notNull(),
    birthDate: date("birth_date", { mode: "string" }).notNull(),
    gender: text("gender").$type<PatientGender>().notNull(),
    /** E.164, e.g. +966512345678; optional. */
    phone: text("phone"),
    /** v3-MaritalStatus code (the exchange's Minimum Data Set requires Patient.maritalStatus, docs/decisions/103); null: not asked yet. */
    maritalStatus: text("marital_status"),
    /** The exchange's occupation code (extension-occupation, decision 118); null: not asked (sent as "unknown"). */
    occupation: text("occupation"),
    /** The exchange's religion code (extension-patient-religion, optional); null: not asked, not sent. */
    religion: text("religion"),
    /** A newborn's mother (docs/decisions/110): the baby is checked and billed under her coverage for its first 30 days. */
    motherId: uuid("mother_id").references((): AnyPgColumn => patients.id, { onDelete: "set null" }),
    /** A newborn's time of birth, HH:MM (the clinic's clock). */
    birthTime: text("birth_time"),
    /** A newborn's birth weight in grams (exact; sent in kilograms, guide 6.5 and Table 35). */
    birthWeightGrams: integer("birth_weight_grams"),
    createdBy: uuid("created_by"),
    createdAt: utc("created_at").notNull().defaultNow(),
    updatedAt: utc("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("patients_national_id_uq").on(t.nationalId),
    index("patients_family_name_idx").on(sql`lower(${t.familyName})`),
    index("patients_given_name_idx").on(sql`lower(${t.givenName})`),
    index("patients_mother_idx").on(t.motherId),
  ],
);

/** A patient's insurance with one insurer: the member/policy number and the platform's Coverage id. */
export const coverages = pgTable(
  "coverages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    patientId: uuid("patient_id")
      .notNull()
      .references(() => patients.id, { onDelete: "cascade" }),
    insurerId: text("insurer_id")
      .notNull()
      .references(() => insurers.id),
    /** Member / policy number as printed on the insurance card. */
    memberId: text("member_id").notNull(),
    /** The Coverage id used on the platform, e.g. `cov-1000000001` (`Coverage/<id>`). */
    coverageRef: text("coverage_ref").notNull(),
    /**
     * The payer's provider network and the coverage class (Coverage.class, plan class); '' when
     * not known. They pick the class and network rows of the payer's contract (docs/decisions/089).
     */
    network: text("network").notNull().default(""),
    coverageClass: text("coverage_class").notNull().default(""),
    /**
     * The card's expiry date (a calendar day, the last day it covers); null: not given. Shown on the
     * patient's coverages, warned of on the forms, sent as Coverage.period.end (decision 126).
     */
    expiresOn: date("expires_on", { mode: "string" }),
    createdBy: uuid("created_by"),
    createdAt: utc("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("coverages_patient_idx").on(t.patientId),
    uniqueIndex("coverages_patient_insurer_member_uq").on(t.patientId, t.insurerId, t.memberId),
  ],
);

/**
 * `in_force` / `not_in_force`: the platform answered with a CoverageEligibilityResponse;
 * `rejected`: it answered with an OperationOutcome (error_code ERR-00x when it carried one).
 */
export const ELIGIBILITY_OUTCOMES = ["in_force", "not_in_force", "rejected"] as const;
export type EligibilityOutcome = (typeof ELIGIBILITY_OUTCOMES)[number];

/** One eligibility check as sent and as answered; reopened from the patient page. */
export const eligibilityChecks = pgTable(
  "eligibility_checks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    patientId: uuid("patient_id")
      .notNull()
      .references(() => patients.id, { onDelete: "cascade" }),
    coverageId: uuid("coverage_id").references(() => coverages.id, { onDelete: "set null" }),
    insurerId: text("insurer_id").notNull(),
    servicedDate: date("serviced_date", { mode: "string" }).notNull(),
    purposes: text("purposes").array().$type<string[]>().notNull(),
    categories: text("categories").array().$type<string[]>().notNull().default(sql`'{}'::text[]`),
    /** X-Request-ID of the call. */
    requestId: text("request_id").notNull(),
    /** CoverageEligibilityRequest.identifier[0].value. */
    identifierValue: text("identifier_value").notNull(),
    request: jsonb("request").$type<Record<string, unknown>>().notNull(),
    /** The CoverageEligibilityResponse exactly as received, or the OperationOutcome for a rejected check. */
    response: jsonb("response").$type<Record<string, unknown>>(),
    /** What the portal read from it when it arrived (lib/fhir readCoverageEligibilityResponse view). */
    responseView: jsonb("response_view").$type<Record<string, unknown>>(),
    outcome: text("outcome").$type<EligibilityOutcome>().notNull(),
    /** insurance[0].inforce; null when rejected. */
    inforce: boolean("inforce"),
    errorCode: text("error_code"),
    /** The form field a refusal concerns (patientId, coverageId, categories …, or form). */
    errorField: text("error_field"),
    httpStatus: integer("http_status"),
    checkedBy: uuid("checked_by"),
    checkedAt: utc("checked_at").notNull().defaultNow(),
  },
  (t) => [index("eligibility_checks_patient_idx").on(t.patientId, t.checkedAt.desc())],
);

/**
 * An eligibility the insurer gave while the exchange could not be reached (docs/decisions/111):
 * its reference and the day it was given, recorded at the front desk; a claim for the patient on
 * this coverage carries it (extension-eligibility-offline-reference / -date, guide Table 10).
 * Owned by lib/patients (the front desk records it, as it records the coverage).
 */
export const offlineEligibilities = pgTable(
  "offline_eligibilities",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    patientId: uuid("patient_id")
      .notNull()
      .references(() => patients.id, { onDelete: "cascade" }),
    coverageId: uuid("coverage_id")
      .notNull()
      .references(() => coverages.id, { onDelete: "cascade" }),
    reference: text("reference").notNull(),
    givenOn: date("given_on", { mode: "string" }).notNull(),
    recordedBy: uuid("recorded_by"),
    createdAt: utc("created_at").notNull().defaultNow(),
  },
  (t) => [index("offline_eligibilities_coverage_idx").on(t.coverageId, t.givenOn)],
);
