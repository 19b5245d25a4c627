import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { NextIntlClientProvider } from "next-intl";
import { useForm } from "react-hook-form";
import { describe, expect, it } from "vitest";
import ar from "@/lib/i18n/messages/ar.json";
import en from "@/lib/i18n/messages/en.json";
import { ITEM_SYSTEMS_BY_CLAIM_TYPE } from "@/lib/fhir/browser";
import * as mds from "@/lib/fhir/mds";
import { loadExchangeSubmissionFormSchema, loadSubmissionFormSchema } from "@/lib/submissions/browser";
import type { SubmissionFormInput } from "@/lib/submissions";
import VisitDetails, { prefillPaths } from "./visit-details";
import { ageInDays, visitDetailsPlan, type VisitDetailsInput } from "./visit-details-plan";

/*
 * The "Visit details" section (docs/decisions/103, 105): what it asks per care setting — the plan,
 * and the section rendered (server-side, the same component the browser hydrates) with its inputs
 * named by their form paths — and the messaging schema that turns what is missing into field errors.
 */

const TODAY = "2026-11-28";
const base: VisitDetailsInput = { use: "claim", claimType: "professional", subtype: "op", diagnoses: ["J06.9"], admission: "", discharge: "", emergencyDisposition: "", dischargeDisposition: "", today: TODAY };

function render(values: Partial<SubmissionFormInput>, options: { birthDate?: string; locale?: "en" | "ar" } = {}): string {
  function Harness() {
    const form = useForm<SubmissionFormInput>({ defaultValues: { use: "claim", claimType: "professional", subtype: "op", diagnoses: [], admission: "", discharge: "", estimatedStay: "", ...values } });
    return createElement(VisitDetails, {
      control: form.control,
      register: form.register,
      setValue: form.setValue,
      errors: form.formState.errors,
      translateError: (key: string | undefined) => (key ? [key] : undefined),
      practitioners: [{ specialty: "08.00" }, { specialty: "22.00" }],
      birthDate: options.birthDate,
      today: TODAY,
    });
  }
  const locale = options.locale ?? "en";
  const props = { locale, messages: locale === "ar" ? ar : en, timeZone: "Asia/Riyadh" };
  return renderToStaticMarkup(createElement(NextIntlClientProvider, props as unknown as Parameters<typeof NextIntlClientProvider>[0], createElement(Harness)));
}
const names = (html: string) => [...html.matchAll(/\sname="([^"]+)"/g)].map((m) => m[1]!);

