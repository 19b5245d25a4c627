"use client";

import { useRouter } from "next/navigation";
import { useFormatter, useTranslations } from "next-intl";
import { lazy, Suspense, useState } from "react";
import { Controller, useForm, useWatch, type FieldPath } from "react-hook-form";
import type { UploadedAttachment } from "@/components/attachments/attachment-uploader";
import { useAuthorizationRequirements } from "@/components/coding/use-authorization-requirements";
import { useContractPrices } from "@/components/coding/use-contract-prices";
import { lazyZodResolver, preloadOnFocus } from "@/components/forms/lazy-zod-resolver";
import { FormAlert } from "@/components/patients/form-controls";
import { Button } from "@/components/ui/button";
import { saveDraftAction, submitAction, visitPrefillAction } from "@/lib/authorizations/browser";
import { defaultItemSystem, emptyItem, loadExchangeSubmissionFormSchema, loadSubmissionFormSchema, type PlatformProtocol } from "@/lib/submissions/browser";
import { FORM_CLAIM_LIMITS, isClaimType, requiresOnAdmission } from "@/lib/fhir/browser";
import type { PractitionerOption } from "./care-setting-fields";
import { lazySection } from "@/components/forms/lazy-section";
import type { SubmissionFormInput, SubmissionUse } from "@/lib/submissions";
import type { PatientSummary } from "@/lib/patients";
import type * as mds from "@/lib/fhir/mds";
import type { ScrubFinding } from "@/lib/scrubber/browser";
import { usageWarnings, type AuthorizationUsage } from "@/lib/authorization-usage/browser";
import { useHydrated } from "@/components/forms/use-hydrated";

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

