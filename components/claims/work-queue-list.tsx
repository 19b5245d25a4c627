"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useId, useState, useTransition } from "react";
import { ClaimActions } from "@/components/claims/claim-actions";
import { DeadlineBadge } from "@/components/deadlines/deadline-badge";
import { Button, buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { addWorkNoteAction, assignWorkAction } from "@/lib/claims/browser";
import type { Deadline } from "@/lib/deadlines/browser";

/** One claim of the ranked queue as the server prepared it (money and dates already in words). */
export interface QueueRow {
  id: string;
  status: string;
  statusLabel: string;
  action: "fix" | "retry" | "appeal";
  title: string;
  atStake: string;
  reason: string | null;
  deadline: Deadline | undefined;
  assignee: { id: string; name: string } | null;
  notes: { body: string; by: string; at: string; atText: string }[];
  /** The platform's reasons of a refused or failed claim, rendered on the server (PlatformErrors). */
  errors?: React.ReactNode;
  /** The hint under a refused or failed claim (fix makes a new draft; retry sends the same claim). */
  hint?: string;
}

function NoteForm({ id }: { id: string }) {
  const t = useTranslations("claims.workQueue");
  const router = useRouter();
  const field = useId();
  const [body, setBody] = useState("");
  const [pending, start] = useTransition();
  const [message, setMessage] = useState("");
  return (
    <form
      className="mt-2 flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => {
          const r = await addWorkNoteAction({ id, body });
          setMessage(r.ok ? t("noteSaved") : t("failed"));
          if (r.ok) {
            setBody("");
            router.refresh();
          }
        });
      }}
    >
      <div className="min-w-48 flex-1">
        <label htmlFor={field} className="sr-only">
          {t("noteLabel")}
        </label>
        <input
          id={field}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          maxLength={2000}
          placeholder={t("addNote")}
          className="block w-full rounded-md border border-slate-300 px-2 py-1 text-sm"
          data-testid="work-note-input"
        />
      </div>
      <Button type="submit" variant="secondary" className="px-3 py-1" busy={pending} disabled={!body.trim()} data-testid="work-note-save">
        {t("saveNote")}
      </Button>
      <span role="status" className="text-xs text-slate-600">
        {message}
      </span>
    </form>
  );
}

/**
 * The ranked work queue (docs/decisions/080): select claims and assign them to a biller (or
 * release them); per claim its money at stake, deadline, reason, assignee, notes and next step.
 */
export function WorkQueueList({ rows, staff }: { rows: QueueRow[]; staff: { id: string; name: string }[] }) {
  const t = useTranslations("claims.workQueue");
  const router = useRouter();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [assignee, setAssignee] = useState(staff[0]?.id ?? "");
  const [pending, start] = useTransition();
  const [message, setMessage] = useState("");
  const pickId = useId();
  const toggle = (id: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const run = (to: string) =>
    start(async () => {
      const r = await assignWorkAction({ ids: [...selected], assigneeId: to });
      setMessage(r.ok ? t("assigned", { n: r.changed }) : t("failed"));
      if (r.ok) {
        setSelected(new Set());
        router.refresh();
      }
    });
  const all = rows.length > 0 && selected.size === rows.length;
  return (
    <>
      <div className="sticky top-0 z-10 mb-3 flex flex-wrap items-center gap-3 rounded-lg border border-slate-200 bg-white p-3 shadow-sm" data-testid="work-bulk">
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={all} onChange={(e) => setSelected(e.target.checked ? new Set(rows.map((r) => r.id)) : new Set())} data-testid="work-select-all" />
          {t("selectAll")}
        </label>
        <span className="text-sm text-slate-600" aria-live="polite">
          {t("selected", { n: selected.size })}
        </span>
        <label htmlFor={pickId} className="text-sm font-medium text-slate-800">
          {t("assignTo")}
        </label>
        <select id={pickId} value={assignee} onChange={(e) => setAssignee(e.target.value)} className="rounded-md border border-slate-300 px-2 py-1 text-sm" data-testid="work-assignee">
          {staff.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
        <Button type="button" busy={pending} disabled={selected.size === 0 || !assignee} onClick={() => run(assignee)} data-testid="work-assign">
          {t("assign")}
        </Button>
        <Button type="button" variant="secondary" busy={pending} disabled={selected.size === 0} onClick={() => run("")} data-testid="work-release">
          {t("release")}
        </Button>
        <span role="status" className="text-sm text-slate-700">
          {message}
        </span>
      </div>
      <ol className="space-y-3" data-testid="work-queue">
        {rows.map((r, i) => (
          <li key={r.id} data-testid="work-item" data-id={r.id} data-status={r.status} data-action={r.action}>
            <Card className="p-4">
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="flex items-start gap-3">
                  <input type="checkbox" className="mt-1" checked={selected.has(r.id)} onChange={(e) => toggle(r.id, e.target.checked)} aria-label={`${t("select")}: ${r.title}`} data-testid="work-select" />
                  <div className="space-y-1 text-sm">
                    <p className="flex flex-wrap items-center gap-2">
                      <span className="inline-flex size-6 items-center justify-center rounded-full bg-slate-100 text-xs font-semibold tabular-nums text-slate-700" aria-hidden>
                        {i + 1}
                      </span>
                      <Link href={`/claims/${r.id}`} className="font-medium text-brand-800 underline-offset-2 hover:underline">
                        {r.title}
                      </Link>
                      <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700">{r.statusLabel}</span>
                      <span className="font-semibold tabular-nums text-slate-900" data-testid="work-at-stake">
                        {t("atStake")}: {r.atStake}
                      </span>
                    </p>
                    <p className="flex flex-wrap items-center gap-2">
                      {r.deadline && <DeadlineBadge deadline={r.deadline} />}
                      {r.reason && (
                        <span className="text-xs text-slate-600">
                          {t("reason")}: {r.reason}
                        </span>
                      )}
                      <span className="text-xs text-slate-600" data-testid="work-assigned">
                        {t("assignee")}: {r.assignee?.name ?? t("unassigned")}
                      </span>
                    </p>
                    {r.errors}
                    {r.hint && <p className="text-xs text-slate-500">{r.hint}</p>}
                    {r.notes.length > 0 && (
                      <ul className="space-y-0.5 text-xs text-slate-700" aria-label={t("notes")}>
                        {r.notes.map((n) => (
                          <li key={`${n.at}-${n.body}`}>
                            <span className="font-medium">{n.by}</span> · <time dateTime={n.at}>{n.atText}</time> — {n.body}
                          </li>
                        ))}
                      </ul>
                    )}
                    <NoteForm id={r.id} />
                  </div>
                </div>
                {r.action === "appeal" ? (
                  <div className="flex flex-col items-stretch gap-2">
                    <Link href={`/claims/${r.id}/appeal`} className={buttonClasses("primary")} data-testid="work-appeal">
                      {t("actions.appeal")}
                    </Link>
                    {/* Decision 115: or send the payer the information it lacked, for a reissued decision. */}
                    <Link href={`/claims/${r.id}/evidence`} className={buttonClasses("secondary")} data-testid="work-evidence">
                      {t("actions.sendEvidence")}
                    </Link>
                  </div>
                ) : (
                  <ClaimActions id={r.id} status={r.status} compact />
                )}
              </div>
            </Card>
          </li>
        ))}
      </ol>
    </>
  );
}
