import type { Metadata } from "next";
import Link from "next/link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { Card, PageHeader } from "@/components/ui/card";
import { buttonClasses } from "@/components/ui/button";
import { StatusBadge } from "@/components/authorizations/status-badge";
import { staffPage, type StaffPageContext } from "@/lib/auth";
import { listPrescriptions } from "@/lib/prescriptions";
import { submissionLabels } from "@/lib/submissions";
import { TableFrame } from "@/components/ui/table-frame";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("prescriptions"))("title") };
}

/** The prescriptions sent for verification, newest first (docs/decisions/116). */
export default staffPage("prescriptions", async function PrescriptionsPage(_props: unknown, staff: StaffPageContext) {
  const [t, format, locale] = [await getTranslations("prescriptions"), await getFormatter(), await getLocale()];
  const rows = await listPrescriptions(staff.db, 50);
  // Decision 122: each prescription by its short number and patient, as the claims and authorizations lists.
  const labels = await submissionLabels(staff.db, rows.map((r) => r.id), locale);
  await staff.audit({ action: "prescription.list", outcome: "success", details: { count: rows.length } });
  return (
    <>
      <PageHeader
        title={t("title")}
        description={t("description")}
        actions={
          <Link href="/prescriptions/new" className={buttonClasses("primary")}>
            {t("new")}
          </Link>
        }
      />
      <Card>
        {rows.length === 0 ? (
          <p className="p-4 text-sm text-slate-600">{t("empty")}</p>
        ) : (
          <TableFrame label={t("title")} maxHeight="">
              <thead className="bg-slate-50 text-start text-slate-700">
                <tr>
                  <th scope="col" className="px-3 py-2 text-start">{t("list.prescription")}</th>
                  <th scope="col" className="px-3 py-2 text-start">{t("list.patient")}</th>
                  <th scope="col" className="px-3 py-2 text-start">{t("list.lines")}</th>
                  <th scope="col" className="px-3 py-2 text-start">{t("list.status")}</th>
                  <th scope="col" className="px-3 py-2 text-start">{t("list.reference")}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.id} className="border-t border-slate-200">
                    <td className="px-3 py-2" data-label={t("list.prescription")} data-key="">
                      <Link href={`/prescriptions/${r.id}`} className="font-medium text-brand-800 underline-offset-2 hover:underline" data-testid="prescription-number">
                        <bdi dir="ltr" className="whitespace-nowrap">{labels.get(r.id)?.number ?? t("list.open")}</bdi>
                      </Link>
                      <time dateTime={r.createdAt.toISOString()} className="block text-xs text-slate-500 tabular-nums">
                        {format.dateTime(r.createdAt, { dateStyle: "medium", timeStyle: "short" })}
                      </time>
                    </td>
                    <td className="px-3 py-2" data-label={t("list.patient")}>
                      {labels.get(r.id)?.patient && <span className="block">{labels.get(r.id)!.patient}</span>}
                      <bdi dir="ltr" className="font-mono text-xs text-slate-600">{r.patientNationalId}</bdi>
                    </td>
                    <td className="px-3 py-2" data-label={t("list.lines")}>{r.lines.map((l) => (locale === "ar" ? (l.displayAr ?? l.display) : l.display) ?? l.code).join(locale === "ar" ? "، " : ", ")}</td>
                    <td className="px-3 py-2" data-label={t("list.status")}>
                      <StatusBadge status={r.status} />
                    </td>
                    <td className="px-3 py-2 font-mono" data-label={t("list.reference")}><bdi dir="ltr">{r.reference ?? "—"}</bdi></td>
                  </tr>
                ))}
              </tbody>
          </TableFrame>
        )}
      </Card>
    </>
  );
});
