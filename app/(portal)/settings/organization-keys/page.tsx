import type { Metadata } from "next";
import { getFormatter, getTranslations } from "next-intl/server";
import { AddKeyForm, CreateClientForm, RevokeKeyButton, ToggleClientButton } from "@/components/organization-keys/org-key-forms";
import { Badge, Card, PageHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { listOrgClients } from "@/lib/api-access";
import { requireArea } from "@/lib/auth";
import { getDb } from "@/lib/db";
import { providerApiConfig } from "@/lib/provider-api";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("organizationKeys"))("title") };
}

/** Settings → Organization keys: the clients of /api/exchange and their public keys (administrators). */
export default async function OrganizationKeysPage() {
  await requireArea("settings");
  const [t, format] = [await getTranslations("organizationKeys"), await getFormatter()];
  const clients = await listOrgClients(await getDb());
  const { audience, ratePerMinute } = providerApiConfig();
  const date = (d: Date) => format.dateTime(d, { dateStyle: "medium", timeStyle: "short" });

  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <Card className="mb-6 p-4">
        <h2 className="font-semibold">{t("howTitle")}</h2>
        <p className="mt-1 text-sm text-slate-600">{t("howText", { rate: ratePerMinute })}</p>
        <dl className="mt-2 text-sm">
          <dt className="font-medium">{t("audience")}</dt>
          <dd>
            <code dir="ltr" className="rounded bg-slate-100 px-1 text-xs">
              {audience}
            </code>
          </dd>
        </dl>
        <p className="mt-2 text-sm text-slate-600">
          {t("cliHint")}{" "}
          <code dir="ltr" className="rounded bg-slate-100 px-1 text-xs">
            npm run admin -- org-key:add --org ID --jwk-file public.jwk.json
          </code>
        </p>
      </Card>

      <Card className="mb-6 p-4">
        <h2 className="mb-3 font-semibold">{t("newClient")}</h2>
        <CreateClientForm />
      </Card>

      {clients.length === 0 && (
        <Card className="p-6 text-center text-sm text-slate-500">
          <p>{t("empty")}</p>
        </Card>
      )}

      {clients.map((client) => (
        <Card key={client.id} className="mb-6">
          <div className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-200 px-4 py-3">
            <div>
              <h2 className="font-semibold">{client.name}</h2>
              <p className="text-xs text-slate-500">
                {t("clientId")}: <code dir="ltr">{client.clientId}</code> · {t("created")}: {date(client.createdAt)}
              </p>
            </div>
            <div className="flex items-center gap-3">
              {client.disabledAt ? <Badge tone="red">{t("status.disabled")}</Badge> : <Badge tone="green">{t("status.active")}</Badge>}
              <ToggleClientButton clientId={client.clientId} disabled={Boolean(client.disabledAt)} />
            </div>
          </div>
          <DataTable
            label={t("keysOf", { name: client.name })}
            empty={t("noKeys")}
            rows={client.keys}
            rowKey={(key) => key.id}
            rowProps={() => ({ className: "align-top" })}
            columns={[
              { id: "kid", header: t("columns.kid"), className: "px-4 py-2 font-mono text-xs", dir: "ltr", cell: (key) => <span className="break-all">{key.kid}</span> },
              { id: "alg", header: t("columns.alg"), className: "px-4 py-2 font-mono text-xs", dir: "ltr", cell: (key) => key.alg },
              { id: "thumbprint", header: t("columns.thumbprint"), className: "px-4 py-2 font-mono text-xs text-slate-600", dir: "ltr", cell: (key) => <span className="break-all">{key.thumbprint}</span> },
              { id: "created", header: t("columns.created"), className: "whitespace-nowrap px-4 py-2 tabular-nums", cell: (key) => date(key.createdAt) },
              {
                id: "revoked",
                header: t("columns.revoked"),
                className: "whitespace-nowrap px-4 py-2",
                cell: (key) => (key.revokedAt ? <Badge tone="amber">{date(key.revokedAt)}</Badge> : <span className="text-slate-500">—</span>),
              },
              { id: "actions", header: t("columns.actions"), cell: (key) => !key.revokedAt && <RevokeKeyButton clientId={client.clientId} kid={key.kid} /> },
            ]}
          />
          <div className="border-t border-slate-200 px-4 py-3">
            <AddKeyForm clientId={client.clientId} />
          </div>
        </Card>
      ))}
    </>
  );
}
