import type { ReactNode } from "react";
import { Badge, Card } from "@/components/ui/card";

/** One column of a credentials table: its header and how a row shows in it. */
export interface CredentialColumn<R> {
  key: string;
  header: string;
  cell: (row: R) => ReactNode;
  /** Identifiers and scopes read left to right in Arabic pages too. */
  ltr?: boolean;
  className?: string;
}

interface Props<R extends { id: string; revokedAt: Date | null }> {
  title: string;
  help: string;
  /** The create form (it shows the new secret once). */
  create: ReactNode;
  columns: CredentialColumn<R>[];
  rows: R[];
  empty: string;
  labels: { status: string; actions: string; active: string; revoked: string; cli: string };
  /** The revoke button of a row that is still active. */
  revoke: (row: R) => ReactNode;
  /** The admin-CLI command that does the same. */
  cliCommand: string;
}

/**
 * A kind of machine credential in Settings (API keys, OAuth clients, gateway tokens): the create
 * form, the list with status and revoke, and the admin-CLI equivalent — one layout for every kind.
 */
export function CredentialCard<R extends { id: string; revokedAt: Date | null }>({ title, help, create, columns, rows, empty, labels, revoke, cliCommand }: Props<R>) {
  const headers = [...columns.map((c) => ({ key: c.key, header: c.header })), { key: "status", header: labels.status }, { key: "actions", header: labels.actions }];
  return (
    <Card className="mb-6">
      <div className="border-b border-slate-200 px-4 py-3">
        <h2 className="font-semibold">{title}</h2>
        <p className="mt-1 text-sm text-slate-600">{help}</p>
      </div>
      <div className="border-b border-slate-200 p-4">{create}</div>
      <div className="overflow-x-auto">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">{title}</caption>
          <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600">
            <tr>
              {headers.map((h) => (
                <th key={h.key} scope="col" className="px-4 py-3 text-start">
                  {h.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.length === 0 && (
              <tr>
                <td colSpan={headers.length} className="px-4 py-8 text-center text-slate-500">
                  {empty}
                </td>
              </tr>
            )}
            {rows.map((row) => (
              <tr key={row.id} className="align-top">
                {columns.map((c) => (
                  <td key={c.key} className={c.className ?? "px-4 py-2"} dir={c.ltr ? "ltr" : undefined}>
                    {c.cell(row)}
                  </td>
                ))}
                <td className="px-4 py-2">{row.revokedAt ? <Badge tone="red">{labels.revoked}</Badge> : <Badge tone="green">{labels.active}</Badge>}</td>
                <td className="px-4 py-2">{!row.revokedAt && revoke(row)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="border-t border-slate-200 px-4 py-3 text-xs text-slate-600">
        {labels.cli} <code dir="ltr" className="rounded bg-slate-100 px-1 font-mono text-xs">{cliCommand}</code>
      </p>
    </Card>
  );
}
