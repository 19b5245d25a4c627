import { getFormatter, getTranslations } from "next-intl/server";
import { Badge, Card } from "@/components/ui/card";
import { describePlatform } from "@/lib/platform";
import { TestConnection } from "./test-connection";
import { FacilitiesTable } from "./facilities-table";

/**
 * Settings → Platform connection (server component): environment, base URL and the client
 * certificate with its expiry; amber from 30 days before expiry, red once expired.
 */
export async function PlatformCard() {
  const [t, format] = [await getTranslations("platform"), await getFormatter()];
  const description = describePlatform();
  const date = (d: Date) => format.dateTime(d, { dateStyle: "medium" });

  return (
    <Card className="p-6">
      <h2 className="font-semibold">{t("title")}</h2>
      <p className="mt-1 text-sm text-slate-600">{t("description")}</p>

      {!description.configured ? (
        <div role="alert" className="mt-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          <p className="font-medium">{t("notConfigured")}</p>
          <p className="mt-1" dir="ltr">{description.problem}</p>
        </div>
      ) : (
        <>
          {"error" in description.certificate ? (
            <div role="alert" className="mt-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
              <p className="font-medium">{t("certificateUnreadable")}</p>
              <p className="mt-1" dir="ltr">{description.certificate.error}</p>
            </div>
          ) : description.certificate.expired ? (
            <p role="alert" className="mt-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm font-medium text-red-900">
              {t("expired", { date: date(description.certificate.notAfter) })}
            </p>
          ) : description.certificate.expiresSoon ? (
            <p role="status" className="mt-4 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm font-medium text-amber-900">
              {t("expiresSoon", { days: description.certificate.daysLeft, date: date(description.certificate.notAfter) })}
            </p>
          ) : null}

          <dl className="mt-4 grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-[max-content_1fr]">
            <dt className="font-medium text-slate-600">{t("environment")}</dt>
            <dd>
              <Badge tone={description.environment === "production" ? "blue" : "slate"}>{t(`environments.${description.environment}`)}</Badge>
            </dd>
            <dt className="font-medium text-slate-600">{t("baseUrl")}</dt>
            <dd className="break-all text-start font-mono text-xs"><bdi dir="ltr">{description.baseUrl}</bdi></dd>
            <dt className="font-medium text-slate-600">{t("provider")}</dt>
            <dd className="text-start font-mono text-xs"><bdi dir="ltr">Organization/{description.providerOrgId}</bdi></dd>
            {"error" in description.certificate ? null : (
              <>
                <dt className="font-medium text-slate-600">{t("subject")}</dt>
                <dd className="break-all text-start font-mono text-xs"><bdi dir="ltr">{description.certificate.subject}</bdi></dd>
                <dt className="font-medium text-slate-600">{t("issuer")}</dt>
                <dd className="break-all text-start font-mono text-xs"><bdi dir="ltr">{description.certificate.issuer}</bdi></dd>
                <dt className="font-medium text-slate-600">{t("validFrom")}</dt>
                <dd className="tabular-nums">{date(description.certificate.notBefore)}</dd>
                <dt className="font-medium text-slate-600">{t("validUntil")}</dt>
                <dd className="tabular-nums">{date(description.certificate.notAfter)}</dd>
                <dt className="font-medium text-slate-600">{t("daysLeft")}</dt>
                <dd>
                  <Badge tone={description.certificate.expired ? "red" : description.certificate.expiresSoon ? "amber" : "green"}>
                    {t("daysLeftValue", { days: Math.max(0, description.certificate.daysLeft) })}
                  </Badge>
                </dd>
              </>
            )}
          </dl>
        </>
      )}

      <div className="mt-6 border-t border-slate-200 pt-4">
        <TestConnection />
      </div>
      <FacilitiesTable />
    </Card>
  );
}
