import { DataTable } from "@/components/ui/data-table";
import { variantInterval, variantLetter, type AbVariantNumbers } from "@/lib/email/ab-decision";
import type { StoredAbTest } from "@/lib/email/ab-test";
import { formatDateTime } from "@/lib/time/format";

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** "12 (24.0%, 95% CI 14.3–37.4%)": a count, its rate of the variant's sends and its Wilson interval. */
function rateCell(v: AbVariantNumbers, metric: "opens" | "clicks") {
  const count = metric === "opens" ? v.humanOpens : v.humanClicks;
  if (v.sent === 0) return `${count}`;
  const i = variantInterval(v, metric);
  return `${count} (${pct(i.rate)}, 95% CI ${pct(i.low)}–${pct(i.high)})`;
}

const METRIC_LABEL = { opens: "unique human opens", clicks: "unique human clicks", revenue: "revenue" };

/**
 * An A/B broadcast's test on its report (docs/decisions.md, "A/B tests of broadcasts"): each
 * variant's sends, human opens and clicks with their 95% Wilson intervals, purchases and revenue
 * in the window, and the decision: the winner, or why variant A was kept.
 */
export function AbTestReport({
  test,
  numbers,
  timeZone,
}: {
  test: StoredAbTest;
  numbers: AbVariantNumbers[];
  timeZone: string;
}) {
  const byPosition = new Map(numbers.map((n) => [n.position, n]));
  const rows = test.variants.map((v) => ({
    ...v,
    numbers: byPosition.get(v.position) ?? {
      position: v.position,
      sent: 0,
      humanOpens: 0,
      humanClicks: 0,
      purchasers: 0,
      revenue: 0,
    },
  }));
  return (
    <section className="card stack" aria-labelledby="ab-heading" data-testid="ab-test-report">
      <h2 id="ab-heading">A/B test</h2>
      <p>
        {test.share}% of the audience gets the variants first; the winner by {METRIC_LABEL[test.metric]} goes
        to the rest {test.decideAfterHours} hours after the test share is sent.
      </p>
      <p role="status" data-testid="ab-decision">
        {test.decidedAt
          ? `${test.note ?? ""} Decided ${formatDateTime(test.decidedAt, timeZone)}.`
          : test.decideAt
            ? `The winner is picked at ${formatDateTime(test.decideAt, timeZone)}.`
            : "The test share is sent first; the decision time is set when it is done."}
      </p>
      <DataTable
        rows={rows}
        columns={["Variant", "Subject", "Sent", "Human opens", "Human clicks", "Purchases", "Revenue"]}
        caption="Each variant's test share (machine opens and clicks left out)"
      >
        {(v) => (
          <tr key={v.position} data-testid={`ab-variant-${variantLetter(v.position)}`}>
            <th scope="row">
              {variantLetter(v.position)}
              {test.winner === v.position ? " (winner)" : ""}
            </th>
            <td>
              {v.subject}
              {v.preheader ? <div className="hint">{v.preheader}</div> : null}
              {v.sender_name ? <div className="hint">From {v.sender_name}</div> : null}
            </td>
            <td>{v.numbers.sent}</td>
            <td>{rateCell(v.numbers, "opens")}</td>
            <td>{rateCell(v.numbers, "clicks")}</td>
            <td>{v.numbers.purchasers}</td>
            <td>{v.numbers.revenue.toFixed(2)}</td>
          </tr>
        )}
      </DataTable>
      <p className="hint">
        The interval is the 95% Wilson score interval of the rate: where the variants&apos; intervals overlap,
        the difference may be chance, and variant A is kept. Revenue is what recipients paid, net of refunds,
        from their email to the decision time.
      </p>
    </section>
  );
}
