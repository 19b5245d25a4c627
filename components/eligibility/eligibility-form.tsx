"use client";

import Link from "next/link";
import { useFormatter, useLocale, useTranslations } from "next-intl";
import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { lazyZodResolver, preloadOnFocus } from "@/components/forms/lazy-zod-resolver";
import { FieldMessages, FormAlert, SelectField, describedBy, inputClasses } from "@/components/patients/form-controls";
import { Button, buttonClasses } from "@/components/ui/button";
import { checkEligibilityAction, COMMON_BENEFIT_CATEGORIES, loadEligibilityFormSchema } from "@/lib/eligibility/browser";
import type { EligibilityField, EligibilityFormInput, EligibilityCheckView } from "@/lib/eligibility";
import { BENEFIT_CATEGORIES, FORM_ELIGIBILITY_PURPOSES, type BenefitCategoryCode } from "@/lib/fhir/browser";
import type { PatientSummary } from "@/lib/patients";
import { cardExpiredBefore, dayAsDate } from "@/lib/patients/browser";
import { ERROR_KEYS } from "./error-keys";
import { lazySection } from "@/components/forms/lazy-section";
import { useHydrated } from "@/components/forms/use-hydrated";

type Status =
  | { kind: "idle" }
  | { kind: "sending" }
  | { kind: "waiting"; until: number; source: "limiter" | "platform" }
  | { kind: "unavailable" }
  | { kind: "form-error"; message: string };

const resolver = lazyZodResolver<EligibilityFormInput>(loadEligibilityFormSchema);
const OTHER_CATEGORIES = (Object.keys(BENEFIT_CATEGORIES) as BenefitCategoryCode[]).filter((c) => !COMMON_BENEFIT_CATEGORIES.includes(c));

// The answer is a chunk of its own (decision 108, amended 2026-11-29): asked for when a check is
// sent, so it is there when the platform answers; nothing of it is in the form's first load.
// The patient picker (search as you type, the national-ID check) too, fetched just after the first
// load: the server renders it in place, disabled until its code is there (lazySection).
const PatientPicker = lazySection(() => import("./patient-picker").then((m) => m.PatientPicker));
const loadAnswer = () => import("./eligibility-answer");
const AnswerHeadline = lazy(() => loadAnswer().then((m) => ({ default: m.EligibilityAnswerHeadline })));
const AnswerDetails = lazy(() => loadAnswer().then((m) => ({ default: m.EligibilityAnswerDetails })));

