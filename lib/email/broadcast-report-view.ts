import type { BroadcastReport } from "./broadcast-stats";

/** One line of the report's table: `value` null when the thing is not measured at all. */
export interface ReportRow {
  key: "sent" | "delivered" | "opened" | "clicked" | "bounced" | "complained" | "unsubscribed";
  label: string;
  value: number | null;
  note: string;
}

/** What the broadcast's page says of opens and clicks, given whether the workspace tracks them now. */
export interface ReportView {
  rows: ReportRow[];
  /** the report's sentence on tracking; null when it is on */
  trackingNote: string | null;
  /** opens and clicks have counts to chart (tracked now, or recorded while tracking was on) */
  engagementShown: boolean;
}

const percent = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 100)}%` : "–");
const TRACKING_OFF = "Opens and clicks are not tracked in this workspace";

/**
 * The report's counts as the page shows them (docs/decisions.md, "Email engagement"). Opens and
 * clicks exist only while tracking is on: with it off, a broadcast with none shows them as not
 * tracked rather than as a measured 0 (0% of delivered would say nobody opened), and one with
 * some says they were recorded while tracking was on, machines' apart as ever.
 */
export function broadcastReportView(report: BroadcastReport, tracking: boolean): ReportView {
  const { stats, human } = report;
  const recorded = stats.opened_unique + stats.clicked_unique > 0;
  const engagementShown = tracking || recorded;
  const engagement = (kind: "opened" | "clicked", label: string): ReportRow => {
    if (!engagementShown) return { key: kind, label, value: null, note: "not tracked" };
    const people = human[`${kind}_unique`];
    const machines = stats[`${kind}_unique`] - people;
    const when = tracking ? "" : "; recorded while tracking was on";
    return {
      key: kind,
      label,
      value: people,
      note: `${percent(people, stats.delivered)} of delivered; ${machines} more by machines${when}`,
    };
  };
  return {
    rows: [
      { key: "sent", label: "Sent", value: stats.sent, note: "" },
      {
        key: "delivered",
        label: "Delivered",
        value: stats.delivered,
        note: percent(stats.delivered, stats.sent),
      },
      engagement("opened", "Unique opens"),
      engagement("clicked", "Unique clicks"),
      { key: "bounced", label: "Bounces", value: stats.bounced, note: percent(stats.bounced, stats.sent) },
      {
        key: "complained",
        label: "Complaints",
        value: stats.complained,
        note: percent(stats.complained, stats.sent),
      },
      {
        key: "unsubscribed",
        label: "Unsubscribes",
        value: stats.unsubscribed,
        note: percent(stats.unsubscribed, stats.delivered),
      },
    ],
    trackingNote: tracking
      ? null
      : recorded
        ? `${TRACKING_OFF} now: the opens and clicks shown were recorded while tracking was on, and none are recorded since.`
        : `${TRACKING_OFF}, so this broadcast has no open or click counts.`,
    engagementShown,
  };
}