// Chunks of their own, fetched only when the form needs them (the first load's budget, decision 055):
// the claim's live shares (decision 091) and an inpatient stay's diagnoses on admission (decision 083).
const LiveShares = lazy(() => import("@/components/claims/live-shares"));
// A newborn's part of the form (decision 110): its own chunk, loaded only for a baby linked to its mother.
const NewbornNotice = lazy(() => import("@/components/newborn/newborn-notice"));
// An offline authorization (decision 111): its fields are their own chunk, loaded when billing opens them.
const OfflineAuthorizationFields = lazy(() => import("@/components/offline/offline-authorization-fields"));
// The receiving facility's referral (decision 120): its own chunk, loaded when staff say the patient comes on one.
const ReferralFields = lazy(() => import("@/components/referrals/referral-fields"));
const DiagnosisOnAdmissionFields = lazy(() => import("./diagnosis-on-admission"));
// The exchange's "Visit details" (docs/decisions/105): messaging only, once a patient is chosen.
const VisitDetails = lazy(() => import("@/components/forms/visit-details"));
// A pharmacy claim's verified prescription and substitutions (docs/decisions/116): pharmacy claims only.
const PrescriptionDispensing = lazy(() => import("@/components/claims/prescription-dispensing"));
// Shown only after a submit the scrubber stopped (decision 090), or for a claim over what its authorization left (decision 048).
const ScrubFindings = lazy(() => import("@/components/scrubber/scrub-findings").then((m) => ({ default: m.ScrubFindings })));
// The patient and coverage picker, the care setting, the code pickers, the lines and the uploader
// (decision 108, amended 2026-11-29):
// chunks of their own, fetched just after the first load; the server renders them in place and their
// fields stay disabled until their code is there (lazySection). Their values live in the form (the
// uploader's in its state), so nothing is lost; server errors reach them as props, as before.
const PatientCoveragePicker = lazySection(() => import("@/components/coding/patient-coverage-picker").then((m) => m.PatientCoveragePicker));
const CareSettingFields = lazySection(() => import("./care-setting-fields").then((m) => m.CareSettingFields));
const CodeMultiPicker = lazySection(() => import("@/components/coding/code-multi-picker").then((m) => m.CodeMultiPicker));
const ItemsEditor = lazySection(() => import("@/components/coding/items-editor").then((m) => m.ItemsEditor));
const AttachmentUploader = lazySection(() => import("@/components/attachments/attachment-uploader").then((m) => m.AttachmentUploader));
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
  codeLists,
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
  /** The visit details' value sets as the catalogue holds them (messaging; docs/decisions/118). */
  codeLists?: mds.MdsCodeLists;
}) {
  const t = useTranslations("authorizations.form");
  // The clinic's time zone and the portal's one format (next-intl's formatter), not the browser's clock.
  const clock = useFormatter();
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
  const toff = useTranslations("authorizations.offline");
  const tver = useTranslations("authorizations.versions");
  const tref = useTranslations("authorizations.referral");
  const scrubWarningsOnly = scrub !== undefined && scrub.findings.some((f) => f.severity === "warning") && !scrub.findings.some((f) => f.severity === "error");

  // In messaging the schema checks the visit details against the lists this form offers.
  const [exchangeResolver] = useState(() => lazyZodResolver<SubmissionFormInput>(() => loadExchangeSubmissionFormSchema(codeLists)));
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
      prescriptionRef: v?.prescriptionRef ?? "",
      substitutions: v?.substitutions ?? [],
      ...(v?.clinical ? { clinical: v.clinical } : {}),
      diagnoses: v?.diagnoses ?? [],
      procedures: v?.procedures ?? [],
      // An empty system is CPT (lines saved before care settings).
      items: v?.items?.length ? v.items.map((item) => ({ ...emptyItem(today), ...item, system: item.system || defaultItemSystem(initialType, protocol) })) : [emptyItem(today, defaultItemSystem(initialType, protocol))],
      attachmentIds: (initial?.attachments ?? []).map((a) => a.id),
      ...(initial?.values?.preAuthRef ? { preAuthRef: initial.values.preAuthRef } : {}),
      offlineAuthorization: initial?.values?.offlineAuthorization ?? { reference: "", date: "" },
      transfer: initial?.values?.transfer ?? false,
      referral: initial?.values?.referral ?? { active: false, provider: "", reference: "", date: "" },
    },
  });
  const [offlineOpen, setOfflineOpen] = useState(!!initial?.values?.offlineAuthorization?.reference);
  const { errors } = form.formState;
  const preAuthRef = useWatch({ control: form.control, name: "preAuthRef" });
  const referralActive = useWatch({ control: form.control, name: "referral.active" }) === true;
  const transfer = useWatch({ control: form.control, name: "transfer" }) === true;
  const coverageId = useWatch({ control: form.control, name: "coverageId" });
  const watchedType = useWatch({ control: form.control, name: "claimType" });
  const claimType = isClaimType(watchedType) ? watchedType : "professional";
  const watchedSubtype = useWatch({ control: form.control, name: "subtype" });
  // Decision 048: a claim from an authorization is checked against what remains of it before sending.
  const watchedItems = useWatch({ control: form.control, name: "items" });
  const warnings = usage ? usageWarnings(usage, watchedItems ?? []) : [];
  // Decision 123: each line's unit price starts at the payer's contract price for the coverage (editable).
  const contractPrices = useContractPrices({ patientId: patient?.id, coverageId, items: watchedItems ?? [], getValues: form.getValues, setValue: form.setValue });
  // The payer's "auth-requirements" answer for this coverage marks the lines that need a prior authorization.
  const needsAuthorization = useAuthorizationRequirements(patient?.id, coverageId);
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
        setNotice({ tone: "ok", text: t("draftSaved", { time: clock.dateTime(new Date(), { timeStyle: "short" }) }) });
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

  const hydrated = useHydrated();
  const disabled = busy !== undefined || !hydrated;
  return (
    <form onSubmit={submit} {...preloadOnFocus(resolver)} noValidate aria-busy={disabled || undefined} className="space-y-6" data-testid={`${use}-form`}>
      <fieldset disabled={disabled} className="space-y-6">
        <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="sec-patient">
          <h2 id="sec-patient" className="mb-4 text-base font-semibold text-slate-900">
            {t("sections.patient")}
          </h2>
          <Suspense fallback={<div className="min-h-20" aria-busy="true" />}>
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
              serviceDays={(watchedItems ?? []).map((i) => i?.servicedDate)}
            />
          </Suspense>
          {patient?.newborn && (
            <Suspense fallback={null}>
              <NewbornNotice patient={patient} coverageId={coverageId} today={today} />
            </Suspense>
          )}
          {/* Transfer of care (guide 7.3, decision 120): the referring clinic's flag, the receiving facility's referral. */}
          {use === "preauthorization" && !referralActive && (
            <div className="mt-4">
              <label className="flex items-start gap-2 text-sm font-medium text-slate-800">
                <input type="checkbox" {...form.register("transfer")} className="mt-0.5 size-4 accent-brand-700" data-testid="transfer-flag" />
                <span>
                  {tref("transfer")}
                  <span className="block text-xs font-normal text-slate-500">{tref("transferHint")}</span>
                </span>
              </label>
              {errors.transfer && <p className="mt-1 text-sm text-red-700">{tr(msg(errors.transfer))}</p>}
            </div>
          )}
          {!preAuthRef && !transfer && (
            <div className="mt-4">
              <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
                <input type="checkbox" {...form.register("referral.active")} className="size-4 accent-brand-700" data-testid="referral-toggle" />
                {tref("toggle")}
              </label>
              {referralActive && (
                <Suspense fallback={null}>
                  <ReferralFields use={use} register={form.register} errors={{ provider: tr(msg(errors.referral?.provider)), reference: tr(msg(errors.referral?.reference)), date: tr(msg(errors.referral?.date)) }} />
                </Suspense>
              )}
            </div>
          )}
          {use === "claim" && !preAuthRef && !referralActive && (
            <div className="mt-4">
              <button type="button" className="text-sm font-medium text-brand-800 underline underline-offset-2" aria-expanded={offlineOpen} onClick={() => setOfflineOpen((o) => !o)} data-testid="offline-toggle">
                {toff("toggle")}
              </button>
              {offlineOpen && (
                <Suspense fallback={null}>
                  <OfflineAuthorizationFields register={form.register} errors={{ reference: tr(msg(errors.offlineAuthorization?.reference)), date: tr(msg(errors.offlineAuthorization?.date)) }} />
                </Suspense>
              )}
            </div>
          )}
          {preAuthRef && (
            <p className="mt-4 text-sm text-slate-700" data-testid="preauth-ref">
              {/* A prior authorization carrying a reference changes the authorization it names (decision 114). */}
              {use === "claim" ? t("preAuthRef") : t("changesPreAuthRef")}:{" "}
              <span dir="ltr" className="font-mono font-semibold">
                {preAuthRef}
              </span>
            </p>
          )}
          {preAuthRef && use === "preauthorization" && (
            // Asked again after a partial approval or a refusal: the clinic's reasons go with the request (guide 7.3.1, Table 37).
            <div className="mt-3">
              <label htmlFor="change-justification" className="block text-sm font-medium text-slate-800">
                {tver("justification")}
              </label>
              <p id="change-justification-hint" className="text-xs text-slate-600">
                {tver("justificationHint")}
              </p>
              <textarea
                id="change-justification"
                rows={3}
                {...form.register("changeJustification")}
                aria-describedby={`change-justification-hint${errors.changeJustification ? " change-justification-error" : ""}`}
                aria-invalid={errors.changeJustification ? true : undefined}
                className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
                data-testid="change-justification"
              />
              {errors.changeJustification && (
                <p id="change-justification-error" className="text-sm text-red-700">
                  {tr(msg(errors.changeJustification))}
                </p>
              )}
            </div>
          )}
        </section>

        <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="sec-care-setting">
          <h2 id="sec-care-setting" className="mb-4 text-base font-semibold text-slate-900">
            {tcs("section")}
          </h2>
          <Suspense fallback={<div className="min-h-48" aria-busy="true" />}>
            <CareSettingFields control={form.control} register={form.register} setValue={form.setValue} errors={errors} practitioners={practitioners} protocol={protocol} translateError={tr} />
          </Suspense>
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
                <Suspense fallback={<div className="min-h-20" aria-busy="true" />}>
                  <CodeMultiPicker
                    system="icd-10-am"
                    label={tc("diagnoses")}
                    hint={tc("diagnosesHint")}
                    value={field.value}
                    onChange={field.onChange}
                    errors={tr(msg(errors.diagnoses) ?? msg(firstItem(errors.diagnoses)))}
                    testId="diagnoses"
                  />
                </Suspense>
              )}
            />
            {/* The national exchange takes no CPT procedures (Claim.procedure): offered in the spec's REST only. */}
            {protocol !== "messaging" && (
              <Controller
                control={form.control}
                name="procedures"
                render={({ field }) => (
                  <Suspense fallback={<div className="min-h-20" aria-busy="true" />}>
                    <CodeMultiPicker
                      system="cpt"
                      label={tc("procedures")}
                      hint={tc("proceduresHint")}
                      value={field.value}
                      onChange={field.onChange}
                      errors={tr(msg(errors.procedures))}
                      testId="procedures"
                    />
                  </Suspense>
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
              lists={codeLists}
            />
          </Suspense>
        )}

        {use === "claim" && claimType === "pharmacy" && patient && (
          <Suspense fallback={null}>
            <PrescriptionDispensing control={form.control} register={form.register} setValue={form.setValue} nationalId={patient.nationalId} lineCount={watchedItems?.length ?? 0} errorOf={(path) => tr(msg(form.getFieldState(path as FieldPath<SubmissionFormInput>, form.formState).error))} />
          </Suspense>
        )}

        <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="sec-items">
          <h2 id="sec-items" className="mb-4 text-base font-semibold text-slate-900">
            {use === "claim" ? t("sections.itemsClaim") : t("sections.items")}
          </h2>
          <Suspense fallback={<div className="min-h-40" aria-busy="true" />}>
            <ItemsEditor claimType={claimType} protocol={protocol} maternity={protocol === "messaging" && maternity} performed={use === "preauthorization" && Boolean(preAuthRef)} needsAuthorization={needsAuthorization} authorizationGiven={use === "claim" && Boolean(preAuthRef)} control={form.control} register={form.register} setValue={form.setValue} errors={errors.items} defaultDate={today} translateError={tr} contractPrices={contractPrices} />
          </Suspense>
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
          <Suspense fallback={<div className="min-h-32" aria-busy="true" />}>
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
          </Suspense>
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
