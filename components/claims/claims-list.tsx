"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { buttonClasses } from "@/components/ui/button";
import { fromAction, useLiveQuery } from "@/components/query/use-live-query";
import { claimListAction, type ClaimListQuery, type ClaimListView } from "@/lib/claims/browser";
import { STATUS_ORDER } from "@/lib/i18n/browser";
import { ClaimsTable } from "./claims-table";

/** Events that change what the list shows: a claim's status, its payment, a payer's question. */
const KINDS = ["submission.status", "payment.remittance", "information.request"] as const;

/**
 * The claims list (status chips, table, paging) as live data: the server's first view, then the
 * same view again from `claimListAction` whenever a claim changes (TanStack Query, useLiveQuery).
 * `children` (the filter form) is rendered between the chips and the table.
 */
export function ClaimsList({ query, initial, children }: { query: ClaimListQuery; initial: ClaimListView; children?: React.ReactNode }) {
  const t = useTranslations("claims");
  const words = useTranslations("statusWords");
  const { data, changes } = useLiveQuery({
    queryKey: ["claims", "list", query],
    queryFn: fromAction(() => claimListAction(query)),
    initialData: { ok: true as const, ...initial },
    live: (e) => e.submissionKind === "claim",
    kinds: KINDS,
  });
  const { status, cursor, ...rest } = query;
  const href = (extra: Partial<Record<keyof ClaimListQuery, string | undefined>>) => {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...rest, status, cursor, ...extra })) if (v) qs.set(k, v);
    return `/claims?${qs.toString()}`;
  };
  const chip = (active: boolean) =>
    `rounded-full px-3 py-1 text-sm ring-1 ring-inset ${active ? "bg-brand-700 text-white ring-brand-700" : "bg-white text-slate-700 ring-slate-300"}`;
  return (
    <>
      <p className="sr-only" aria-live="polite">
        {changes ? t("live.updated") : ""}
      </p>
      <nav aria-label={t("chips.label")} className="mb-4 flex flex-wrap gap-2" data-testid="status-chips">
        <Link href={href({ status: undefined, cursor: undefined })} aria-current={!status ? "page" : undefined} className={chip(!status)}>
          {t("chips.all")} <span className="tabular-nums">{data.total}</span>
        </Link>
        {STATUS_ORDER.filter((s) => data.counts[s]).map((s) => (
          <Link key={s} href={href({ status: s, cursor: undefined })} aria-current={status === s ? "page" : undefined} data-testid={`chip-${s}`} className={chip(status === s)}>
            {words(`claim.${s}`)} <span className="tabular-nums">{data.counts[s]}</span>
          </Link>
        ))}
      </nav>
      {/* The page's filter form (server-rendered) sits between the chips and the table. */}
      {children}
      <ClaimsTable rows={data.rows} />
      <div className="mt-4 flex justify-between">
        {cursor ? (
          <Link href={href({ cursor: undefined })} className={buttonClasses("secondary")}>
            {t("first")}
          </Link>
        ) : (
          <span />
        )}
        {data.next && (
          <Link href={href({ cursor: data.next })} className={buttonClasses("secondary")} data-testid="next-page">
            {t("next")}
          </Link>
        )}
      </div>
    </>
  );
}
