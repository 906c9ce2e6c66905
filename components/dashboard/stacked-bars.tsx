import { scaleBand, scaleLinear } from "d3-scale";
import { stack } from "d3-shape";
import Link from "next/link";
import { colorOf } from "./palette";

export interface StackedBarsProps {
  id: string;
  title: string;
  /** one sentence summing the chart up, read before the data table */
  summary: string;
  days: string[];
  /** a series; its legend entry links to the list behind it when it has an href */
  keys: { key: string; label: string; href?: string }[];
  /** value per day per key */
  values: Record<string, Record<string, number>>;
  unit: string;
  /** the heading of the data table's first column */
  bucketLabel?: string;
  /** a bucket's axis label (a day's: its month and day) */
  tickLabel?: (bucket: string) => string;
}

const W = 640;
const H = 200;
const M = { top: 8, right: 8, bottom: 22, left: 36 };

/**
 * A stacked bar chart per day, drawn on the server as SVG with d3-scale and d3-shape (no
 * client JavaScript). Its text alternative is the summary (aria-describedby) and a data
 * table; each series' legend entry links to the filtered list behind it.
 */
export function StackedBars({
  id,
  title,
  summary,
  days,
  keys,
  values,
  unit,
  bucketLabel = "Day",
  tickLabel = (day) => day.slice(5),
}: StackedBarsProps) {
  const rows = days.map((day) => ({
    day,
    ...Object.fromEntries(keys.map((k) => [k.key, values[day]?.[k.key] ?? 0])),
  }));
  const series = stack<Record<string, number | string>>()
    .keys(keys.map((k) => k.key))
    .value((row, key) => Number(row[key] ?? 0))(rows);
  const max = Math.max(1, ...series.flatMap((s) => s.map((p) => p[1])));
  const x = scaleBand<string>()
    .domain(days)
    .range([M.left, W - M.right])
    .padding(0.15);
  const y = scaleLinear()
    .domain([0, max])
    .nice()
    .range([H - M.bottom, M.top]);
  const every = Math.ceil(days.length / 8);
  return (
    <figure className="chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="chart-title">
        {title}
      </figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-summary`}
      >
        {y.ticks(4).map((t) => (
          <g key={t}>
            <line x1={M.left} x2={W - M.right} y1={y(t)} y2={y(t)} stroke="#e6e8eb" />
            <text x={M.left - 4} y={y(t)} dy="0.32em" textAnchor="end" fontSize="10" fill="#5f6570">
              {t}
            </text>
          </g>
        ))}
        {series.map((s, i) => (
          <g key={s.key} fill={colorOf(i)}>
            {s.map((p, j) =>
              p[1] > p[0] ? (
                <rect
                  key={days[j]}
                  x={x(days[j])}
                  width={x.bandwidth()}
                  y={y(p[1])}
                  height={y(p[0]) - y(p[1])}
                >
                  <title>{`${days[j]} · ${keys[i].label}: ${p[1] - p[0]} ${unit}`}</title>
                </rect>
              ) : null,
            )}
          </g>
        ))}
        {days.map((d, j) =>
          j % every === 0 ? (
            <text
              key={d}
              x={(x(d) ?? 0) + x.bandwidth() / 2}
              y={H - 6}
              textAnchor="middle"
              fontSize="10"
              fill="#5f6570"
            >
              {tickLabel(d)}
            </text>
          ) : null,
        )}
      </svg>
      <p id={`${id}-summary`} className="hint">
        {summary}
      </p>
      <ul className="legend" aria-label={`${title}: series`}>
        {keys.map((k, i) => (
          <li key={k.key}>
            <span className="swatch" style={{ background: colorOf(i) }} aria-hidden="true" />
            {k.href ? <Link href={k.href}>{k.label}</Link> : k.label}
          </li>
        ))}
      </ul>
      <details>
        <summary>Data table</summary>
        <table className="data">
          <caption className="sr-only">{title}</caption>
          <thead>
            <tr>
              <th scope="col">{bucketLabel}</th>
              {keys.map((k) => (
                <th scope="col" key={k.key}>
                  {k.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows
              .filter((r) => keys.some((k) => Number(r[k.key as keyof typeof r]) > 0))
              .map((r) => (
                <tr key={r.day}>
                  <th scope="row">{r.day}</th>
                  {keys.map((k) => (
                    <td key={k.key}>{String(r[k.key as keyof typeof r])}</td>
                  ))}
                </tr>
              ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
