import { scaleLinear } from "d3-scale";
import Link from "next/link";
import type { UpcomingEvent } from "@/lib/dashboard/activity-stats";
import { formatEventDateTime } from "@/lib/time/format";

/**
 * Upcoming events: registrations against capacity, one bar each (server-rendered SVG). An
 * event without a capacity is drawn against the largest registration count. Each name links
 * to the event page with its registrations.
 */
export function CapacityBars({ events }: { events: UpcomingEvent[] }) {
  if (events.length === 0) return <p className="card empty">No upcoming events.</p>;
  const max = Math.max(1, ...events.map((e) => e.capacity ?? e.registered));
  const x = scaleLinear().domain([0, max]).range([0, 300]);
  return (
    <ul className="stack capacity-bars" aria-label="Upcoming events: registrations against capacity">
      {events.map((e) => {
        const label = `${e.registered} registered${e.capacity === null ? " (no capacity set)" : ` of ${e.capacity} seats`}`;
        return (
          <li key={e.id}>
            <Link href={`/events/${e.id}`}>{e.name}</Link>{" "}
            <span className="hint">{formatEventDateTime(e.start_time, e.timezone)}</span>
            <svg viewBox="0 0 300 14" width="300" height="14" role="img" aria-label={label}>
              <rect x={0} y={0} width={300} height={14} fill="#e6e8eb" />
              {e.capacity !== null && <rect x={0} y={0} width={x(e.capacity)} height={14} fill="#cfd6f6" />}
              <rect x={0} y={0} width={x(Math.min(e.registered, max))} height={14} fill="#0072B2" />
            </svg>
            <span className="hint"> {label}</span>
          </li>
        );
      })}
    </ul>
  );
}
