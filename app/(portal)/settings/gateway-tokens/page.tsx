import type { Metadata } from "next";
import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";
import { CreateTokenForm } from "@/components/gateway-tokens/create-token-form";
import { CredentialCard } from "@/components/credentials/credential-card";
import { RevokeButton } from "@/components/credentials/revoke-button";
import { Card, PageHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { listGatewayTokens, createGatewayTokenAction, revokeGatewayTokenAction } from "@/lib/api-access";
import { requireArea } from "@/lib/auth";
import { getDb } from "@/lib/db";
import { AGENT_ROLES, AGENT_TASKS, GatewayConfigError, gatewayConfig, type GatewayConfig } from "@/lib/gateway";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("gatewayTokens"))("title") };
}

const cellTime = "whitespace-nowrap px-4 py-2 tabular-nums";
const code = "rounded bg-slate-100 px-1 font-mono text-xs";

function readConfig(): { config?: GatewayConfig; error?: string } {
  try {
    return { config: gatewayConfig() };
  } catch (error) {
    if (error instanceof GatewayConfigError) return { error: error.message };
    throw error;
  }
}

export default async function GatewayTokensPage() {
  await requireArea("settings");
  const [t, format] = [await getTranslations("gatewayTokens"), await getFormatter()];
  const tokens = await listGatewayTokens(await getDb());
  const { config, error } = readConfig();
  const when = (d: Date | null) => (d ? format.dateTime(d, { dateStyle: "medium", timeStyle: "short" }) : t("never"));

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

      <CredentialCard
        title={t("tokens.title")}
        help={t("tokens.help")}
        create={<CreateTokenForm action={createGatewayTokenAction} />}
        columns={[
          {
            key: "name",
            header: t("columns.name"),
            className: "px-4 py-2 font-medium",
            cell: (k) => (
              <>
                {k.name}
                {k.createdBy && (
                  <span className="block text-xs font-normal text-slate-500" dir="ltr">
                    {k.createdBy}
                  </span>
                )}
              </>
            ),
          },
          { key: "prefix", header: t("columns.prefix"), cell: (k) => <code className={code}>{k.prefix}…</code>, ltr: true },
          { key: "created", header: t("columns.created"), cell: (k) => when(k.createdAt), className: cellTime },
          { key: "lastUsed", header: t("columns.lastUsed"), cell: (k) => when(k.lastUsedAt), className: cellTime },
        ]}
        rows={tokens}
        empty={t("tokens.empty")}
        labels={{ status: t("columns.status"), actions: t("columns.actions"), active: t("status.active"), revoked: t("status.revoked"), cli: t("cli") }}
        revoke={(k) => <RevokeButton id={k.id} name={k.name} action={revokeGatewayTokenAction} namespace="gatewayTokens" />}
        cliCommand="npm run admin -- gateway-token:create --name …"
      />

      <Card>
        <div className="border-b border-slate-200 px-4 py-3">
          <h2 className="font-semibold">{t("agents.title")}</h2>
          <p className="mt-1 text-sm text-slate-600">{t("agents.help")}</p>
        </div>
        {error && (
          <p role="alert" className="border-b border-slate-200 px-4 py-3 text-sm text-red-800">
            {t("agents.configError")} <span dir="ltr" className="font-mono text-xs">{error}</span>
          </p>
        )}
        <DataTable
          label={t("agents.title")}
          rows={AGENT_ROLES}
          rowKey={(role) => role}
          rowProps={() => ({ className: "align-top" })}
          columns={[
            { id: "role", header: t("agents.columns.role"), className: "px-4 py-2 font-medium", cell: (role) => t(`agents.roles.${role}`) },
            {
              id: "names",
              header: t("agents.columns.names"),
              className: "px-4 py-2 font-mono text-xs",
              dir: "ltr",
              cell: (role) => [...[...(config?.brands ?? new Map<string, string>())].filter(([, r]) => r === role).map(([brand]) => brand), role].join(", "),
            },
            { id: "tasks", header: t("agents.columns.tasks"), className: "px-4 py-2 font-mono text-xs", dir: "ltr", cell: (role) => Object.keys(AGENT_TASKS[role]).join(", ") },
          ]}
        />
        <div className="border-t border-slate-200 px-4 py-3 text-xs text-slate-600">
          <p>{t("agents.endpoints")}</p>
          <ul className="mt-1 space-y-1" dir="ltr">
            <li className="text-start"><code className={code}>POST /query</code></li>
            <li className="text-start"><code className={code}>GET /fhir/Patient/{"{id}"}</code></li>
            <li className="text-start"><code className={code}>POST /fhir/Claim</code></li>
            <li className="text-start"><code className={code}>POST /mcp/{"{agent}"}</code></li>
          </ul>
          {config && <p className="mt-2">{t("agents.rate", { limit: config.ratePerMinute })}</p>}
        </div>
      </Card>
    </>
  );
}
