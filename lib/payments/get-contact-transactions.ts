import type { Db } from "@/lib/db/doors";
import { toCents } from "./money";

export type FeedItemKind = "transaction" | "event_registration" | "deal_payment";

export interface FeedItem {
  kind: FeedItemKind;
  id: string;
  date: Date;
  description: string;
  amountCents: number;
  currency: string;
  /** transactions: 'succeeded' or 'refunded'; registrations: 'registered' or 'cancelled'; deal payments: 'paid' */
  status: string;
  /** transactions only: what is refunded, and what may still be */
  refundedCents: number;
  remainingCents: number;
  /** the date as the database writes it (full precision): the REST API's cursor */
  sortKey: string;
}

interface Row {
  kind: FeedItemKind;
  id: string;
  date: Date;
  description: string;
  amount: string;
  currency: string;
  status: string;
  refunded: string;
  sort_key: string;
}

/**
 * Spec 4.15 getContactTransactions: one feed, newest first by payment or creation date, of the
 * contact's transactions, paid event registrations and paid deal payments (shown as
 * '<deal title> — <payment label>'). One query; the caller's RLS door limits it to their
 * workspaces and workspaceId to the current one.
 */
export async function getContactTransactions(
  db: Db,
  input: {
    workspaceId: string;
    contactId: string;
    limit?: number;
    /** the REST API's cursor lists (docs/api.md): items older than this one's date and id */
    before?: { key: string; id: string } | null;
  },
): Promise<FeedItem[]> {
  const before = input.before;
  const rows = await db<Row[]>`
    select f.*, f.date::text as sort_key from (
    select 'transaction' as kind, t.id, t.transaction_date as date,
           coalesce(p.name, 'Purchase') as description, t.amount_paid::text as amount, t.currency,
           t.status, t.amount_refunded::text as refunded
    from public.transactions t
    left join public.products p on p.id = t.product_id
    where t.workspace_id = ${input.workspaceId} and t.contact_id = ${input.contactId}
    union all
    select 'event_registration', r.id, r.created_at, e.name, r.amount_paid::text, 'usd', r.status, '0'
    from public.event_registrations r
    join public.events e on e.id = r.event_id
    where r.workspace_id = ${input.workspaceId} and r.contact_id = ${input.contactId} and r.amount_paid > 0
    union all
    select 'deal_payment', dp.id, coalesce(dp.paid_at, dp.created_at),
           d.title || ' — ' || dp.label, dp.amount::text, dp.currency, dp.status, '0'
    from public.deal_payments dp
    join public.deals d on d.id = dp.deal_id
    where dp.workspace_id = ${input.workspaceId} and d.contact_id = ${input.contactId} and dp.status = 'paid'
    ) f
    ${before ? db`where (f.date, f.id) < (${before.key}::timestamptz, ${before.id}::uuid)` : db``}
    order by f.date desc, f.id desc
    limit ${input.limit ?? 200}`;
  return rows.map((r) => {
    const amountCents = toCents(r.amount);
    const refundedCents = toCents(r.refunded);
    return {
      kind: r.kind,
      id: r.id,
      date: r.date,
      description: r.description,
      amountCents,
      currency: r.currency,
      status: r.status,
      refundedCents,
      remainingCents: r.kind === "transaction" ? amountCents - refundedCents : 0,
      sortKey: r.sort_key,
    };
  });
}
