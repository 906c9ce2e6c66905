import { formatMoney, toCents } from "@/lib/payments/money";
import { afterPosition, microsSql, type TimelineSource } from "./types";

/**
 * Purchases (transactions, dated by their payment) and what of them is refunded: a refund has
 * no date of its own in the data, so it reads on its purchase. Amounts in the transaction's
 * currency.
 */
export const paymentEntries: TimelineSource = {
  kind: "payment",
  query: (db, q) => db`(
    select t.transaction_date as at, ${microsSql(db, "t.transaction_date")} as micros, 'payment' as kind,
      t.id::text as id, 'System' as author,
      jsonb_build_object('product', p.name, 'paid', t.amount_paid::text, 'refunded', t.amount_refunded::text,
                         'currency', t.currency, 'status', t.status) as d
    from public.transactions t
    left join public.products p on p.id = t.product_id and p.workspace_id = t.workspace_id
    where t.contact_id = ${q.contactId} and t.workspace_id = ${q.workspaceId}
      ${afterPosition(db, "payment", "t.transaction_date", "t.id", q.before)}
    order by t.transaction_date desc, t.id desc
    limit ${q.limit})`,
  render: ({ d }) => {
    const currency = String(d.currency ?? "usd");
    const paid = toCents(String(d.paid ?? "0"));
    const refunded = toCents(String(d.refunded ?? "0"));
    return {
      title: `Purchased ${String(d.product ?? "a product")}`,
      facts: [
        `Paid ${formatMoney(paid, currency)}`,
        d.status === "refunded"
          ? `Refunded in full (${formatMoney(refunded, currency)})`
          : refunded > 0 && `Refunded ${formatMoney(refunded, currency)}`,
      ],
    };
  },
};
