import { DataTable } from "@/components/ui/data-table";
import type { MembershipRow } from "@/lib/payments/subscriptions/list-recurring";
import { formatDate } from "@/lib/time/format";

const STATUS_TEXT: Record<string, string> = {
  active: "Active",
  grace: "Payment failed (grace)",
  lapsed: "Lapsed",
  cancelled: "Cancelled",
};

/** What comes next for a membership: its next renewal, or when it ends or ended. */
function nextText(m: MembershipRow, timeZone: string): string {
  const end = formatDate(m.expires_at, timeZone);
  if (m.status === "lapsed" || m.status === "cancelled") return `Ended ${end}`;
  if (m.cancel_at_period_end) return `Ends ${end}`;
  if (m.status === "grace") return `Unpaid; period ends ${end}`;
  return `Renews ${formatDate(m.current_period_end, timeZone)}`;
}

/**
 * A contact's memberships and recurring gifts (DESIGN section 9 "Recurring"; docs/decisions.md,
 * "Subscriptions mirror Stripe's newest object"): plan, status, next renewal and the history of
 * them, oldest first. Each paid invoice is in the transactions feed below.
 */
export function MembershipsPanel({ items, timeZone }: { items: MembershipRow[]; timeZone: string }) {
  if (items.length === 0) return null;
  return (
    <section id="memberships" aria-labelledby="memberships-heading" data-testid="memberships-panel">
      <h2 id="memberships-heading">Memberships</h2>
      <DataTable
        rows={items}
        columns={["Plan", "Status", "Member since", "Next"]}
        empty="No memberships or recurring gifts."
      >
        {(m) => (
          <tr key={m.id} data-testid={`membership-${m.id}`}>
            <td>
              <div>{m.plan_name}</div>
              <span className="hint">{m.plan_kind === "gift" ? "Recurring gift" : "Membership"}</span>
            </td>
            <td data-testid="membership-status">
              <span className={`badge ${m.status === "active" ? "" : "unsubscribed"}`}>
                {STATUS_TEXT[m.status] ?? m.status}
              </span>
            </td>
            <td>
              <time dateTime={m.member_since.toISOString()}>{formatDate(m.member_since, timeZone)}</time>
            </td>
            <td>{nextText(m, timeZone)}</td>
          </tr>
        )}
      </DataTable>
    </section>
  );
}
