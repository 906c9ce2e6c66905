import { scaleLinear } from "d3-scale";
import Link from "next/link";
import { colorOf } from "./palette";

export interface Share {
  key: string;
  label: string;
  value: number;
  href: string;
}

/**
 * One 100% bar of shares (server-rendered SVG, d3-scale), with the numbers and percentages
 * as a list that is also its text alternative, each entry a link to the list behind it.
 */
export function ShareBar({ id, title, parts }: { id: string; title: string; parts: Share[] }) {
  const total = parts.reduce((s, p) => s + p.value, 0);
  const x = scaleLinear()
    .domain([0, Math.max(1, total)])
    .range([0, 600]);
  // where each part starts: the sum of the parts before it
  const starts = parts.map((_, i) => parts.slice(0, i).reduce((s, p) => s + p.value, 0));
  const pct = (v: number) => (total ? `${Math.round((v / total) * 1000) / 10}%` : "0%");
  return (
    <figure className="chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="chart-title">
        {title}
      </figcaption>
      <svg viewBox="0 0 600 28" role="img" aria-labelledby={`${id}-title`} aria-describedby={`${id}-list`}>
        {parts.map((p, i) => (
          <rect key={p.key} x={x(starts[i])} width={x(p.value)} y={0} height={28} fill={colorOf(i)}>
            <title>{`${p.label}: ${p.value} (${pct(p.value)})`}</title>
          </rect>
        ))}
      </svg>
      <ul className="legend" id={`${id}-list`}>
        {parts.map((p, i) => (
          <li key={p.key}>
            <span className="swatch" style={{ background: colorOf(i) }} aria-hidden="true" />
            <Link href={p.href}>
              {p.label}: {p.value.toLocaleString("en-US")} ({pct(p.value)})
            </Link>
          </li>
        ))}
      </ul>
    </figure>
  );
}
