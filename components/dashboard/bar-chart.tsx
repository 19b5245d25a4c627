/**
 * A horizontal bar chart drawn with plain elements (no chart library): bars are proportional to
 * the largest value. It is decorative for screen readers — every chart has its table next to it.
 */
export function BarChart({ items, label }: { items: { label: string; value: number }[]; label: string }) {
  const max = Math.max(0, ...items.map((i) => i.value));
  return (
    <figure aria-label={label} className="space-y-1.5">
      <div aria-hidden="true" className="space-y-1.5">
        {items.map((item, i) => (
          <div key={`${item.label}-${i}`} className="grid grid-cols-[minmax(6rem,12rem)_1fr] items-center gap-3 text-xs">
            <span className="truncate text-slate-700" title={item.label}>
              {item.label}
            </span>
            <span className="h-3 rounded-sm bg-slate-100">
              <span className="block h-3 rounded-sm bg-sky-600" style={{ width: `${max > 0 ? Math.max(1, (item.value / max) * 100) : 0}%` }} />
            </span>
          </div>
        ))}
      </div>
    </figure>
  );
}

/** A column chart for trends: one column per period, tallest = largest value. */
export function ColumnChart({ items, label }: { items: { label: string; value: number }[]; label: string }) {
  const max = Math.max(0, ...items.map((i) => i.value));
  return (
    <figure aria-label={label}>
      <div aria-hidden="true" className="flex h-32 items-end gap-px border-b border-slate-300" dir="ltr">
        {items.map((item, i) => (
          <span
            key={`${item.label}-${i}`}
            title={item.label}
            className="min-w-px flex-1 rounded-t-sm bg-sky-600"
            style={{ height: `${max > 0 ? Math.max(1, (item.value / max) * 100) : 0}%` }}
          />
        ))}
      </div>
      {items.length > 0 && (
        <div aria-hidden="true" className="mt-1 flex justify-between text-[11px] text-slate-500" dir="ltr">
          <span>{items[0]!.label}</span>
          <span>{items[items.length - 1]!.label}</span>
        </div>
      )}
    </figure>
  );
}
