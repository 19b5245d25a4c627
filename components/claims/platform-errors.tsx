import { getTranslations } from "next-intl/server";

export type PlatformErrorEntry = { code?: string; status?: number; diagnostics?: string; resolution?: string; field?: string };

const KNOWN = ["ERR-001", "ERR-002", "ERR-003", "ERR-004", "ERR-005"];

/** The platform's reasons in words a clerk can act on: translated resolution, then the field. */
export async function PlatformErrors({ errors }: { errors: PlatformErrorEntry[] | null }) {
  const t = await getTranslations("claims.errors");
  if (!errors?.length) return null;
  return (
    <ul className="space-y-1 text-sm" data-testid="platform-errors">
      {errors.map((e, i) => (
        <li key={i} className="flex flex-wrap items-baseline gap-x-2">
          <span dir="ltr" className="font-mono text-xs text-red-800">
            {e.code ?? (e.status ? `HTTP ${e.status}` : "—")}
          </span>
          <span className="font-medium" dir="auto">{e.code && KNOWN.includes(e.code) ? t(e.code as "ERR-001") : e.resolution ?? e.diagnostics ?? t("other")}</span>
          {e.field && (
            <span className="text-xs text-slate-600">
              {t("field")}: <bdi dir="ltr" className="font-mono">{e.field}</bdi>
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
