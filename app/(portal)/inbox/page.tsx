import type { Metadata } from "next";
import { getFormatter, getTranslations } from "next-intl/server";
import { MessageActions } from "@/components/inbox/message-actions";
import { InboxWhy } from "@/components/inbox/why";
import { Card, PageHeader } from "@/components/ui/card";
import { staffPage, type StaffPageContext } from "@/lib/auth";
import { advancedAuthorizationOpener, listOpenMessages } from "@/lib/inbox";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("inbox"))("title") };
}

/**
 * "Received, not matched" (docs/decisions/096): what the exchange sent that no submission here took — a
 * decision for a claim not known, an unknown event, a Task nobody handles, an unreadable message —
 * kept whole in the inbox and shown to billing with what it says. Viewing it is a PHI access
 * (patients are named): audited like every patient view.
 */
export default staffPage("inbox", async function InboxPage(_props: object, staff: StaffPageContext) {
  const [t, format, db] = [await getTranslations("inbox"), await getFormatter(), staff.db];
  const rows = await listOpenMessages(db);
  await staff.audit({ action: "inbox.view", outcome: "success", details: { ids: rows.map((r) => r.id) } });
  const canOpenAdvanced = advancedAuthorizationOpener() !== undefined;
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <p className="mb-4 text-sm text-slate-700" data-testid="inbox-count" data-count={rows.length}>
        {t("count", { count: rows.length })}
      </p>
      {rows.length === 0 ? (
        <Card>
          <p className="text-sm text-slate-700" data-testid="inbox-empty">
            {t("empty")}
          </p>
        </Card>
      ) : (
        <ul className="space-y-4" data-testid="inbox-list">
          {rows.map((row) => {
            const s = row.summary ?? {};
            const isDecision = s.resourceType === "ClaimResponse";
            return (
              <li key={row.id} data-testid="inbox-message" data-message-id={row.messageId} data-status={row.status}>
                <Card>
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    <h2 className="text-base font-semibold text-slate-900">
                      <span dir="ltr" className="font-mono">
                        {row.event ?? t("noEvent")}
                      </span>
                      {s.resourceType && <span className="ms-2 text-sm font-normal text-slate-600">{s.resourceType}</span>}
                    </h2>
                    <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${row.status === "failed" ? "bg-red-100 text-red-900" : "bg-amber-100 text-amber-900"}`} data-testid="inbox-status">
                      {t(`state.${row.status}`)}
                    </span>
                  </div>
                  <dl className="mt-2 grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
                    <div>
                      <dt className="inline text-slate-500">{t("fields.received")}: </dt>
                      <dd className="inline">
                        <time dateTime={row.receivedAt.toISOString()}>{format.dateTime(row.receivedAt, { dateStyle: "medium", timeStyle: "short" })}</time> · {t(`sources.${row.source}`)}
                      </dd>
                    </div>
                    <div>
                      <dt className="inline text-slate-500">{t("fields.payer")}: </dt>
                      <dd className="inline" dir="auto">{s.payer ?? "—"}</dd>
                    </div>
                    <div>
                      <dt className="inline text-slate-500">{t("fields.patient")}: </dt>
                      <dd className="inline" dir="auto" data-testid="inbox-patient">{s.patient ?? "—"}</dd>
                    </div>
                    <div>
                      <dt className="inline text-slate-500">{t("fields.claim")}: </dt>
                      <dd className="inline font-mono text-xs" dir="ltr">{s.claimIdentifier ?? "—"}</dd>
                    </div>
                    <div className="sm:col-span-2">
                      <dt className="inline text-slate-500">{t("fields.says")}: </dt>
                      <dd className="inline" data-testid="inbox-says">
                        {[s.outcome ? t.has(`outcomes.${s.outcome}`) ? t(`outcomes.${s.outcome}`) : s.outcome : undefined, s.total ? `${s.total} ${s.currency ?? ""}`.trim() : undefined, s.preAuthRef ? `${t("fields.preAuthRef")} ${s.preAuthRef}` : undefined, s.disposition]
                          .filter(Boolean)
                          .join(" · ") || "—"}
                      </dd>
                    </div>
                    {row.lastError && (
                      <div className="sm:col-span-2">
                        <dt className="inline text-slate-500">{t("fields.why")}: </dt>
                        <dd className="inline text-slate-800" data-testid="inbox-why">
                          <InboxWhy text={row.lastError} />
                        </dd>
                      </div>
                    )}
                  </dl>
                  <MessageActions id={row.id} canMatch={isDecision} canOpenAdvanced={canOpenAdvanced && isDecision} />
                </Card>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
});
