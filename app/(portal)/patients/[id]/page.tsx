import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import * as mds from "@/lib/fhir/mds";
import { formatMoney } from "@/lib/money";
import { AddCoverageForm } from "@/components/patients/add-coverage-form";
import { StatusBadge } from "@/components/authorizations/status-badge";
import { PayerBadge } from "@/components/authorizations/payer-badge";
import { OutcomeBadge } from "@/components/eligibility/outcome-badge";
import { buttonClasses } from "@/components/ui/button";
import { Card, PageHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { staffPage, type StaffPageContext } from "@/lib/auth";
import { listChecksForPatient } from "@/lib/eligibility";
import { ageOn, cardExpiredBefore, dayAsDate, daysOld, listCoverages, listInsurers, listNewborns, formatSaudiMobile, auditedView, listOfflineEligibilities, motherOf, mothersCoverages, NEWBORN_DAYS, patientCodeLists, underMotherCoverage } from "@/lib/patients";
import { submissionsOfPatient, type PatientSubmission } from "@/lib/submissions";
import { RegisterNewbornForm } from "@/components/newborn/register-newborn-form";
import { RecordOfflineEligibilityForm } from "@/components/offline/record-offline-eligibility-form";
import { OfflineEligibilityActions } from "@/components/offline/offline-eligibility-row";
import { clinicToday } from "@/lib/time";

export async function generateMetadata(): Promise<Metadata> {
  // The patient's name stays out of the title (browser history, shared screens).
  return { title: (await getTranslations("patients"))("title") };
}

function Section({ id, title, actions, children }: { id: string; title: string; actions?: React.ReactNode; children: React.ReactNode }) {
  return (
    <Card className="overflow-hidden">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-100 px-5 py-3">
        <h2 id={id} className="text-base font-semibold text-slate-900">
          {title}
        </h2>
        {actions}
      </div>
      <div>{children}</div>
    </Card>
  );
}

export default staffPage("patients", async function PatientPage({ params }: { params: Promise<{ id: string }> }, staff: StaffPageContext) {
  const { id } = await params;
  const db = staff.db;
  const codeLists = await patientCodeLists(db);
  const patient = await auditedView(db, staff.audit, id);
  if (!patient) notFound();
  const [t, te, format, locale] = [await getTranslations("patients"), await getTranslations("eligibility"), await getFormatter(), await getLocale()];
  const [coverages, insurers, checks, submissions, babies, mother, motherCoverages, offline] = await Promise.all([
    listCoverages(db, patient.id),
    listInsurers(db),
    listChecksForPatient(db, patient.id),
    submissionsOfPatient(db, patient.nationalId),
    listNewborns(db, patient.id),
    motherOf(db, patient),
    mothersCoverages(db, patient),
    listOfflineEligibilities(db, patient.id),
  ]);
  const usable = [...coverages, ...(mother && underMotherCoverage(patient.birthDate, clinicToday()) ? motherCoverages : [])];
  const insurerName = (id: string | null, en?: string | null, ar?: string | null) => (locale === "ar" ? ar : en) ?? insurers.find((i) => i.id === id)?.[locale === "ar" ? "nameAr" : "nameEn"] ?? id ?? "—";
  const name = `${patient.givenName} ${patient.familyName}`;
  const today = clinicToday();
  const day = (d: string) => format.dateTime(dayAsDate(d), { dateStyle: "medium", timeZone: "UTC" });
  const when = (d: Date) => format.dateTime(d, { dateStyle: "medium", timeStyle: "short" });
  const cell = "px-4 py-2.5";

  const submissionTable = (rows: PatientSubmission[], empty: string, label: string) =>
    rows.length === 0 ? (
      <p className="px-5 py-6 text-sm text-slate-600">{empty}</p>
    ) : (
      <DataTable
        label={label}
        rows={rows}
        rowKey={(s) => s.id}
        columns={[
          {
            id: "created",
            header: t("submissionColumns.created"),
            className: `whitespace-nowrap ${cell}`,
            cell: (s) => (
              <Link href={`/${s.kind === "claim" ? "claims" : "authorizations"}/${s.id}`} className="text-brand-800 underline-offset-2 hover:underline">
                {when(s.createdAt)}
              </Link>
            ),
          },
          { id: "status", header: t("submissionColumns.status"), className: cell, cell: (s) => (
              <>
                <StatusBadge kind={s.kind} status={s.status} outcome={s.outcome} />
                {s.fromPayer && <PayerBadge />}
                {s.preAuthRef && (
                  <span className="mt-0.5 block text-xs text-slate-600" data-testid="payer-terms">
                    <bdi dir="ltr" className="font-mono">{s.preAuthRef}</bdi>
                    {s.validUntil && ` · ${t("payerValidUntil", { date: format.dateTime(new Date(s.validUntil.length === 10 ? `${s.validUntil}T00:00:00Z` : s.validUntil), { dateStyle: "medium", timeZone: "UTC" }) })}`}
                  </span>
                )}
              </>
            ),
          },
          { id: "insurer", header: t("submissionColumns.insurer"), className: cell, cell: (s) => insurerName(s.insurerId) },
          { id: "amount", header: t("submissionColumns.amount"), className: `${cell} tabular-nums`, cell: (s) => (s.totalMinor === null ? "—" : formatMoney(s.totalMinor, locale, s.currency ?? undefined)) },
        ]}
      />
    );

  return (
    <>
      <nav className="no-print mb-3 text-sm">
        <Link href="/patients" className="text-brand-800 underline-offset-2 hover:underline">
          <span aria-hidden className="rtl:hidden">← </span>
          <span aria-hidden className="ltr:hidden">→ </span>
          {t("new.back")}
        </Link>
      </nav>
      <PageHeader
        title={name}
        actions={
          <div className="flex flex-wrap gap-3">
            <Link href={`/patients/${patient.id}/edit`} className={buttonClasses("secondary")} data-testid="edit-patient">
              {t("edit.link")}
            </Link>
            {/* Without a coverage on file the check is a discovery: the insurer says which coverages it holds. */}
            <Link href={`/eligibility?patient=${patient.id}`} className={buttonClasses("primary")} data-testid="check-eligibility">
              {t("checkEligibility")}
            </Link>
          </div>
        }
      />
      <Card className="mb-6 p-5">
        <dl className="grid grid-cols-2 gap-x-6 gap-y-4 text-sm md:grid-cols-5">
          <div>
            <dt className="text-slate-500">{t("detail.nationalId")}</dt>
            <dd className="mt-0.5 font-mono text-base font-medium tabular-nums">
              <span dir="ltr">{patient.nationalId}</span>
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">{t("detail.birthDate")}</dt>
            <dd className="mt-0.5 font-medium">
              {day(patient.birthDate)} <span className="text-slate-500">({t("detail.age", { age: ageOn(patient.birthDate, today) })})</span>
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">{t("detail.gender")}</dt>
            <dd className="mt-0.5 font-medium">{t(`genders.${patient.gender}`)}</dd>
          </div>
          <div>
            <dt className="text-slate-500">{t("fields.maritalStatus")}</dt>
            <dd className="mt-0.5 font-medium" data-testid="patient-marital-status">
              {(() => {
                const status = mds.MARITAL_STATUSES.find((m) => m.code === patient.maritalStatus);
                return status ? status[locale === "ar" ? "ar" : "en"] : t("detail.none");
              })()}
            </dd>
          </div>
          {(["occupation", "religion"] as const).map((field) => {
            const entry = codeLists[field].find((m) => m.code === patient[field]);
            return (
              <div key={field}>
                <dt className="text-slate-500">{t(`fields.${field}`)}</dt>
                <dd className="mt-0.5 font-medium" data-testid={`patient-${field}`}>
                  {entry ? entry[locale === "ar" ? "ar" : "en"] : (patient[field] ?? t("detail.none"))}
                </dd>
              </div>
            );
          })}
          <div>
            <dt className="text-slate-500">{t("detail.phone")}</dt>
            <dd className="mt-0.5 font-medium tabular-nums">{patient.phone ? <span dir="ltr">{formatSaudiMobile(patient.phone)}</span> : t("detail.none")}</dd>
          </div>
          <div>
            <dt className="text-slate-500">{t("detail.registered")}</dt>
            <dd className="mt-0.5 font-medium">{format.dateTime(patient.createdAt, { dateStyle: "medium" })}</dd>
          </div>
        </dl>
      </Card>

      {mother && (() => {
        // A newborn (docs/decisions/110): under the mother's coverage for its first 30 days, then its own.
        const age = daysOld(patient.birthDate, today);
        const covered = underMotherCoverage(patient.birthDate, today);
        return (
          <Card className={`mb-6 p-5 text-sm ${covered ? "" : "border-amber-300 bg-amber-50"}`} data-testid="newborn-card">
            <h2 className="text-base font-semibold text-slate-900">{t("newborn.title")}</h2>
            <p className="mt-1">
              {t("newborn.babyOf")}{" "}
              <Link href={`/patients/${mother.id}`} className="font-medium text-brand-800 underline underline-offset-2" data-testid="newborn-mother">
                {mother.givenName} {mother.familyName}
              </Link>
              {" · "}
              {t("newborn.bornAt", { date: day(patient.birthDate), time: patient.birthTime ?? "—" })}
              {patient.birthWeightGrams !== null && <> · {t("newborn.weighs", { kg: format.number(patient.birthWeightGrams / 1000, { maximumFractionDigits: 3 }) })}</>}
            </p>
            {covered ? (
              <p className="mt-2 text-emerald-900" data-testid="newborn-status">
                {t("newborn.underMother", { day: age, days: NEWBORN_DAYS, left: NEWBORN_DAYS - age })}
              </p>
            ) : (
              <div role="status" className="mt-2 text-amber-900" data-testid="newborn-status">
                <p>{t("newborn.needsOwn", { day: age, days: NEWBORN_DAYS })}</p>
                {coverages.length === 0 && (
                  <a href="#add-coverage" className={buttonClasses("secondary", "mt-2 px-3 py-1.5")} data-testid="newborn-add-coverage">
                    {t("newborn.addOwn")}
                  </a>
                )}
              </div>
            )}
            {covered && motherCoverages.length > 0 && (
              <ul className="mt-2 space-y-1" aria-label={t("newborn.mothersCoverages")}>
                {motherCoverages.map((c) => (
                  <li key={c.id} className="flex flex-wrap items-center gap-3">
                    <span>
                      {locale === "ar" ? c.insurerNameAr : c.insurerNameEn} · <bdi dir="ltr" className="font-mono">{c.memberId}</bdi> — {t("newborn.mothersCoverage")}
                    </span>
                    <Link href={`/eligibility?patient=${patient.id}&coverage=${c.id}`} className={buttonClasses("secondary", "px-3 py-1.5")} data-testid="newborn-check-eligibility">
                      {t("checkEligibility")}
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        );
      })()}

      <div className="space-y-6">
        <Section id="coverages" title={t("detail.coverages")}>
          {coverages.length === 0 ? (
            <p className="px-5 py-4 text-sm text-slate-700">{t("detail.coveragesEmpty")}</p>
          ) : (
            <ul className="divide-y divide-slate-100" aria-labelledby="coverages">
              {coverages.map((c) => (
                <li key={c.id} className="flex flex-wrap items-center justify-between gap-3 px-5 py-3">
                  <div>
                    <p className="font-medium text-slate-900">{locale === "ar" ? c.insurerNameAr : c.insurerNameEn}</p>
                    <p className="mt-0.5 text-sm text-slate-600">
                      {t("detail.memberId")}: <span dir="ltr" className="font-mono">{c.memberId}</span>
                      <span className="mx-2 text-slate-300" aria-hidden>|</span>
                      {t("detail.coverageRef")}: <span dir="ltr" className="font-mono">{c.coverageRef}</span>
                      {c.coverageClass && (
                        <>
                          <span className="mx-2 text-slate-300" aria-hidden>|</span>
                          {t("detail.classShown")}: <bdi data-testid="coverage-class">{c.coverageClass}</bdi>
                        </>
                      )}
                      {c.network && (
                        <>
                          <span className="mx-2 text-slate-300" aria-hidden>|</span>
                          {t("detail.networkShown")}: <bdi dir="ltr" className="font-mono" data-testid="coverage-network">{c.network}</bdi>
                        </>
                      )}
                      {/* The card's expiry against the clinic's today (decision 126): past, in red; the insurer still decides. */}
                      {c.expiresOn && (
                        <>
                          <span className="mx-2 text-slate-300" aria-hidden>|</span>
                          {cardExpiredBefore(c.expiresOn, today) ? (
                            <span className="font-medium text-red-700" data-testid="coverage-expiry" data-expired="true">
                              {t("detail.expiredOn", { date: day(c.expiresOn) })}
                            </span>
                          ) : (
                            <span data-testid="coverage-expiry">{t("detail.expiresOn", { date: day(c.expiresOn) })}</span>
                          )}
                        </>
                      )}
                    </p>
                  </div>
                  <Link href={`/eligibility?patient=${patient.id}&coverage=${c.id}`} className={buttonClasses("secondary", "px-3 py-1.5")}>
                    {t("checkEligibility")}
                  </Link>
                </li>
              ))}
            </ul>
          )}
          <div className="border-t border-slate-100 bg-slate-50/60 px-5 py-4" id="add-coverage">
            <h3 className="mb-3 text-sm font-semibold text-slate-800">{t("detail.addCoverage")}</h3>
            <AddCoverageForm patientId={patient.id} insurers={insurers.map((i) => ({ id: i.id, nameEn: i.nameEn, nameAr: i.nameAr }))} />
          </div>
        </Section>

        {!mother && (
          <Section id="newborns" title={t("newborn.section")}>
            {babies.length > 0 && (
              <ul className="divide-y divide-slate-100" aria-labelledby="newborns">
                {babies.map((b) => (
                  <li key={b.id} className="flex flex-wrap items-center justify-between gap-3 px-5 py-3 text-sm">
                    <Link href={`/patients/${b.id}`} className="font-medium text-brand-800 underline underline-offset-2" data-testid="newborn-link">
                      {b.givenName} {b.familyName}
                    </Link>
                    <span className="text-slate-600">
                      {day(b.birthDate)} · {underMotherCoverage(b.birthDate, today) ? t("newborn.dayOf", { day: daysOld(b.birthDate, today), days: NEWBORN_DAYS }) : t("newborn.ownNeeded")}
                    </span>
                  </li>
                ))}
              </ul>
            )}
            <div className="border-t border-slate-100 bg-slate-50/60 px-5 py-4">
              <h3 className="mb-3 text-sm font-semibold text-slate-800">{t("newborn.register")}</h3>
              <RegisterNewbornForm motherId={patient.id} familyName={patient.familyName} today={today} />
            </div>
          </Section>
        )}

        {usable.length > 0 && (
          <Section id="offline" title={t("offline.section")}>
            <p className="px-5 pt-4 text-sm text-slate-600">{t("offline.explain")}</p>
            {offline.length > 0 && (
              <ul className="divide-y divide-slate-100 px-5 py-2 text-sm" aria-labelledby="offline" data-testid="offline-eligibilities">
                {offline.map((o) => {
                  const c = usable.find((u) => u.id === o.coverageId);
                  return (
                    <li key={o.id} className="py-2">
                      <bdi dir="ltr" className="font-mono font-semibold">{o.reference}</bdi> · {day(o.givenOn)}
                      {c && <span className="text-slate-600"> · {locale === "ar" ? c.insurerNameAr : c.insurerNameEn} · <bdi dir="ltr">{c.memberId}</bdi></span>}
                      {/* Recorded by mistake: corrected or removed while no claim carries it (decision 120). */}
                      <OfflineEligibilityActions id={o.id} patientId={patient.id} reference={o.reference} givenOn={o.givenOn} today={today} />
                    </li>
                  );
                })}
              </ul>
            )}
            <div className="border-t border-slate-100 bg-slate-50/60 px-5 py-4">
              <RecordOfflineEligibilityForm patientId={patient.id} coverages={usable} today={today} />
            </div>
          </Section>
        )}

        <Section id="checks" title={t("detail.checks")}>
          {checks.length === 0 ? (
            <p className="px-5 py-6 text-sm text-slate-600">{t("detail.checksEmpty")}</p>
          ) : (
            <DataTable
              label={t("detail.checks")}
              rows={checks}
              rowKey={(c) => c.id}
              columns={[
                { id: "checkedAt", header: t("checkColumns.checkedAt"), className: `whitespace-nowrap ${cell}`, cell: (c) => when(c.checkedAt) },
                { id: "servicedDate", header: t("checkColumns.servicedDate"), className: `whitespace-nowrap ${cell}`, cell: (c) => day(c.servicedDate) },
                { id: "insurer", header: t("checkColumns.insurer"), className: cell, cell: (c) => insurerName(c.insurerId, c.insurerNameEn, c.insurerNameAr) },
                { id: "result", header: t("checkColumns.result"), className: cell, cell: (c) => <OutcomeBadge outcome={c.outcome} label={te(`outcomes.${c.outcome}`)} code={c.errorCode} /> },
                { id: "by", header: t("checkColumns.by"), className: `${cell} text-slate-600`, cell: (c) => c.checkedByName ?? "—" },
                {
                  id: "open",
                  header: t("checkColumns.open"),
                  className: cell,
                  cell: (c) => (
                    <Link href={`/eligibility/${c.id}`} aria-label={t("detail.openCheckNamed", { date: when(c.checkedAt) })} className="font-medium text-brand-800 underline underline-offset-2">
                      {t("detail.openCheck")}
                    </Link>
                  ),
                },
              ]}
            />
          )}
        </Section>

        <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
          <Section id="authorizations" title={t("detail.authorizations")}>
            {submissionTable(
              submissions.filter((s) => s.kind === "preauthorization"),
              t("detail.authorizationsEmpty"),
              t("detail.authorizations"),
            )}
          </Section>
          <Section id="claims" title={t("detail.claims")}>
            {submissionTable(
              submissions.filter((s) => s.kind === "claim"),
              t("detail.claimsEmpty"),
              t("detail.claims"),
            )}
          </Section>
        </div>
      </div>
    </>
  );
});
