import { formatDate } from "@/lib/time/format";
import type { FeedItem } from "@/lib/payments/get-contact-transactions";
import { formatMoney } from "@/lib/payments/money";
import { RefundControls, type RefundActions } from "./refund-controls";
import { ACTIONS_COLUMN, DataTable } from "@/components/ui/data-table";

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
 * reverting refunds on purchases. The page reads the items in its own transaction.
 */
export function TransactionsFeed({
  items,
  workspaceId,
  timeZone,
  recordRefund,
  revertRefund,
}: {
  items: FeedItem[];
  workspaceId: string;
  timeZone: string;
} & RefundActions) {
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
        columns={["Date", "What", "Amount", "Status", ACTIONS_COLUMN]}
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
                  recordRefund={recordRefund}
                  revertRefund={revertRefund}
                  transactionId={item.id}
                  workspaceId={workspaceId}
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
