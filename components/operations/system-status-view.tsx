"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useLiveQuery } from "@/components/query/use-live-query";
import { Badge, Card } from "@/components/ui/card";
import type { SystemStatus, Tone } from "@/lib/operations";
import { DataTable } from "@/components/ui/data-table";

const num = { align: "end", className: "px-2 py-2 tabular-nums" } as const;

const TONE_BADGE = { ok: "green", warn: "amber", bad: "red" } as const;
const QUERY_KEY = ["system-status"] as const;

async function fetchStatus(): Promise<SystemStatus> {
  const response = await fetch("/api/system-status", { cache: "no-store" });
  if (!response.ok) throw new Error(`system status: HTTP ${response.status}`);
  return (await response.json()) as SystemStatus;
}

/**
 * Settings → System status. Refetched every 5 s and at once when a submission changes state
 * (live events), so the outbox figures move while a batch is being sent.
 */
export function SystemStatusView({ initial }: { initial: SystemStatus }) {
  const t = useTranslations("systemStatus");
  const format = useFormatter();
  const { data, isError, connection } = useLiveQuery({ queryKey: QUERY_KEY, queryFn: fetchStatus, initialData: initial, refetchInterval: 5_000, live: () => true });
  const s = data;
  const age = (seconds: number | null) => (seconds === null ? t("never") : t("age", { seconds: Math.round(seconds) }));
  const ms = (value: number | null) => (value === null ? "—" : `${format.number(Math.round(value))} ms`);

  return (
    <div className="space-y-6" aria-live="polite">
      <p className="text-sm text-slate-600">
        {t("updated", { time: format.dateTime(new Date(s.at), { timeStyle: "medium" }) })} · {t(`connection.${connection}`)}
        {isError ? ` · ${t("refreshFailed")}` : ""}
        {s.draining ? <Badge tone="amber">{t("draining")}</Badge> : null}
      </p>

      <Section title={t("outbox.title")} tone={s.outbox.tone} advice={t("outbox.advice")}>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5">
          {(["queued", "sent", "pended", "failed", "rejected"] as const).map((state) => (
            <Figure key={state} label={t(`states.${state}`)} value={format.number(s.outbox.byState[state] ?? 0)} />
          ))}
        </dl>
        <p className="mt-3 text-sm">{t("outbox.oldest", { age: age(s.outbox.oldestQueuedSeconds) })}</p>
      </Section>

      <Section title={t("calls.title")} tone={worst(s.calls.map((c) => c.tone))} advice={t("calls.advice")}>
        <DataTable
          label={t("calls.title")}
          maxHeight=""
          dense
          rows={s.calls}
          rowKey={(c) => c.group}
          rowProps={() => ({})}
          columns={[
            { id: "group", header: t("calls.group"), rowHeader: true, className: "px-2 py-2 font-medium", cell: (c) => t(`groups.${c.group}`) },
            { id: "sent", header: t("calls.sent"), ...num, cell: (c) => format.number(c.calls) },
            { id: "answered", header: t("calls.answered"), ...num, cell: (c) => format.number(c.answered) },
            { id: "failed", header: t("calls.failed"), ...num, cell: (c) => (c.failed > 0 ? <Badge tone={TONE_BADGE[c.tone]}>{format.number(c.failed)}</Badge> : format.number(0)) },
            { id: "p50", header: "p50", ...num, cell: (c) => <span dir="ltr">{ms(c.p50Ms)}</span> },
            { id: "p95", header: "p95", ...num, cell: (c) => <span dir="ltr">{ms(c.p95Ms)}</span> },
          ]}
        />
      </Section>

      <Section title={t("rate.title")} tone={worst(s.rate.map((r) => r.tone))} advice={t("rate.advice")}>
        <ul className="space-y-3">
          {s.rate.map((r) => (
            <li key={r.group}>
              <div className="flex justify-between text-sm">
                <span>{t(`groups.${r.group}`)}</span>
                <span className="tabular-nums">{t("rate.use", { used: r.used, limit: r.limit })}</span>
              </div>
              <div className="mt-1 h-2 rounded bg-slate-100" role="meter" aria-valuemin={0} aria-valuemax={r.limit} aria-valuenow={r.used} aria-label={t(`groups.${r.group}`)}>
                <div className={`h-2 rounded ${r.tone === "ok" ? "bg-emerald-500" : r.tone === "warn" ? "bg-amber-500" : "bg-red-600"}`} style={{ width: `${Math.min(100, (r.used / r.limit) * 100)}%` }} />
              </div>
            </li>
          ))}
        </ul>
      </Section>

      <div className="grid gap-6 md:grid-cols-2">
        <Section title={t("webhook.title")} tone={s.webhook.tone} advice={t("webhook.advice")}>
          <p className="text-sm">{s.webhook.lastAt ? t("webhook.last", { age: age(s.webhook.ageSeconds) }) : t("webhook.none")}</p>
        </Section>
        <Section title={t("poller.title")} tone={s.poller.tone} advice={t("poller.advice")}>
          <p className="text-sm">{t("poller.backlog", { count: s.poller.backlog })}</p>
        </Section>
      </div>

      <Section title={t("certificates.title")} tone={worst(s.certificates.map((c) => c.tone))} advice={t("certificates.advice")}>
        {s.certificates.length === 0 ? (
          <p className="text-sm">{t("certificates.none")}</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm">
            {s.certificates.map((c) => (
              <li key={c.facility} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="font-medium" dir="ltr">{c.facility}</span>
                {c.error ? (
                  <span className="text-red-700">{c.error}</span>
                ) : (
                  <span>
                    {t("certificates.expires", { date: format.dateTime(new Date(c.notAfter!), { dateStyle: "medium" }), days: c.daysLeft! })}{" "}
                    <Badge tone={TONE_BADGE[c.tone]}>{t(`tones.${c.tone}`)}</Badge>
                  </span>
                )}
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section title={t("system.title")} tone="ok">
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          <Figure label={t("system.database")} value={s.database.kind === "pglite" ? t("system.embedded") : "PostgreSQL"} />
          <Figure label={t("system.size")} value={s.database.sizeBytes === null ? "—" : `${format.number(s.database.sizeBytes / 1_048_576, { maximumFractionDigits: 1 })} MB`} ltr />
          <Figure label={t("system.migrations")} value={format.number(s.database.migrations)} />
          <Figure label={t("system.version")} value={s.build.version} ltr />
        </dl>
      </Section>
    </div>
  );
}

function worst(tones: Tone[]): Tone {
  return tones.includes("bad") ? "bad" : tones.includes("warn") ? "warn" : "ok";
}

function Section({ title, tone, advice, children }: { title: string; tone: Tone; advice?: string; children: React.ReactNode }) {
  const t = useTranslations("systemStatus");
  return (
    <Card className="p-4">
      <div className="mb-3 flex items-center justify-between gap-2">
        <h2 className="font-semibold">{title}</h2>
        <Badge tone={TONE_BADGE[tone]}>{t(`tones.${tone}`)}</Badge>
      </div>
      {children}
      {advice && tone !== "ok" ? <p className="mt-3 rounded-md bg-amber-50 p-2 text-sm text-amber-900">{advice}</p> : null}
    </Card>
  );
}

function Figure({ label, value, ltr }: { label: string; value: string; ltr?: boolean }) {
  return (
    <div>
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums">{ltr ? <span dir="ltr">{value}</span> : value}</dd>
    </div>
  );
}
