import type { Db } from "@/lib/db/doors";
import { toCents } from "./money";

/** A transaction's amounts in whole cents (spec 3.1): what was paid, refunded, and may still be. */
export interface TransactionBalance {
  id: string;
  contactId: string | null;
  status: "succeeded" | "refunded";
  currency: string;
  paidCents: number;
  refundedCents: number;
  remainingCents: number;
}

/** The workspace's transaction as it is now, or null for another workspace's or an unknown id. */
export async function getTransactionBalance(
  db: Db,
  input: { workspaceId: string; transactionId: string },
): Promise<TransactionBalance | null> {
  const [row] = await db<
    {
      id: string;
      contact_id: string | null;
      status: "succeeded" | "refunded";
      currency: string;
      amount_paid: string;
      amount_refunded: string;
    }[]
  >`
    select id, contact_id, status, currency, amount_paid::text, amount_refunded::text
    from public.transactions where id = ${input.transactionId} and workspace_id = ${input.workspaceId}`;
  if (!row) return null;
  const paidCents = toCents(row.amount_paid);
  const refundedCents = toCents(row.amount_refunded);
  return {
    id: row.id,
    contactId: row.contact_id,
    status: row.status,
    currency: row.currency,
    paidCents,
    refundedCents,
    remainingCents: paidCents - refundedCents,
  };
}
