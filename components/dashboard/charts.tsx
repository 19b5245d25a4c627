import { scaleLinear, scalePoint } from "d3-scale";
import { area, line } from "d3-shape";

/*
 * The dashboard's charts, drawn on the server: d3-scale gives the scales and "nice" ticks,
 * d3-shape the trend's path; the markup is ours (decision 054). No chart code reaches the browser.
 * Every chart has its table next to it; the chart's own accessible name says what it shows.
 */

export interface ChartItem {
  label: string;
  value: number;
  /** The value as shown at the bar's end and in the tooltip (money, rate, count in the page's language). */
  display: string;
}

const compact = (locale: string) => new Intl.NumberFormat(locale, { notation: "compact", maximumFractionDigits: 1 });

/** Axes show four or so ticks. */
export const AXIS_TICKS = 4;

/**
 * A value axis from 0 to at least `max`, made "nice" with as many steps as the axis shows, so its
 * top tick is at or above the largest value (a bare `.nice()` picks finer steps than four ticks,
 * and the largest bar or point could end past the last labelled tick).
 */
export function valueScale(max: number) {
  return scaleLinear()
    .domain([0, max > 0 ? max : 1])
    .nice(AXIS_TICKS);
}

/**
 * Horizontal bars with their values at the ends and an axis of nice ticks underneath. Laid out
 * with logical properties, so on Arabic pages the bars grow from the right; labels wrap instead of
 * being cut. Hovering a bar shows its label and value.
 */
export function BarChart({ items, label, locale, percent = false }: { items: ChartItem[]; label: string; locale: string; percent?: boolean }) {
  const max = Math.max(0, ...items.map((i) => i.value));
  const x = valueScale(percent ? 100 : max);
  const ticks = x.ticks(AXIS_TICKS);
  const tick = (v: number) => (percent ? new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 0 }).format(v / 100) : compact(locale).format(v));
  // Along the bar area less room for the value written at the end of the longest bar: the value
  // stays inside the card however narrow it is (docs/decisions/106).
  const at = (v: number) => `calc((100% - 7rem) * ${x(v).toFixed(4)})`;
  return (
    <figure role="img" aria-label={label} className="text-xs" data-testid="bar-chart">
      <div className="space-y-1.5">
        {items.map((item, i) => (
          <div key={`${item.label}-${i}`} className="grid grid-cols-1 items-center gap-x-3 sm:grid-cols-[minmax(7rem,14rem)_1fr]" title={`${item.label}: ${item.display}`}>
            <span className="text-slate-700">{item.label}</span>
            <span className="relative flex h-4 min-w-0 items-center">
              <span className="block h-3 rounded-sm bg-sky-600" style={{ width: item.value > 0 ? `max(2px, ${at(item.value)})` : "0" }} />
              <span className="ms-1.5 whitespace-nowrap tabular-nums text-slate-800" data-testid="bar-value">
                {item.display}
              </span>
            </span>
          </div>
        ))}
      </div>
      {/* On a phone each label sits above its bar: the bars and the axis get the card's width. */}
      <div className="mt-1 grid grid-cols-1 gap-3 sm:grid-cols-[minmax(7rem,14rem)_1fr]" aria-hidden="true">
        <span className="max-sm:hidden" />
        <span className="relative h-4 border-t border-slate-300 text-[11px] text-slate-500">
          {ticks.map((v, i) => (
            // On a phone every other tick: the labels (longer in Arabic) never overlap.
            <span key={v} className={`absolute top-0.5 -translate-x-1/2 whitespace-nowrap tabular-nums rtl:translate-x-1/2 ${i % 2 === 1 ? "max-sm:hidden" : ""}`} style={{ insetInlineStart: at(v) }}>
              {tick(v)}
            </span>
          ))}
        </span>
      </div>
    </figure>
  );
}

/**
 * The trend as a time series: an area and line over the periods (clinic days or weeks), a value
 * axis with nice ticks, up to six dates on the time axis, a point per period with its tooltip.
 * Time runs left to right in both languages (as on a calendar's timeline); the labels are localised.
 */
export function TrendChart({ items, label, locale }: { items: ChartItem[]; label: string; locale: string }) {
  // Wide and low: at the widget's full width the text stays at about the page's small size.
  const width = 1000;
  const height = 200;
  const m = { top: 12, right: 16, bottom: 28, left: 56 };
  const x = scalePoint<string>()
    .domain(items.map((i) => i.label))
    .range([m.left, width - m.right])
    .padding(items.length === 1 ? 0.5 : 0);
  const y = valueScale(Math.max(0, ...items.map((i) => i.value))).range([height - m.bottom, m.top]);
  const px = (i: ChartItem) => x(i.label) ?? m.left;
  const path = line<ChartItem>().x(px).y((i) => y(i.value))(items) ?? "";
  const fill = area<ChartItem>().x(px).y0(y(0)).y1((i) => y(i.value))(items) ?? "";
  const every = Math.max(1, Math.ceil(items.length / 6));
  const dates = items.filter((_, n) => n % every === 0 || n === items.length - 1);
  const day = new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", timeZone: "UTC" });
  const dateLabel = (iso: string) => day.format(new Date(`${iso}T00:00:00Z`));
  return (
    <figure role="img" aria-label={label} data-testid="trend-chart">
      <div dir="ltr">
      <svg viewBox={`0 0 ${width} ${height}`} className="h-auto w-full">
        <g className="text-slate-500" fontSize="11" aria-hidden="true">
          {y.ticks(AXIS_TICKS).map((v) => (
            <g key={v}>
              <line x1={m.left} x2={width - m.right} y1={y(v)} y2={y(v)} stroke="currentColor" strokeOpacity={v === 0 ? 0.5 : 0.15} />
              <text x={m.left - 6} y={y(v)} dy="0.32em" textAnchor="end" fill="currentColor">
                {compact(locale).format(v)}
              </text>
            </g>
          ))}
          {dates.map((i) => (
            <text key={i.label} x={px(i)} y={height - 8} textAnchor="middle" fill="currentColor">
              {dateLabel(i.label)}
            </text>
          ))}
        </g>
        <path d={fill} className="fill-sky-600/15" />
        <path d={path} fill="none" className="stroke-sky-700" strokeWidth={2} />
        {items.map((i) => (
          <circle key={i.label} cx={px(i)} cy={y(i.value)} r={items.length > 60 ? 1.5 : 3} className="fill-sky-700">
            <title>{`${dateLabel(i.label)}: ${i.display}`}</title>
          </circle>
        ))}
      </svg>
      </div>
    </figure>
  );
}
