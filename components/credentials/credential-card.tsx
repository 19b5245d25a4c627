import type { ReactNode } from "react";
import { Badge, Card } from "@/components/ui/card";
import { DataTable, type Column } from "@/components/ui/data-table";

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
  return (
    <Card className="mb-6">
      <div className="border-b border-slate-200 px-4 py-3">
        <h2 className="font-semibold">{title}</h2>
        <p className="mt-1 text-sm text-slate-600">{help}</p>
      </div>
      <div className="border-b border-slate-200 p-4">{create}</div>
      <DataTable
        label={title}
        columns={[
          ...columns.map((c): Column<R> => ({ id: c.key, header: c.header, cell: c.cell, className: c.className, dir: c.ltr ? "ltr" : undefined })),
          { id: "status", header: labels.status, cell: (row) => (row.revokedAt ? <Badge tone="red">{labels.revoked}</Badge> : <Badge tone="green">{labels.active}</Badge>) },
          { id: "actions", header: labels.actions, cell: (row) => !row.revokedAt && revoke(row) },
        ]}
        rows={rows}
        rowKey={(row) => row.id}
        rowProps={() => ({ className: "align-top" })}
        empty={empty}
      />
      <p className="border-t border-slate-200 px-4 py-3 text-xs text-slate-600">
        {labels.cli} <code dir="ltr" className="rounded bg-slate-100 px-1 font-mono text-xs">{cliCommand}</code>
      </p>
    </Card>
  );
}
