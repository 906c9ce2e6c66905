import type { Metadata } from "next";
import Link from "next/link";
import { ADMIN_ROLES, requireMember } from "@/lib/auth/context";
import { formatDate } from "@/lib/time/format";
import { withReadUser } from "@/lib/db/doors";
import { listRecentTransactions } from "@/lib/payments/list-recent-transactions";
import { formatMoney } from "@/lib/payments/money";
import { DataTable } from "@/components/ui/data-table";
import { startPaymentsBackfillAction } from "./backfill-actions";

export const metadata: Metadata = { title: "Payments" };

/** The workspace's latest purchases; each links to its contact's transactions. */
export default async function PaymentsPage() {
  const ctx = await requireMember();
  const timeZone = ctx.timeZone;
  const rows = await withReadUser(ctx.claims, (db) =>
    listRecentTransactions(db, { workspaceId: ctx.workspace.workspaceId }),
  );
  return (
    <>
      <div className="topbar">
        <h1 style={{ margin: 0 }}>Payments</h1>
        <div className="row">
          {ADMIN_ROLES.includes(ctx.workspace.role) && (
            <form action={startPaymentsBackfillAction}>
              <button type="submit" className="secondary">
                Run the payments backfill
              </button>
            </form>
          )}
          <Link href="/settings/payments">Payment settings</Link>
        </div>
      </div>
      <DataTable
        rows={rows}
        columns={["Date", "Contact", "Product", "Amount", "Status"]}
        caption="Latest purchases"
        empty="No purchases yet. Connect Stripe in the payment settings."
      >
        {(r) => (
          <tr key={r.id}>
            <td>{formatDate(r.date, timeZone)}</td>
            <td>
              {r.contactId ? (
                <Link href={`/contacts/${r.contactId}#transactions`}>{r.contactName || r.contactEmail}</Link>
              ) : (
                <span className="hint">No contact</span>
              )}
              {r.contactName && <div className="hint">{r.contactEmail}</div>}
            </td>
            <td>{r.product}</td>
            <td>{formatMoney(r.amountCents, r.currency)}</td>
            <td>
              {r.status === "refunded"
                ? "Refunded"
                : r.refundedCents > 0
                  ? `Partly refunded (${formatMoney(r.refundedCents, r.currency)})`
                  : "Paid"}
            </td>
          </tr>
        )}
      </DataTable>
    </>
  );
}
