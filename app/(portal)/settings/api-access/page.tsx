import type { Metadata } from "next";
import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";
import { CreateCredentialForm } from "@/components/api-access/create-credential-form";
import { RevokeButton } from "@/components/credentials/revoke-button";
import { Badge, Card, PageHeader } from "@/components/ui/card";
import { listApiKeys, listOAuthClients, createApiKeyAction, createOAuthClientAction, revokeApiKeyAction, revokeOAuthClientAction } from "@/lib/api-access";
import { requireArea } from "@/lib/auth";
import { getDb } from "@/lib/db";
import { env } from "@/lib/env";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("apiAccess"))("title") };
}

const th = "px-4 py-3 text-start";
const code = "rounded bg-slate-100 px-1 font-mono text-xs";

export default async function ApiAccessPage() {
  await requireArea("settings");
  const [t, format] = [await getTranslations("apiAccess"), await getFormatter()];
  const db = await getDb();
  const [keys, clients] = await Promise.all([listApiKeys(db), listOAuthClients(db)]);
  const environment = env().PLATFORM_ENV;
  const when = (d: Date | null) => (d ? format.dateTime(d, { dateStyle: "medium", timeStyle: "short" }) : t("never"));
  const status = (revokedAt: Date | null) => (revokedAt ? <Badge tone="red">{t("status.revoked")}</Badge> : <Badge tone="green">{t("status.active")}</Badge>);
  const envBadge = (e: "sandbox" | "production") => (
    <span className="inline-flex items-center gap-1">
      <Badge tone={e === "production" ? "blue" : "slate"}>{t(`environments.${e}`)}</Badge>
      {e !== environment && <span className="text-xs text-amber-800">{t("otherEnvironment")}</span>}
    </span>
  );

  return (
    <>
      <PageHeader
        title={t("title")}
        description={t("description")}
        actions={
          <Link href="/settings" className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline">
            {t("back")}
          </Link>
        }
      />
      <p className="mb-6 text-sm text-slate-700">
        {t("environmentNote", { environment: t(`environments.${environment}`) })}{" "}
        <a href="/v1/openapi.json" className="font-medium text-brand-700 underline-offset-2 hover:underline">
          {t("openapi")}
        </a>
      </p>

      <Card className="mb-6">
        <div className="border-b border-slate-200 px-4 py-3">
          <h2 className="font-semibold">{t("keys.title")}</h2>
          <p className="mt-1 text-sm text-slate-600">{t("keys.help")}</p>
        </div>
        <div className="border-b border-slate-200 p-4">
          <CreateCredentialForm kind="key" action={createApiKeyAction} defaultEnvironment={environment} />
        </div>
        <div className="overflow-x-auto">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <caption className="sr-only">{t("keys.title")}</caption>
            <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600">
              <tr>
                {(["name", "prefix", "environment", "scopes", "created", "lastUsed", "status", "actions"] as const).map((c) => (
                  <th key={c} scope="col" className={th}>
                    {t(`columns.${c}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {keys.length === 0 && (
                <tr>
                  <td colSpan={8} className="px-4 py-8 text-center text-slate-500">
                    {t("keys.empty")}
                  </td>
                </tr>
              )}
              {keys.map((k) => (
                <tr key={k.id} className="align-top">
                  <td className="px-4 py-2 font-medium">{k.name}</td>
                  <td className="px-4 py-2" dir="ltr">
                    <code className={code}>{k.prefix}…</code>
                  </td>
                  <td className="px-4 py-2">{envBadge(k.environment)}</td>
                  <td className="px-4 py-2 font-mono text-xs" dir="ltr">
                    {k.scopes.join(" ")}
                  </td>
                  <td className="whitespace-nowrap px-4 py-2 tabular-nums">{when(k.createdAt)}</td>
                  <td className="whitespace-nowrap px-4 py-2 tabular-nums">{when(k.lastUsedAt)}</td>
                  <td className="px-4 py-2">{status(k.revokedAt)}</td>
                  <td className="px-4 py-2">{!k.revokedAt && <RevokeButton id={k.id} name={k.name} action={revokeApiKeyAction} namespace="apiAccess" />}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="border-t border-slate-200 px-4 py-3 text-xs text-slate-600">
          {t("cli")} <code dir="ltr" className={code}>npm run admin -- api-key:create --name … --env {environment} --scope claims:read</code>
        </p>
      </Card>

      <Card>
        <div className="border-b border-slate-200 px-4 py-3">
          <h2 className="font-semibold">{t("clients.title")}</h2>
          <p className="mt-1 text-sm text-slate-600">{t("clients.help")}</p>
        </div>
        <div className="border-b border-slate-200 p-4">
          <CreateCredentialForm kind="client" action={createOAuthClientAction} defaultEnvironment={environment} />
        </div>
        <div className="overflow-x-auto">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <caption className="sr-only">{t("clients.title")}</caption>
            <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600">
              <tr>
                {(["name", "clientId", "environment", "scopes", "created", "lastToken", "status", "actions"] as const).map((c) => (
                  <th key={c} scope="col" className={th}>
                    {t(`columns.${c}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {clients.length === 0 && (
                <tr>
                  <td colSpan={8} className="px-4 py-8 text-center text-slate-500">
                    {t("clients.empty")}
                  </td>
                </tr>
              )}
              {clients.map((c) => (
                <tr key={c.id} className="align-top">
                  <td className="px-4 py-2 font-medium">{c.name}</td>
                  <td className="px-4 py-2" dir="ltr">
                    <code className={code}>{c.clientId}</code>
                  </td>
                  <td className="px-4 py-2">{envBadge(c.environment)}</td>
                  <td className="px-4 py-2 font-mono text-xs" dir="ltr">
                    {c.scopes.join(" ")}
                  </td>
                  <td className="whitespace-nowrap px-4 py-2 tabular-nums">{when(c.createdAt)}</td>
                  <td className="whitespace-nowrap px-4 py-2 tabular-nums">{when(c.lastUsedAt)}</td>
                  <td className="px-4 py-2">{status(c.revokedAt)}</td>
                  <td className="px-4 py-2">{!c.revokedAt && <RevokeButton id={c.id} name={c.name} action={revokeOAuthClientAction} namespace="apiAccess" />}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="border-t border-slate-200 px-4 py-3 text-xs text-slate-600">
          {t("cli")} <code dir="ltr" className={code}>npm run admin -- oauth-client:create --name … --scope claims:read</code>
        </p>
      </Card>
    </>
  );
}
