import { requireMember } from "@/lib/auth/context";
import { formatDate } from "@/lib/time/format";
import { withUser } from "@/lib/db/doors";
import { getContactTransactions, type FeedItem } from "@/lib/payments/get-contact-transactions";
import { formatMoney } from "@/lib/payments/money";
import { RefundControls } from "./refund-controls";
import { DataTable } from "@/components/ui/data-table";

const KIND_LABEL: Record<FeedItem["kind"], string> = {
  transaction: "Purchase",
  event_registration: "Event ticket",
  deal_payment: "Deal payment",
};

function statusText(item: FeedItem): string {
  if (item.kind !== "transaction") return item.status === "registered" ? "Paid" : item.status;
  if (item.status === "refunded") return "Refunded";
  if (item.refundedCents > 0) return `Partly refunded (${formatMoney(item.refundedCents, item.currency)})`;
  return "Paid";
}

/**
 * A contact's payments (spec 4.15 getContactTransactions), newest first, with recording and
 * reverting refunds on purchases. Self-contained: give it the contact (and, optionally, the
 * workspace; the member's current one otherwise).
 */
export async function TransactionsFeed({
  contactId,
  workspaceId,
}: {
  contactId: string;
  workspaceId?: string;
}) {
  const ctx = await requireMember();
  const ws = ctx.memberships.some((m) => m.workspaceId === workspaceId)
    ? workspaceId!
    : ctx.workspace.workspaceId;
  const timeZone = ctx.timeZone;
  const items = await withUser(ctx.claims, (db) =>
    getContactTransactions(db, { workspaceId: ws, contactId }),
  );
  return (
    <section
      id="transactions"
      aria-labelledby="transactions-heading"
      className="stack"
      data-testid="transactions-feed"
    >
      <h2 id="transactions-heading">Transactions</h2>
      <DataTable
        rows={items}
        columns={[
          "Date",
          "What",
          "Amount",
          "Status",
          <span key="actions" className="sr-only">
            Actions
          </span>,
        ]}
        empty="No purchases, paid tickets or deal payments yet."
      >
        {(item) => (
          <tr key={`${item.kind}:${item.id}`} data-testid={`feed-${item.id}`}>
            <td>
              <time dateTime={item.date.toISOString()}>{formatDate(item.date, timeZone)}</time>
            </td>
            <td>
              <div>{item.description}</div>
              <span className="hint">{KIND_LABEL[item.kind]}</span>
            </td>
            <td>{formatMoney(item.amountCents, item.currency)}</td>
            <td data-testid="feed-status">
              <span className={`badge ${item.status === "refunded" ? "unsubscribed" : ""}`}>
                {statusText(item)}
              </span>
              {item.kind === "transaction" && item.refundedCents > 0 && item.remainingCents > 0 && (
                <div className="hint">{formatMoney(item.remainingCents, item.currency)} left</div>
              )}
            </td>
            <td>
              {item.kind === "transaction" && (
                <RefundControls
                  transactionId={item.id}
                  workspaceId={ws}
                  description={item.description}
                  remaining={formatMoney(item.remainingCents, item.currency)}
                  remainingCents={item.remainingCents}
                  refunded={formatMoney(item.refundedCents, item.currency)}
                  refundedCents={item.refundedCents}
                />
              )}
            </td>
          </tr>
        )}
      </DataTable>
    </section>
  );
}
