import { and, eq } from "drizzle-orm";
import { listAttachments, type AttachmentMeta } from "@/lib/attachments";
import type { Db } from "@/lib/db";
import { submissions } from "@/lib/db";
import { getPatient, listCoverages, mothersCoverages } from "@/lib/patients";
import type { PatientSummary } from "@/lib/patients";
import { draftFormSchema, type DraftFormValues, type SubmissionUse } from "./form-schema";
import { isUuid } from "@/lib/ids";
import { EMPTY_CLINICAL } from "./clinical-schema";

export interface DraftForForm {
  id: string;
  values: DraftFormValues;
  patient?: PatientSummary;
  attachments: AttachmentMeta[];
  authorizationId: string | null;
  /** Fix-and-resubmit: the rejected claim this draft replaces (its page names it and the payer's reason). */
  replacesId: string | null;
}

/** A draft as the form reopens it: its saved values, the patient with coverages, its attachments. */
export async function loadDraftForForm(db: Db, id: string, use: SubmissionUse): Promise<DraftForForm | "not_found" | "not_draft"> {
  if (!isUuid(id)) return "not_found";
  const [row] = await db.select().from(submissions).where(and(eq(submissions.id, id), eq(submissions.kind, use)));
  if (!row) return "not_found";
  if (row.status !== "draft") return "not_draft";
  const parsed = draftFormSchema.safeParse({ ...(row.form ?? {}), use });
  const values: DraftFormValues = parsed.success
    ? parsed.data
    : {
        use,
        patientId: "",
        coverageId: "",
        claimType: "professional",
        subtype: "op",
        careTeam: [],
        prescriptionRef: "",
        substitutions: [],
        chiefComplaint: "",
        daysSupply: "",
        estimatedStay: "",
        onAdmission: {},
        offlineAuthorization: { reference: "", date: "" },
        transfer: false,
        referral: { active: false, provider: "", reference: "", date: "" },
        changeJustification: "",
        clinical: EMPTY_CLINICAL,
        visionPrescription: "",
        admission: "",
        discharge: "",
        episodeId: "",
        diagnoses: [],
        procedures: [],
        items: [],
        attachmentIds: [],
      };
  const [patient, attachments] = await Promise.all([patientSummary(db, values.patientId), listAttachments(db, row.id)]);
  return { id: row.id, values: { ...values, attachmentIds: attachments.map((a) => a.id) }, patient, attachments, authorizationId: row.authorizationId, replacesId: row.replacesId };
}

export async function patientSummary(db: Db, patientId: string): Promise<PatientSummary | undefined> {
  const patient = patientId ? await getPatient(db, patientId) : undefined;
  if (!patient) return undefined;
  return {
    id: patient.id,
    nationalId: patient.nationalId,
    givenName: patient.givenName,
    familyName: patient.familyName,
    birthDate: patient.birthDate,
    gender: patient.gender,
    // A newborn is offered its mother's coverages too (docs/decisions/110).
    coverages: [...(await listCoverages(db, patient.id)), ...(await mothersCoverages(db, patient))],
    ...(patient.motherId ? { newborn: { birthWeightGrams: patient.birthWeightGrams } } : {}),
  };
}
