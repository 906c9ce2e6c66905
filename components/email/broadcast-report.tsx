import Link from "next/link";
import { StackedBars } from "@/components/dashboard/stacked-bars";
import { DataTable } from "@/components/ui/data-table";
import { broadcastReportView } from "@/lib/email/broadcast-report-view";
import type { BroadcastReport as Report } from "@/lib/email/broadcast-stats";

/**
 * A sent broadcast's outcome (docs/api.md, "Email engagement"): the counts, two charts over
 * time with their text alternatives (summary sentence and data table), and clicks per link.
 * Opens and clicks that software made (docs/decisions.md, "Email engagement") are counted but
 * shown apart, and left out of the charts.
 */
export function BroadcastReport({ report, tracking }: { report: Report; tracking: boolean }) {
  const { links, timeline } = report;
  const unit = timeline.bucket === "hour" ? "per hour (UTC)" : "per day (UTC)";
  const bucketLabel = timeline.bucket === "hour" ? "Hour (UTC)" : "Day (UTC)";
  const total = (key: string) => Object.values(timeline.values).reduce((sum, v) => sum + (v[key] ?? 0), 0);
  const { rows, trackingNote, engagementShown } = broadcastReportView(report, tracking);
  const charts = [
    {
      id: "broadcast-delivery",
      title: `Deliveries ${unit}`,
      summary: `${total("delivered")} delivered, ${total("bounced")} bounced and ${total("complained")} complaints, from ${timeline.labels[0]} to ${timeline.labels[timeline.labels.length - 1]} UTC.`,
      keys: [
        { key: "delivered", label: "Delivered" },
        { key: "bounced", label: "Bounced" },
        { key: "complained", label: "Complaints" },
      ],
    },
    {
      id: "broadcast-engagement",
      title: `First opens, clicks and unsubscribes ${unit}`,
      summary: engagementShown
        ? `${total("opened")} people opened, ${total("clicked")} clicked and ${total("unsubscribed")} unsubscribed (machines left out), each counted when they first did.`
        : `${total("unsubscribed")} unsubscribed, each counted when they first did; opens and clicks are not tracked.`,
      keys: [
        ...(engagementShown
          ? [
              { key: "opened", label: "Opened" },
              { key: "clicked", label: "Clicked" },
            ]
          : []),
        { key: "unsubscribed", label: "Unsubscribed" },
      ],
    },
  ];
  return (
    <section className="card stack" aria-labelledby="report-heading" data-testid="broadcast-report">
      <h2 id="report-heading">Report</h2>
      {trackingNote && (
        <p className="hint" data-testid="report-tracking">
          {trackingNote} Turn tracking on in the <Link href="/settings/email">email settings</Link>.
        </p>
      )}
      <DataTable rows={rows} columns={["Outcome", "Emails", "Share"]} caption={"The broadcast's outcome"}>
        {({ key, label, value, note }) => (
          <tr key={key} data-testid={`report-${key}`}>
            <th scope="row">{label}</th>
            <td>{value ?? "–"}</td>
            <td>{note}</td>
          </tr>
        )}
      </DataTable>
      <p className="hint">
        An open or click within seconds of delivery, from Apple Mail Privacy Protection&apos;s proxy, or by a
        link scanner is counted as a machine&apos;s, not a person&apos;s.
      </p>
      {timeline.labels.length > 0 && (
        <>
          {charts.map((chart) => (
            <StackedBars
              key={chart.id}
              {...chart}
              days={timeline.labels}
              values={timeline.values}
              unit="emails"
              bucketLabel={bucketLabel}
            />
          ))}
        </>
      )}
      {links.length > 0 && (
        <DataTable
          rows={links}
          columns={["Link", "People", "Clicks", "Emails, machines included"]}
          caption="Clicks per link"
          captionShown
          testId="report-links"
        >
          {(l) => (
            <tr key={l.url}>
              <td style={{ wordBreak: "break-all" }}>{l.url}</td>
              <td>{l.human_unique}</td>
              <td>{l.clicks}</td>
              <td>{l.unique}</td>
            </tr>
          )}
        </DataTable>
      )}
    </section>
  );
}