describe("visitDetailsPlan", () => {
  it("a professional outpatient claim: first or follow-up, the kind of visit (three allowed), vital signs and notes; no emergency or stay", () => {
    const plan = visitDetailsPlan(base);
    expect(plan.section).toBe(true);
    expect(plan.encounterClass).toBe(true);
    expect(plan.encounterClasses).toEqual(["AMB", "HH", "VR"]);
    expect(plan.serviceEventType).toBe(true);
    expect(plan.vitalSigns).toEqual(mds.VITAL_SIGN_KEYS);
    expect(plan.notes).toEqual(mds.CLINICAL_NOTE_KEYS);
    expect(plan.emergency || plan.inpatient || plan.discharge || plan.conditionOnset || plan.morphology || plan.admissionWeight).toBe(false);
    expect(plan.maternity).toBe(true);
  });

  it("an emergency visit: one class (not asked), the emergency block; its disposition only on a claim of a visit that ended", () => {
    const emergency = { ...base, subtype: "emr" as const, admission: "2026-11-27T22:10" };
    expect(visitDetailsPlan(emergency)).toMatchObject({ encounterClass: false, emergency: true, emergencyDisposition: false, inpatient: false });
    expect(visitDetailsPlan({ ...emergency, discharge: "2026-11-28T02:00" }).emergencyDisposition).toBe(true);
    expect(visitDetailsPlan({ ...emergency, use: "preauthorization", discharge: "2026-11-28T02:00" }).emergencyDisposition).toBe(false);
    expect(visitDetailsPlan({ ...emergency, discharge: "2026-11-28T02:00", emergencyDisposition: "expired" }).causeOfDeath).toBe(true);
  });

  it("an inpatient stay of a baby under one year: the stay, admission weight, condition onset; discharge once it ended; death asks the cause", () => {
    const baby = { ...base, claimType: "institutional" as const, subtype: "ip" as const, admission: "2026-11-20T08:00", birthDate: "2026-05-01" };
    const plan = visitDetailsPlan(baby);
    expect(plan).toMatchObject({ inpatient: true, admissionWeight: true, conditionOnset: true, discharge: false, intendedStay: true, encounterClass: true });
    expect(plan.encounterClasses).toEqual(["IMP", "SS"]);
    expect(visitDetailsPlan({ ...baby, birthDate: "2024-05-01" }).admissionWeight).toBe(false);
    expect(visitDetailsPlan({ ...baby, birthDate: undefined }).admissionWeight).toBe(false);
    const ended = { ...baby, discharge: "2026-11-25T10:00" };
    expect(visitDetailsPlan(ended)).toMatchObject({ discharge: true, causeOfDeath: false });
    expect(visitDetailsPlan({ ...ended, dischargeDisposition: "exp" }).causeOfDeath).toBe(true);
    // A prior authorization: no discharge, no condition onset; its intended stay is the care setting's estimated stay.
    expect(visitDetailsPlan({ ...ended, use: "preauthorization" })).toMatchObject({ discharge: false, conditionOnset: false, intendedStay: false });
  });

  it("the diagnoses add morphology and the accident they demand; pharmacy and vision ask the notes and the investigation result (decision 104), no visit", () => {
    expect(visitDetailsPlan({ ...base, diagnoses: ["C50.9"] }).morphology).toBe(true);
    expect(visitDetailsPlan({ ...base, diagnoses: ["V43.5"] }).accidentRequired).toBe("MVA");
    expect(visitDetailsPlan({ ...base, diagnoses: ["Y96"] }).accidentRequired).toBe("WPA");
    const pharmacy = visitDetailsPlan({ ...base, claimType: "pharmacy" });
    expect(pharmacy).toMatchObject({ section: true, maternity: true, serviceEventType: false, visitStart: false, vitalSigns: [], notes: mds.CLINICAL_NOTE_KEYS, investigation: true });
    expect(visitDetailsPlan({ ...base, claimType: "vision" })).toMatchObject({ section: true, maternity: false, serviceEventType: false, visitStart: false, investigation: true });
  });

  it("counts a baby's age in whole days", () => {
    expect(ageInDays("2026-01-01", "2026-01-31T09:00")).toBe(30);
    expect(ageInDays("not a date", TODAY)).toBeUndefined();
  });
});

describe("the Visit details section", () => {
  it("a professional outpatient claim: named inputs for the visit, every vital sign (value and reason) and note; nothing of an emergency or a stay", () => {
    const html = render({});
    const fields = names(html);
    expect(fields).toContain("clinical.encounter.class");
    expect(fields).toContain("clinical.encounter.serviceEventType");
    for (const sign of mds.VITAL_SIGN_KEYS) expect(fields).toEqual(expect.arrayContaining([`clinical.vitalSigns.${sign}.value`, `clinical.vitalSigns.${sign}.absent`]));
    for (const note of mds.CLINICAL_NOTE_KEYS) expect(fields).toContain(`clinical.notes.${note}`);
    expect(fields).not.toContain("clinical.encounter.triageCategory");
    expect(fields).not.toContain("clinical.encounter.admitSource");
    expect(fields).not.toContain("clinical.admissionWeight");
    expect(html).toContain("Visit details");
    expect(html).toContain('Pulse (<bdi dir="ltr">/min</bdi>)');
    expect(html).toContain('Systolic pressure (<bdi dir="ltr">mmHg</bdi>)');
    // Only the classes the setting allows.
    expect(html).toContain(">Telemedicine<");
    expect(html).not.toContain(">Inpatient<");
  });

  it("an emergency visit: the emergency block, no class question", () => {
    const fields = names(render({ subtype: "emr", admission: "2026-11-27T22:10" }));
    expect(fields).toEqual(expect.arrayContaining(["clinical.encounter.triageCategory", "clinical.encounter.triageDate", "clinical.encounter.arrivalCode", "clinical.encounter.emergencyServiceStart"]));
    expect(fields).not.toContain("clinical.encounter.class");
    expect(fields).not.toContain("clinical.encounter.emergencyDisposition");
  });

  it("an inpatient claim of a baby, in Arabic: the stay's questions, admission weight, each diagnosis's onset; specialties from the practitioners", () => {
    const html = render({ claimType: "institutional", subtype: "ip", admission: "2026-11-20T08:00", discharge: "2026-11-25T10:00", diagnoses: ["P07.3", "J21.9"] }, { birthDate: "2026-09-01", locale: "ar" });
    const fields = names(html);
    expect(fields).toEqual(
      expect.arrayContaining([
        "clinical.encounter.admitSource",
        "clinical.encounter.admissionSpecialty",
        "clinical.encounter.dischargeSpecialty",
        "clinical.encounter.dischargeDisposition",
        "clinical.admissionWeight",
        "clinical.conditionOnset[P07.3]",
        "clinical.conditionOnset[J21.9]",
      ]),
    );
    expect(html).toContain("تفاصيل الزيارة");
    expect(html).toContain("وزن الدخول (كغ)");
    expect(html).toContain("08.00");
    expect(html).toContain("22.00");
  });

  it("pharmacy: only the clinical notes and the investigation result", () => {
    const html = render({ claimType: "pharmacy" });
    expect(names(html).sort()).toEqual([...mds.CLINICAL_NOTE_KEYS.map((n) => `clinical.notes.${n}`), "clinical.investigation.code"].sort());
  });
});

