import { getLocale, getTranslations } from "next-intl/server";
import { Card } from "@/components/ui/card";
import { getDb } from "@/lib/db";
import { formatCount, formatDuration, formatMoney, formatRate, kpis, type DashboardRange, type KpiFigures } from "@/lib/dashboard";

type Better = "up" | "down" | "neither";

interface Tile {
  key: "submitted" | "adjudicated" | "approvalRate" | "denialRate" | "benefit" | "patientShare" | "outstanding" | "median";
  value: string;
  /** The figure now and in the previous period, for the change (rates as fractions). */
  now: number | null;
  before: number | null;
  /** Rates change in percentage points; everything else in per cent of the previous figure. */
  points?: boolean;
  better: Better;
}

const share = (part: number, whole: number) => (whole ? part / whole : null);

function tiles(c: KpiFigures, p: KpiFigures, locale: string): Tile[] {
  return [
    { key: "submitted", value: formatCount(c.submitted, locale), now: c.submitted, before: p.submitted, better: "neither" },
    { key: "adjudicated", value: formatCount(c.adjudicated, locale), now: c.adjudicated, before: p.adjudicated, better: "up" },
    { key: "approvalRate", value: formatRate(c.approved, c.adjudicated, locale), now: share(c.approved, c.adjudicated), before: share(p.approved, p.adjudicated), points: true, better: "up" },
    { key: "denialRate", value: formatRate(c.denied, c.adjudicated, locale), now: share(c.denied, c.adjudicated), before: share(p.denied, p.adjudicated), points: true, better: "down" },
    // Number() of minor units only to compare two periods, never to show money.
    { key: "benefit", value: formatMoney(c.benefitMinor, locale), now: Number(c.benefitMinor), before: Number(p.benefitMinor), better: "neither" },
    { key: "patientShare", value: formatMoney(c.copayMinor, locale), now: Number(c.copayMinor), before: Number(p.copayMinor), better: "neither" },
    { key: "outstanding", value: formatCount(c.outstanding, locale), now: c.outstanding, before: p.outstanding, better: "down" },
    { key: "median", value: formatDuration(c.medianSeconds, locale), now: c.medianSeconds, before: p.medianSeconds, better: "down" },
  ];
}

/**
 * The dashboard's headline figures for the range, each with its change against the period of the
 * same length before it — said in words (the arrow and colour only repeat them). Streams on its own.
 */
export async function KpiTiles({ range }: { range: DashboardRange }) {
  const [t, locale, db] = [await getTranslations("dashboard.kpi"), await getLocale(), await getDb()];
  const { current, previous, days } = await kpis(db, range);
  const percent = (value: number, digits = 0) => new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: digits }).format(value);
  const number = (value: number) => new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(value);
  const change = (tile: Tile): { text: string; direction: "up" | "down" | "same" | "none" } => {
    if (tile.now === null || tile.before === null || (!tile.points && tile.before === 0)) return { text: t("noPrevious", { days }), direction: "none" };
    const delta = tile.points ? (tile.now - tile.before) * 100 : (tile.now - tile.before) / tile.before;
    if (Math.abs(delta) < (tile.points ? 0.05 : 0.0005)) return { text: t("same", { days }), direction: "same" };
    const size = tile.points ? t("points", { value: number(Math.abs(delta)) }) : percent(Math.abs(delta), Math.abs(delta) < 0.1 ? 1 : 0);
    return { text: t(delta > 0 ? "up" : "down", { change: size, days }), direction: delta > 0 ? "up" : "down" };
  };
  const tone = (better: Better, direction: string) =>
    better === "neither" || direction === "same" || direction === "none" ? "text-slate-600" : (better === direction ? "text-emerald-800" : "text-red-800");
  return (
    <section aria-labelledby="kpi-title" className="mb-6" data-testid="kpi-tiles">
      <h2 id="kpi-title" className="sr-only">
        {t("title")}
      </h2>
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        {tiles(current, previous, locale).map((tile) => {
          const c = change(tile);
          return (
            // A <dl> admits one level of <div> around each term and its values: the tile is that div.
            <div key={tile.key} className="min-w-0 rounded-lg border border-slate-200 bg-white p-3 shadow-sm sm:p-4" data-testid={`kpi-${tile.key}`} data-value={tile.now ?? ""} data-change={c.direction}>
              <dt className="text-sm text-slate-600">
                {t(tile.key)}
                {tile.key === "outstanding" && <span className="block text-xs text-slate-500">{t("outstandingHint")}</span>}
              </dt>
              <dd className="mt-1 text-lg font-semibold tabular-nums text-slate-900 [overflow-wrap:anywhere] sm:text-2xl">{tile.value}</dd>
              <dd className={`mt-1 text-xs ${tone(tile.better, c.direction)}`}>
                <span aria-hidden="true">{c.direction === "up" ? "▲ " : c.direction === "down" ? "▼ " : ""}</span>
                {c.text}
              </dd>
            </div>
          );
        })}
      </dl>
    </section>
  );
}

export function KpiTilesSkeleton() {
  return (
    <div aria-busy="true" className="mb-6 grid grid-cols-2 gap-3 md:grid-cols-4" data-testid="kpi-skeleton">
      {Array.from({ length: 8 }, (_, i) => (
        <Card key={i} className="h-24 animate-pulse p-4">
          <div className="h-3 w-1/2 rounded bg-slate-200" />
          <div className="mt-3 h-6 w-2/3 rounded bg-slate-100" />
        </Card>
      ))}
    </div>
  );
}