export function EligibilityForm({ today, initialPatient, initialCoverageId, insurers = [] }: { today: string; initialPatient?: PatientSummary; initialCoverageId?: string; insurers?: readonly { id: string; nameEn: string; nameAr: string }[] }) {
  const t = useTranslations("eligibility");
  const tq = useTranslations("visits.quota");
  const locale = useLocale();
  // The clinic's time zone and the portal's one format (next-intl's formatter), not the browser's clock.
  const clock = useFormatter();
  const [patient, setPatient] = useState<PatientSummary | undefined>(initialPatient);
  const [status, setStatus] = useState<Status>({ kind: "idle" });
  const [result, setResult] = useState<EligibilityCheckView>();
  const [now, setNow] = useState(() => Date.now());
  const pickerRef = useRef<HTMLInputElement>(null);
  const ids = { purposes: useId(), categories: useId(), date: useId() };

  const defaultCoverage = (p: PatientSummary | undefined, preferred?: string) =>
    p?.coverages.find((c) => c.id === preferred)?.id ?? (p?.coverages.length === 1 ? p.coverages[0]!.id : "");

  const form = useForm<EligibilityFormInput>({
    resolver,
    mode: "onSubmit",
    defaultValues: {
      patientId: initialPatient?.id ?? "",
      coverageId: defaultCoverage(initialPatient, initialCoverageId),
      servicedDate: today,
      purposes: ["benefits", "validation"],
      categories: [],
      insurerId: "",
      transfer: false,
    },
  });
  const { errors } = form.formState;
  // Controlled: the options change with the patient, so the DOM value must follow the form's.
  const coverageId = useWatch({ control: form.control, name: "coverageId" });
  const servicedDate = useWatch({ control: form.control, name: "servicedDate" });

  const messageOf = (message: string | undefined): React.ReactNode[] | undefined => {
    if (!message) return undefined;
    if (message.startsWith("platform:")) {
      const code = message.slice("platform:".length);
      const key = ERROR_KEYS[code];
      return [
        <span key="p">
          {key ? t(`errors.${key}`) : t("errors.errOther", { status: 0 })}{" "}
          <span className="whitespace-nowrap text-xs font-medium">
            ({t("errors.codeLabel", { code: "" }).trim()} <span dir="ltr" className="font-mono">{code}</span>)
          </span>
        </span>,
      ];
    }
    return [t(`errors.${message}` as "errors.patientRequired")];
  };
  const errorsOf = (name: EligibilityField) => {
    const e = errors[name] as { message?: string; root?: { message?: string } } & Record<number, { message?: string }> | undefined;
    if (!e) return undefined;
    const message = e.message ?? e.root?.message ?? Object.values(e).find((v): v is { message: string } => typeof (v as { message?: unknown })?.message === "string")?.message;
    return messageOf(message);
  };

  const choosePatient = (p: PatientSummary | undefined) => {
    setPatient(p);
    setResult(undefined);
    form.setValue("patientId", p?.id ?? "");
    form.setValue("coverageId", defaultCoverage(p));
    form.clearErrors(["patientId", "coverageId"]);
  };

  const submit = useCallback(
    async (values: EligibilityFormInput) => {
      setStatus({ kind: "sending" });
      setResult(undefined);
      // A failed fetch of the chunk is asked again when the answer renders.
      loadAnswer().catch(() => undefined);
      let answer;
      try {
        answer = await checkEligibilityAction(values);
      } catch {
        setStatus({ kind: "unavailable" });
        return;
      }
      if (!answer.ok) {
        if (answer.error === "invalid") {
          for (const [name, messages] of Object.entries(answer.fieldErrors ?? {})) {
            if (messages?.[0]) form.setError(name as EligibilityField, { type: "server", message: messages[0] });
          }
          setStatus({ kind: "form-error", message: "checkFields" });
        } else if (answer.error === "unauthorized" || answer.error === "forbidden") {
          setStatus({ kind: "form-error", message: answer.error });
        } else {
          setStatus({ kind: "unavailable" });
        }
        return;
      }
      const res = answer.outcome;
      switch (res.kind) {
        case "answered":
          setResult(res.check);
          setStatus({ kind: "idle" });
          return;
        case "rejected": {
          setStatus({ kind: "idle" });
          setResult(res.check);
          if (res.field === "form") {
            setStatus({ kind: "form-error", message: res.code ? `platform:${res.code}` : `status:${res.status}` });
          } else {
            form.setError(res.field, { type: "platform", message: `platform:${res.code ?? ""}` }, { shouldFocus: res.field !== "patientId" && res.field !== "categories" && res.field !== "purposes" });
            if (res.field === "patientId") pickerRef.current?.focus();
          }
          return;
        }
        case "invalid":
          for (const [name, messages] of Object.entries(res.fieldErrors)) {
            if (messages?.[0]) form.setError(name as EligibilityField, { type: "server", message: messages[0] });
          }
          setStatus({ kind: "form-error", message: "checkFields" });
          return;
        case "rate_limited":
          setNow(Date.now());
          // Item 4 of decision 043: say that the quota is spent and when the check will run.
          setStatus({ kind: "waiting", until: Date.now() + res.retryAfterMs, source: res.source });
          return;
        default:
          setStatus({ kind: "unavailable" });
      }
    },
    [form],
  );

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) =>
    form.handleSubmit(submit, (errs) => {
      setStatus({ kind: "form-error", message: "checkFields" });
      if (errs.patientId) pickerRef.current?.focus();
    })(event);

  // Rate limited: count down, then send the same check again by itself.
  const waitingUntil = status.kind === "waiting" ? status.until : undefined;
  useEffect(() => {
    if (waitingUntil === undefined) return;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= waitingUntil) {
        clearInterval(timer);
        void form.handleSubmit(submit)();
      }
    }, 250);
    return () => clearInterval(timer);
  }, [waitingUntil, form, submit]);

  const busy = status.kind === "sending" || status.kind === "waiting";
  const hydrated = useHydrated();
  const coverages = patient?.coverages ?? [];
  // Decision 126: the chosen card expired before the service date — a warning, not a refusal (the insurer decides).
  const chosenExpiry = coverages.find((c) => c.id === coverageId)?.expiresOn;
  const cardExpired = cardExpiredBefore(chosenExpiry, servicedDate ?? "") ? clock.dateTime(dayAsDate(chosenExpiry!), { dateStyle: "medium", timeZone: "UTC" }) : undefined;
  const secondsLeft = waitingUntil ? Math.max(0, Math.ceil((waitingUntil - now) / 1000)) : 0;

  const categoryBox = (code: BenefitCategoryCode) => (
    <label key={code} className="flex items-center gap-2 rounded-md px-2 py-1.5 text-sm hover:bg-slate-50">
      <input type="checkbox" value={code} {...form.register("categories")} className="size-4 rounded border-slate-400 accent-brand-700" />
      <span>{BENEFIT_CATEGORIES[code][locale === "ar" ? "ar" : "en"]}</span>
    </label>
  );

  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-12">
      <form onSubmit={onSubmit} {...preloadOnFocus(resolver)} noValidate className="no-print space-y-5 self-start rounded-lg border border-slate-200 bg-white p-5 shadow-sm lg:col-span-5 xl:col-span-4" aria-labelledby="eligibility-form-title">
        <h2 id="eligibility-form-title" className="text-lg font-semibold text-slate-900">
          {t("form.title")}
        </h2>
        <input type="hidden" {...form.register("patientId")} />
        <fieldset disabled={busy || !hydrated} className="space-y-5">
          <Suspense fallback={<div className="min-h-20" aria-busy="true" />}>
            <PatientPicker ref={pickerRef} value={patient} onChange={choosePatient} errors={errorsOf("patientId")} disabled={busy} />
          </Suspense>

          {patient && coverages.length === 0 ? (
            <div data-testid="discovery-mode">
              <p className="block text-sm font-medium text-slate-800">{t("form.coverage")}</p>
              <p className="mt-1 rounded-md border border-sky-200 bg-sky-50 p-3 text-sm text-sky-950">
                <span className="font-medium">{t("form.discover")}</span> {t("form.discoverHint")}{" "}
                <Link href={`/patients/${patient.id}`} className="underline">
                  {t("form.addCoverage")}
                </Link>
              </p>
              <SelectField label={t("form.discoverInsurer")} errors={errorsOf("insurerId")} disabled={busy} {...form.register("insurerId")}>
                <option value="">{t("form.discoverAll")}</option>
                {insurers.map((i) => (
                  <option key={i.id} value={i.id}>
                    {locale === "ar" ? i.nameAr : i.nameEn}
                  </option>
                ))}
              </SelectField>
              <FieldMessages id="coverage-none" errors={errorsOf("coverageId")} />
            </div>
          ) : (
            <SelectField label={t("form.coverage")} errors={errorsOf("coverageId")} hint={patient ? undefined : t("form.choosePatientFirst")} disabled={!patient || busy} {...form.register("coverageId")} value={coverageId ?? ""}>
              <option value="">{patient ? t("form.purposes.discovery") : t("form.chooseCoverage")}</option>
              {coverages.map((c) => (
                <option key={c.id} value={c.id}>
                  {t("form.coverageOption", { insurer: locale === "ar" ? c.insurerNameAr : c.insurerNameEn, member: c.memberId })}
                  {c.ofMother && ` — ${t("form.mothersCoverage")}`}
                </option>
              ))}
            </SelectField>
          )}

          <div>
            <label htmlFor={ids.date} className="block text-sm font-medium text-slate-800">
              {t("form.servicedDate")}
            </label>
            <input
              id={ids.date}
              type="date"
              {...form.register("servicedDate")}
              aria-invalid={errors.servicedDate ? true : undefined}
              aria-describedby={describedBy(ids.date, true, errorsOf("servicedDate"))}
              className={`${inputClasses(!!errors.servicedDate)} sm:max-w-56`}
            />
            <FieldMessages
              id={ids.date}
              hint={
                <>
                  {t("form.servicedDateHint")}
                  {cardExpired && (
                    <span className="mt-1 block font-medium text-amber-800" data-testid="card-expired">
                      ⚠ {t("form.cardExpired", { date: cardExpired })}
                    </span>
                  )}
                </>
              }
              errors={errorsOf("servicedDate")}
            />
          </div>

        </fieldset>

        {/* Decision 123: the button and what it answers (wait, platform down, errors) right under the patient and coverage, not below the options. */}
        <div className="space-y-3" data-testid="eligibility-actions">
          <Button type="submit" busy={busy} disabled={!hydrated} className="w-full py-3 text-base">
            {status.kind === "sending" ? t("form.submitting") : t("form.submit")}
          </Button>
          <div aria-live="polite">
            {status.kind === "waiting" && (
              <div role="status" className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-sky-200 bg-sky-50 p-3 text-sm text-sky-950" data-testid="rate-limit-wait">
                <p className="flex items-center gap-2">
                  <span aria-hidden className="flex size-9 shrink-0 items-center justify-center rounded-full bg-sky-700 font-mono text-sm font-bold text-white tabular-nums">
                    {secondsLeft}
                  </span>
                  {secondsLeft > 0 && waitingUntil
                    ? tq(status.kind === "waiting" ? status.source : "limiter", {
                        limit: 100,
                        seconds: secondsLeft,
                        time: clock.dateTime(waitingUntil, { timeStyle: "medium" }),
                      })
                    : tq("sending")}
                </p>
                <button type="button" onClick={() => setStatus({ kind: "idle" })} className={buttonClasses("secondary", "px-3 py-1.5")}>
                  {t("errors.cancelWait")}
                </button>
              </div>
            )}
          </div>
          {status.kind === "unavailable" && (
            <FormAlert tone="amber">
              <p className="font-semibold">{t("errors.unavailable")}</p>
              <p className="mt-1">{t("errors.unavailableHelp")}</p>
              <Button type="button" variant="secondary" className="mt-3" onClick={() => void form.handleSubmit(submit)()}>
                ↻ {t("errors.retry")}
              </Button>
            </FormAlert>
          )}
          {status.kind === "form-error" && (
            <FormAlert>
              {status.message.startsWith("platform:")
                ? messageOf(status.message)
                : status.message.startsWith("status:")
                  ? t("errors.errOther", { status: Number(status.message.slice(7)) })
                  : t(`errors.${status.message}` as "errors.checkFields")}
            </FormAlert>
          )}
        </div>

        <fieldset disabled={busy || !hydrated} className="space-y-5 border-t border-slate-100 pt-4" data-testid="eligibility-options">
          <legend className="sr-only">{t("form.options")}</legend>
          <p aria-hidden className="text-sm font-semibold text-slate-700">{t("form.options")}</p>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" {...form.register("transfer")} className="size-4 accent-brand-700" data-testid="eligibility-transfer" />
            {t("form.transfer")}
          </label>

          <fieldset aria-describedby={errors.purposes ? `${ids.purposes}-error` : undefined} aria-invalid={errors.purposes ? true : undefined}>
            <legend className="text-sm font-medium text-slate-800">{t("form.purpose")}</legend>
            <div className="mt-1 flex flex-wrap gap-x-5 gap-y-1">
              {FORM_ELIGIBILITY_PURPOSES.map((p) => (
                <label key={p} className="flex items-center gap-2 py-1 text-sm">
                  <input type="checkbox" value={p} {...form.register("purposes")} className="size-4 accent-brand-700" />
                  {t(`form.purposes.${p}`)}
                </label>
              ))}
            </div>
            <FieldMessages id={ids.purposes} errors={errorsOf("purposes")} />
          </fieldset>

          <fieldset aria-describedby={`${ids.categories}-hint${errors.categories ? ` ${ids.categories}-error` : ""}`} aria-invalid={errors.categories ? true : undefined}>
            <legend className="text-sm font-medium text-slate-800">{t("form.categories")}</legend>
            <FieldMessages id={ids.categories} hint={t("form.categoriesHint")} errors={errorsOf("categories")} />
            <div className="mt-2 grid grid-cols-1 gap-x-2 sm:grid-cols-2">{COMMON_BENEFIT_CATEGORIES.map(categoryBox)}</div>
            <details className="mt-1">
              <summary className="cursor-pointer rounded px-2 py-1 text-sm font-medium text-brand-800 hover:bg-slate-50">{t("form.moreCategories")}</summary>
              <div className="mt-1 grid grid-cols-1 gap-x-2 sm:grid-cols-2">{OTHER_CATEGORIES.map(categoryBox)}</div>
            </details>
          </fieldset>
        </fieldset>
      </form>

      <section aria-labelledby="eligibility-result-title" className="lg:col-span-7 xl:col-span-8">
        <h2 id="eligibility-result-title" className="sr-only">
          {t("result.heading")}
        </h2>
        <div aria-live="polite" aria-atomic="true" data-testid="eligibility-live">
          {result ? (
            <Suspense fallback={null}>
              <AnswerHeadline check={result} />
            </Suspense>
          ) : null}
        </div>
        {result ? (
          <Suspense fallback={<div className="mt-5 min-h-64 rounded-lg border-2 border-dashed border-slate-200 bg-white/60" />}>
            <AnswerDetails check={result} />
          </Suspense>
        ) : (
          <div className="flex min-h-64 items-center justify-center rounded-lg border-2 border-dashed border-slate-200 bg-white/60 p-8 text-center text-sm text-slate-500">
            {status.kind === "sending" ? (
              <span className="flex items-center gap-2">
                <span aria-hidden className="size-4 animate-spin rounded-full border-2 border-brand-700 border-e-transparent" />
                {t("form.submitting")}
              </span>
            ) : (
              <span className="flex flex-col items-center gap-3">
                <svg aria-hidden viewBox="0 0 24 24" className="size-10 text-slate-300" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round">
                  <path d="M12 3l7 3v5c0 4.4-3 8.3-7 10-4-1.7-7-5.6-7-10V6l7-3z" />
                  <path d="M9 12l2 2 4-4" />
                </svg>
                {t("result.empty")}
              </span>
            )}
          </div>
        )}
      </section>
    </div>
  );
}