describe("the prefill", () => {
  it("answers by form path, only what it gives", () => {
    expect(prefillPaths({ encounter: { serviceEventType: "SCSE", class: "" } as never, vitalSigns: { "vital-sign-height": { value: "170", absent: "" } }, notes: { "patient-history": "Asthma since childhood." } })).toEqual([
      ["clinical.encounter.serviceEventType", "SCSE"],
      ["clinical.vitalSigns.vital-sign-height.value", "170"],
      ["clinical.notes.patient-history", "Asthma since childhood."],
    ]);
  });
});

describe("the form's schema per protocol", () => {
  const form = {
    use: "claim" as const,
    patientId: "5b0c3c1e-6a4f-4c55-9a43-2b7f0d3f2a11",
    coverageId: "0b7c5d3e-1f2a-4b3c-8d4e-5f6a7b8c9d0e",
    claimType: "professional" as const,
    subtype: "op" as const,
    careTeam: ["7d4f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b"],
    chiefComplaint: "Cough for three days",
    diagnoses: ["J06.9"],
    procedures: [],
    items: [{ system: ITEM_SYSTEMS_BY_CLAIM_TYPE.professional[0]!, code: "83600-00", servicedDate: TODAY, quantity: "1", unitPrice: "100" }],
    attachmentIds: [],
  };
  const paths = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) => (result.error?.issues ?? []).map((i) => `${i.path.join(".")}: ${i.message}`);

  it("REST asks nothing new; messaging names each missing fact of the visit by its path", async () => {
    const rest = await loadSubmissionFormSchema();
    const exchange = await loadExchangeSubmissionFormSchema();
    expect(paths(rest.safeParse(form)).filter((p) => p.startsWith("clinical"))).toEqual([]);
    const missing = paths(exchange.safeParse(form));
    expect(missing).toContain("clinical.encounter.class: encounterClassRequired");
    expect(missing).toContain("clinical.vitalSigns.pulse.value: vitalSignRequired");
    expect(missing).toContain("clinical.notes.treatment-plan: clinicalNoteRequired");

    const vitalSigns = Object.fromEntries(mds.VITAL_SIGN_KEYS.map((s) => [s, { value: "", absent: "not-measured" }]));
    const notes = Object.fromEntries(mds.CLINICAL_NOTE_KEYS.map((n) => [n, "Written"]));
    expect(missing).toContain("clinical.encounter.start: visitStartRequired");
    expect(missing).toContain("clinical.investigation.code: investigationRequired");
    const complete = { ...form, clinical: { encounter: { class: "AMB", start: `${TODAY}T09:15`, serviceEventType: "ICSE" }, vitalSigns: { ...vitalSigns, pulse: { value: "400", absent: "" } }, notes, investigation: { code: "INP", text: "" } } };
    expect(paths(exchange.safeParse(complete)).filter((p) => p.startsWith("clinical"))).toEqual(["clinical.vitalSigns.pulse.value: vitalSignOutOfRange"]);
  });
});
