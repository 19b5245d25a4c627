"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { lazy, Suspense, useState } from "react";
import { Controller, useForm, useWatch, type FieldPath } from "react-hook-form";
import { AttachmentUploader, type UploadedAttachment } from "@/components/attachments/attachment-uploader";
import { CodeMultiPicker } from "@/components/coding/code-multi-picker";
import { ItemsEditor } from "@/components/coding/items-editor";
import { PatientCoveragePicker } from "@/components/coding/patient-coverage-picker";
import { lazyZodResolver, preloadOnFocus } from "@/components/forms/lazy-zod-resolver";
import { FormAlert } from "@/components/patients/form-controls";
import { Button } from "@/components/ui/button";
import { saveDraftAction, submitAction, visitPrefillAction } from "@/lib/authorizations/browser";
import { defaultItemSystem, emptyItem, loadExchangeSubmissionFormSchema, loadSubmissionFormSchema, type PlatformProtocol } from "@/lib/submissions/browser";
import { FORM_CLAIM_LIMITS, isClaimType, requiresOnAdmission } from "@/lib/fhir/browser";
import { CareSettingFields, type PractitionerOption } from "./care-setting-fields";
import type { SubmissionFormInput, SubmissionUse } from "@/lib/submissions";
import type { PatientSummary } from "@/lib/patients";
import type { ScrubFinding } from "@/lib/scrubber/browser";
import { usageWarnings, type AuthorizationUsage } from "@/lib/authorization-usage/browser";

export interface SubmissionFormInitial {
  draftId?: string;
  values?: Partial<SubmissionFormInput>;
  patient?: PatientSummary;
  attachments?: UploadedAttachment[];
}

/** The visit's clinical facts a form starts from (the patient's record and earlier visits; docs/decisions/105): what is given fills what is still empty. */
export type InitialClinical = Partial<Omit<NonNullable<SubmissionFormInput["clinical"]>, "conditionOnset">>;

const restResolver = lazyZodResolver<SubmissionFormInput>(loadSubmissionFormSchema);
// Where the message goes to the national exchange, the schema then asks its Minimum Data Set (docs/decisions/103, 105).
const exchangeResolver = lazyZodResolver<SubmissionFormInput>(loadExchangeSubmissionFormSchema);

// Chunks of their own, fetched only when the form needs them (the first load's budget, decision 055):
// the claim's live shares (decision 091) and an inpatient stay's diagnoses on admission (decision 083).
const LiveShares = lazy(() => import("@/components/claims/live-shares"));
const DiagnosisOnAdmissionFields = lazy(() => import("./diagnosis-on-admission"));
// The exchange's "Visit details" (docs/decisions/105): messaging only, once a patient is chosen.
const VisitDetails = lazy(() => import("@/components/forms/visit-details"));
// Shown only after a submit the scrubber stopped (decision 090), or for a claim over what its authorization left (decision 048).
const ScrubFindings = lazy(() => import("@/components/scrubber/scrub-findings").then((m) => ({ default: m.ScrubFindings })));
const UsageWarnings = lazy(() => import("@/components/authorization-usage/usage-warnings").then((m) => ({ default: m.UsageWarnings })));

type Notice = { tone: "ok" | "error"; text: string } | undefined;

/**
 * The prior-authorization form (`use="preauthorization"`) and, with the same fields, the claim
 * form (`use="claim"`, optionally carrying the authorization's preAuthRef): patient and coverage,
 * diagnoses (ICD-10-AM), procedures (CPT), items with exact totals and supporting attachments.
 * Saved as a draft at any time (only the patient is needed), submitted through the outbox.
 */
/** The patient's height and weight from earlier visits (decision 103), as the visit details' prefill. */
async function prefillFromEarlierVisits(patientId: string): Promise<InitialClinical | undefined> {
  const result = await visitPrefillAction(patientId);
  return result.ok ? result.prefill : undefined;
}

