import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import { isUuid } from "@/lib/ids/uuid";
import type { Translator } from "@/lib/i18n/translator";
import { recordPortalAudit } from "./portal-audit";
import type { PortalSession } from "./portal-session";

export interface PortalPurchase {
  id: string;
  product: string | null;
  amountCents: number;
  refundedCents: number;
  currency: string;
  date: Date;
}

const PURCHASE_COLUMNS = (db: Db) => db`
  t.id, p.name as product, (t.amount_paid * 100)::int as "amountCents",
  (t.amount_refunded * 100)::int as "refundedCents", t.currency, t.transaction_date as date`;

/** The contact's purchases, newest first. */
export function portalPurchases(db: Db, session: PortalSession): Promise<PortalPurchase[]> {
  return db<PortalPurchase[]>`
    select ${PURCHASE_COLUMNS(db)}
    from public.transactions t
    left join public.products p on p.id = t.product_id and p.workspace_id = t.workspace_id
    where t.workspace_id = ${session.workspaceId} and t.contact_id = ${session.contactId}
    order by t.transaction_date desc
    limit 200`;
}

/**
 * A receipt of one purchase of the contact's, as a plain-text file in their language (the id is
 * untrusted: another contact's or workspace's purchase is not found). Audited.
 */
export async function portalReceipt(
  db: Db,
  session: PortalSession,
  input: { transactionId: unknown; ip: string | null; t: Translator },
): Promise<Result<{ fileName: string; text: string }>> {
  if (!isUuid(input.transactionId)) return refused("not_found", "Purchase not found.");
  const [row] = await db<PortalPurchase[]>`
    select ${PURCHASE_COLUMNS(db)}
    from public.transactions t
    left join public.products p on p.id = t.product_id and p.workspace_id = t.workspace_id
    where t.id = ${input.transactionId} and t.workspace_id = ${session.workspaceId}
      and t.contact_id = ${session.contactId}`;
  if (!row) return refused("not_found", "Purchase not found.");
  const { t } = input;
  const lines = [
    t.t("portal.receipt.title", { workspace: session.workspaceName }),
    "",
    t.t("portal.receipt.number", { id: row.id }),
    t.t("portal.receipt.date", { when: t.dateTime(row.date) }),
    t.t("portal.receipt.item", { item: row.product ?? t.t("portal.purchases.unnamed") }),
    t.t("portal.receipt.paid", { amount: t.money(row.amountCents, row.currency) }),
    ...(row.refundedCents > 0
      ? [t.t("portal.receipt.refunded", { amount: t.money(row.refundedCents, row.currency) })]
      : []),
    t.t("portal.receipt.billedTo", { email: session.email }),
    "",
  ];
  await recordPortalAudit(db, {
    workspaceId: session.workspaceId,
    contactId: session.contactId,
    action: "contact.portal_receipt_downloaded",
    after: { transaction_id: row.id },
    ip: input.ip,
  });
  return { data: { fileName: `receipt-${row.id}.txt`, text: lines.join("\n") } };
}
