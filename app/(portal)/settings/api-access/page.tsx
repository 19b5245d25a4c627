import type { Metadata } from "next";
import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";
import { CreateCredentialForm } from "@/components/api-access/create-credential-form";
import { CredentialCard } from "@/components/credentials/credential-card";
import { RevokeButton } from "@/components/credentials/revoke-button";
import { Badge, PageHeader } from "@/components/ui/card";
import { listApiKeys, listOAuthClients, createApiKeyAction, createOAuthClientAction, revokeApiKeyAction, revokeOAuthClientAction } from "@/lib/api-access";
import { requireArea } from "@/lib/auth";
import { getDb } from "@/lib/db";
import { env } from "@/lib/env";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("apiAccess"))("title") };
}

const cellTime = "whitespace-nowrap px-4 py-2 tabular-nums";
const code = "rounded bg-slate-100 px-1 font-mono text-xs";

export default async function ApiAccessPage() {
  await requireArea("settings");
  const [t, format] = [await getTranslations("apiAccess"), await getFormatter()];
  const db = await getDb();
  const [keys, clients] = await Promise.all([listApiKeys(db), listOAuthClients(db)]);
  const environment = env().PLATFORM_ENV;
  const when = (d: Date | null) => (d ? format.dateTime(d, { dateStyle: "medium", timeStyle: "short" }) : t("never"));
  const labels = { status: t("columns.status"), actions: t("columns.actions"), active: t("status.active"), revoked: t("status.revoked"), cli: t("cli") };
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

      <CredentialCard
        title={t("keys.title")}
        help={t("keys.help")}
        create={<CreateCredentialForm kind="key" action={createApiKeyAction} defaultEnvironment={environment} />}
        columns={[
          { key: "name", header: t("columns.name"), cell: (k) => k.name, className: "px-4 py-2 font-medium" },
          { key: "prefix", header: t("columns.prefix"), cell: (k) => <code className={code}>{k.prefix}…</code>, ltr: true },
          { key: "environment", header: t("columns.environment"), cell: (k) => envBadge(k.environment) },
          { key: "scopes", header: t("columns.scopes"), cell: (k) => k.scopes.join(" "), ltr: true, className: "px-4 py-2 font-mono text-xs" },
          { key: "created", header: t("columns.created"), cell: (k) => when(k.createdAt), className: cellTime },
          { key: "lastUsed", header: t("columns.lastUsed"), cell: (k) => when(k.lastUsedAt), className: cellTime },
        ]}
        rows={keys}
        empty={t("keys.empty")}
        labels={labels}
        revoke={(k) => <RevokeButton id={k.id} name={k.name} action={revokeApiKeyAction} namespace="apiAccess" />}
        cliCommand={`npm run admin -- api-key:create --name … --env ${environment} --scope claims:read`}
      />
      <CredentialCard
        title={t("clients.title")}
        help={t("clients.help")}
        create={<CreateCredentialForm kind="client" action={createOAuthClientAction} defaultEnvironment={environment} />}
        columns={[
          { key: "name", header: t("columns.name"), cell: (c) => c.name, className: "px-4 py-2 font-medium" },
          { key: "clientId", header: t("columns.clientId"), cell: (c) => <code className={code}>{c.clientId}</code>, ltr: true },
          { key: "environment", header: t("columns.environment"), cell: (c) => envBadge(c.environment) },
          { key: "scopes", header: t("columns.scopes"), cell: (c) => c.scopes.join(" "), ltr: true, className: "px-4 py-2 font-mono text-xs" },
          { key: "created", header: t("columns.created"), cell: (c) => when(c.createdAt), className: cellTime },
          { key: "lastToken", header: t("columns.lastToken"), cell: (c) => when(c.lastUsedAt), className: cellTime },
        ]}
        rows={clients}
        empty={t("clients.empty")}
        labels={labels}
        revoke={(c) => <RevokeButton id={c.id} name={c.name} action={revokeOAuthClientAction} namespace="apiAccess" />}
        cliCommand="npm run admin -- oauth-client:create --name … --scope claims:read"
      />
    </>
  );
}