export function SubmissionForm({
  use,
  today,
  initial,
  usage,
  practitioners = [],
  protocol = "rest",
  initialClinical,
  prefillClinical = prefillFromEarlierVisits,
}: {
  use: SubmissionUse;
  today: string;
  initial?: SubmissionFormInitial;
  usage?: AuthorizationUsage;
  /** The care team staff pick from (their facility's practitioners, docs/decisions/084). */
  practitioners?: readonly PractitionerOption[];
  /** How the portal speaks to the platform: in messaging, lines are coded in the exchange's lists only. */
  protocol?: PlatformProtocol;
  /** Prefill of the visit details (messaging): fills what the form (or its draft) left empty. */
  initialClinical?: InitialClinical;
  /** The patient's last clinical facts (a server action), asked when a patient is chosen (messaging). */
  prefillClinical?: (patientId: string) => Promise<InitialClinical | undefined>;
}) {
  const t = useTranslations("authorizations.form");
  const te = useTranslations("authorizations.errors");
  const tc = useTranslations("coding");
  const tu = useTranslations("authorizationUsage");
  const tcs = useTranslations("careSetting");
  const router = useRouter();
  const [draftId, setDraftId] = useState(initial?.draftId);
  const [patient, setPatient] = useState<PatientSummary | undefined>(initial?.patient);
  const [attachments, setAttachments] = useState<UploadedAttachment[]>(initial?.attachments ?? []);
  const [busy, setBusy] = useState<"draft" | "submit" | undefined>();
  const [notice, setNotice] = useState<Notice>();
  // What the scrubber found on the last submit (decision 090); warnings only: the next submit is "Send anyway".
  const [scrub, setScrub] = useState<{ findings: ScrubFinding[]; canOverride: boolean }>();
  const tsc = useTranslations("scrubber");
  const scrubWarningsOnly = scrub !== undefined && scrub.findings.some((f) => f.severity === "warning") && !scrub.findings.some((f) => f.severity === "error");

  const resolver = protocol === "messaging" ? exchangeResolver : restResolver;
  // Whether the lines ask the maternity flag: the visit details say (mdsNeeds), messaging only.
  const [maternity, setMaternity] = useState(false);
  const v = initial?.values;
  const initialType = isClaimType(v?.claimType) ? v.claimType : "professional";
  const form = useForm<SubmissionFormInput>({
    resolver,
    mode: "onSubmit",
    reValidateMode: "onChange",
    defaultValues: {
      use,
      patientId: initial?.patient?.id ?? "",
      coverageId: v?.coverageId ?? "",
      // The care setting (docs/decisions/083); a form saved before care settings reads as professional outpatient.
      claimType: initialType,
      subtype: v?.subtype ?? "op",
      careTeam: v?.careTeam ?? [],
      chiefComplaint: v?.chiefComplaint ?? "",
      daysSupply: v?.daysSupply ?? "",
      visionPrescription: v?.visionPrescription ?? "",
      admission: v?.admission ?? "",
      discharge: v?.discharge ?? "",
      estimatedStay: v?.estimatedStay ?? "",
      onAdmission: v?.onAdmission ?? {},
      episodeId: v?.episodeId ?? "",
      ...(v?.clinical ? { clinical: v.clinical } : {}),
      diagnoses: v?.diagnoses ?? [],
      procedures: v?.procedures ?? [],
      // An empty system is CPT (lines saved before care settings).
      items: v?.items?.length ? v.items.map((item) => ({ ...emptyItem(today), ...item, system: item.system || defaultItemSystem(initialType, protocol) })) : [emptyItem(today, defaultItemSystem(initialType, protocol))],
      attachmentIds: (initial?.attachments ?? []).map((a) => a.id),
      ...(initial?.values?.preAuthRef ? { preAuthRef: initial.values.preAuthRef } : {}),
    },
  });
  const { errors } = form.formState;
  const preAuthRef = useWatch({ control: form.control, name: "preAuthRef" });
  const coverageId = useWatch({ control: form.control, name: "coverageId" });
  const watchedType = useWatch({ control: form.control, name: "claimType" });
  const claimType = isClaimType(watchedType) ? watchedType : "professional";
  const watchedSubtype = useWatch({ control: form.control, name: "subtype" });
  // Decision 048: a claim from an authorization is checked against what remains of it before sending.
  const watchedItems = useWatch({ control: form.control, name: "items" });
  const warnings = usage ? usageWarnings(usage, watchedItems ?? []) : [];
  const [warnedFor, setWarnedFor] = useState<string>();
  const warningKey = JSON.stringify(warnings);

  const tr = (key: string | undefined): React.ReactNode[] | undefined => {
    if (!key) return undefined;
    // The caps' numbers come from the one place (lib/fhir FORM_CLAIM_LIMITS), not the message text.
    return [te.has(key as "patientRequired") ? te(key as "patientRequired", { lines: FORM_CLAIM_LIMITS.lines, codes: FORM_CLAIM_LIMITS.codes }) : te("invalid")];
  };
  const msg = (e: unknown): string | undefined => {
    const err = e as { message?: string; root?: { message?: string } } | undefined;
    return err?.message ?? err?.root?.message;
  };
  /** react-hook-form keeps an array field's per-item errors under numeric keys. */
  const firstItem = (e: unknown): unknown => (e && typeof e === "object" ? (e as Record<number, unknown>)[0] : undefined);

  const applyServerErrors = (fieldErrors: Partial<Record<string, string[]>> | undefined) => {
    for (const [path, keys] of Object.entries(fieldErrors ?? {})) {
      if (!keys?.length) continue;
      if (path === "form") setNotice({ tone: "error", text: te(keys[0] as "invalid") });
      else form.setError(path as FieldPath<SubmissionFormInput>, { type: "server", message: keys[0] });
    }
  };

  const rememberDraft = (id: string) => {
    setDraftId(id);
    const base = use === "preauthorization" ? "/authorizations/new" : "/claims/new";
    // The URL names the draft, so a reload (or a bookmark) reopens it.
    window.history.replaceState(null, "", `${base}?draft=${id}`);
  };

  const saveDraft = async () => {
    setNotice(undefined);
    form.clearErrors();
    const values = form.getValues();
    if (!values.patientId) {
      form.setError("patientId", { type: "manual", message: "patientRequired" });
      setNotice({ tone: "error", text: te("draftNeedsPatient") });
      return;
    }
    setBusy("draft");
    try {
      const result = await saveDraftAction({ form: { ...values, use }, draftId });
      if (result.ok) {
        rememberDraft(result.id);
        setNotice({ tone: "ok", text: t("draftSaved", { time: new Date().toLocaleTimeString() }) });
      } else if (result.error === "invalid") {
        applyServerErrors(result.fieldErrors);
        setNotice({ tone: "error", text: te("fixErrors") });
      } else setNotice({ tone: "error", text: te(result.error === "unauthorized" || result.error === "forbidden" ? "forbidden" : "failed") });
    } catch {
      setNotice({ tone: "error", text: te("failed") });
    } finally {
      setBusy(undefined);
    }
  };

  const send = async (values: SubmissionFormInput, answer?: { acknowledgeWarnings?: boolean; overrideReason?: string }) => {
      setBusy("submit");
      try {
        const result = await submitAction({ form: { ...values, use }, draftId, ...(answer ? { scrub: answer } : {}) });
        if (result.ok) {
          setScrub(undefined);
          setNotice({ tone: "ok", text: t("submitted") });
          router.push(use === "preauthorization" ? `/authorizations/${result.id}` : `/claims/new?submitted=${result.id}`);
          return;
        }
        setScrub(undefined);
        if (result.error === "scrub") {
          // Nothing was sent; the server kept the form as a draft (lib/submissions SaveResult "scrub").
          const blocked = result as unknown as { id: string; findings: ScrubFinding[]; canOverride: boolean };
          rememberDraft(blocked.id);
          setScrub({ findings: blocked.findings, canOverride: blocked.canOverride });
        } else if (result.error === "invalid") {
          applyServerErrors(result.fieldErrors);
          setNotice({ tone: "error", text: te("fixErrors") });
        } else setNotice({ tone: "error", text: te(result.error === "unauthorized" || result.error === "forbidden" ? "forbidden" : result.error === "not_draft" ? "notDraft" : "failed") });
      } catch {
        setNotice({ tone: "error", text: te("failed") });
      }
      setBusy(undefined);
  };

  const submit = form.handleSubmit(
    async (values) => {
      setNotice(undefined);
      if (warnings.length > 0 && warnedFor !== warningKey) {
        // First click shows the warnings; sending needs a second, deliberate click.
        setWarnedFor(warningKey);
        return;
      }
      await send(values, scrubWarningsOnly ? { acknowledgeWarnings: true } : undefined);
    },
    () => setNotice({ tone: "error", text: te("fixErrors") }),
  );

  const disabled = busy !== undefined;
  return (
    <form onSubmit={submit} {...preloadOnFocus(resolver)} noValidate aria-busy={disabled || undefined} className="space-y-6" data-testid={`${use}-form`}>
      <fieldset disabled={disabled} className="space-y-6">
        <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="sec-patient">
          <h2 id="sec-patient" className="mb-4 text-base font-semibold text-slate-900">
            {t("sections.patient")}
          </h2>
          <PatientCoveragePicker
            patient={patient}
            coverageId={coverageId}
            onPatient={(p) => {
              setPatient(p);
              form.setValue("patientId", p?.id ?? "", { shouldValidate: form.formState.isSubmitted });
            }}
            onCoverage={(id) => form.setValue("coverageId", id, { shouldValidate: form.formState.isSubmitted })}
            patientErrors={tr(msg(errors.patientId))}
            coverageErrors={tr(msg(errors.coverageId))}
          />
          {use === "claim" && preAuthRef && (
            <p className="mt-4 text-sm text-slate-700" data-testid="preauth-ref">
              {t("preAuthRef")}:{" "}
              <span dir="ltr" className="font-mono font-semibold">
                {preAuthRef}
              </span>
            </p>
          )}
        </section>

        <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="sec-care-setting">
          <h2 id="sec-care-setting" className="mb-4 text-base font-semibold text-slate-900">
            {tcs("section")}
          </h2>
          <CareSettingFields control={form.control} register={form.register} setValue={form.setValue} errors={errors} practitioners={practitioners} protocol={protocol} translateError={tr} />
        </section>

        <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="sec-coding">
          <h2 id="sec-coding" className="mb-4 text-base font-semibold text-slate-900">
            {t("sections.coding")}
          </h2>
          <div className="grid gap-6 lg:grid-cols-2">
            <Controller
              control={form.control}
              name="diagnoses"
              render={({ field }) => (
                <CodeMultiPicker
                  system="icd-10-am"
                  label={tc("diagnoses")}
                  hint={tc("diagnosesHint")}
                  value={field.value}
                  onChange={field.onChange}
                  errors={tr(msg(errors.diagnoses) ?? msg(firstItem(errors.diagnoses)))}
                  testId="diagnoses"
                />
              )}
            />
            {/* The national exchange takes no CPT procedures (Claim.procedure): offered in the spec's REST only. */}
            {protocol !== "messaging" && (
              <Controller
                control={form.control}
                name="procedures"
                render={({ field }) => (
                  <CodeMultiPicker
                    system="cpt"
                    label={tc("procedures")}
                    hint={tc("proceduresHint")}
                    value={field.value}
                    onChange={field.onChange}
                    errors={tr(msg(errors.procedures))}
                    testId="procedures"
                  />
                )}
              />
            )}
            {requiresOnAdmission(claimType, watchedSubtype) && (
              <Suspense fallback={null}>
                <DiagnosisOnAdmissionFields control={form.control} setValue={form.setValue} errors={errors} translateError={tr} />
              </Suspense>
            )}
          </div>
        </section>

        {protocol === "messaging" && patient && (
          <Suspense fallback={null}>
            <VisitDetails
              control={form.control}
              register={form.register}
              setValue={form.setValue}
              getValues={form.getValues}
              errors={errors}
              translateError={tr}
              practitioners={practitioners}
              patientId={patient.id}
              initialClinical={initialClinical}
              prefillClinical={prefillClinical}
              birthDate={patient.birthDate}
              today={today}
              onMaternity={setMaternity}
            />
          </Suspense>
        )}

        <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="sec-items">
          <h2 id="sec-items" className="mb-4 text-base font-semibold text-slate-900">
            {use === "claim" ? t("sections.itemsClaim") : t("sections.items")}
          </h2>
          <ItemsEditor claimType={claimType} protocol={protocol} maternity={protocol === "messaging" && maternity} control={form.control} register={form.register} setValue={form.setValue} errors={errors.items} defaultDate={today} translateError={tr} />
          {msg(errors.items) && <p className="mt-2 text-sm text-red-700">{tr(msg(errors.items))}</p>}
        </section>

        {/* Its chunk loads once a patient and coverage are chosen: nothing to share before, and the first load stays small (decision 055). */}
        {use === "claim" && patient && coverageId && (
          <Suspense fallback={null}>
            <LiveShares patientId={patient.id} coverageId={coverageId} items={watchedItems ?? []} />
          </Suspense>
        )}

        <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="sec-files">
          <h2 id="sec-files" className="mb-4 text-base font-semibold text-slate-900">
            {t("sections.attachments")}
          </h2>
          <AttachmentUploader
            value={attachments}
            onChange={(next) => {
              setAttachments(next);
              form.setValue(
                "attachmentIds",
                next.map((a) => a.id),
              );
            }}
            errors={tr(msg(errors.attachmentIds))}
          />
        </section>
      </fieldset>

      {warnings.length > 0 && (
        <Suspense fallback={null}>
          <UsageWarnings warnings={warnings} />
        </Suspense>
      )}

      {scrub && (
        <Suspense fallback={null}>
          <ScrubFindings
            findings={scrub.findings}
            canOverride={scrub.canOverride}
            busy={busy === "submit"}
            onOverride={(overrideReason) => void form.handleSubmit((values) => send(values, { overrideReason, acknowledgeWarnings: true }))()}
          />
        </Suspense>
      )}

      <div aria-live="polite" data-testid="form-status">
        {notice?.tone === "error" && <FormAlert>{notice.text}</FormAlert>}
        {notice?.tone === "ok" && <p className="rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900">{notice.text}</p>}
      </div>

      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" busy={busy === "submit"} disabled={disabled}>
          {scrubWarningsOnly ? tsc("sendAnyway") : warnings.length > 0 && warnedFor === warningKey ? tu("sendAnyway") : use === "preauthorization" ? t("submitAuthorization") : t("submitClaim")}
        </Button>
        <Button type="button" variant="secondary" busy={busy === "draft"} disabled={disabled} onClick={() => void saveDraft()}>
          {t("saveDraft")}
        </Button>
        {draftId && <span className="text-xs text-slate-500">{t("editingDraft")}</span>}
      </div>
    </form>
  );
}
