import type { Db } from "@/lib/db/doors";
import { toCents } from "./money";

export interface RecentTransaction {
  id: string;
  date: Date;
  product: string;
  amountCents: number;
  refundedCents: number;
  currency: string;
  status: string;
  contactId: string | null;
  contactEmail: string | null;
  contactName: string;
}

/** The workspace's latest purchases, newest first, with their contacts. */
export async function listRecentTransactions(
  db: Db,
  input: { workspaceId: string; limit?: number },
): Promise<RecentTransaction[]> {
  const rows = await db`
    select t.id, t.transaction_date, coalesce(p.name, 'Purchase') as product, t.amount_paid::text as paid,
           t.amount_refunded::text as refunded, t.currency, t.status, c.id as contact_id, c.email,
           concat_ws(' ', c.first_name, c.last_name) as name
    from public.transactions t
    left join public.products p on p.id = t.product_id
    left join public.contacts c on c.id = t.contact_id
    where t.workspace_id = ${input.workspaceId}
    order by t.transaction_date desc, t.id desc
    limit ${input.limit ?? 50}`;
  return rows.map((r) => ({
    id: r.id,
    date: r.transaction_date,
    product: r.product,
    amountCents: toCents(r.paid),
    refundedCents: toCents(r.refunded),
    currency: r.currency,
    status: r.status,
    contactId: r.contact_id,
    contactEmail: r.email,
    contactName: r.name,
  }));
}
