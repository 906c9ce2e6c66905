import type { Metadata } from "next";
import { ADMIN_ROLES, requireMember } from "@/lib/auth/context";
import { appUrl } from "@/lib/config";
import { withUser } from "@/lib/db/doors";
import { connectionOfWorkspace } from "@/lib/payments/resolve-connection";
import { ConnectionForm, DisconnectButton } from "@/components/payments/connection-form";
import { Section } from "@/components/ui/section";

export const metadata: Metadata = { title: "Payment settings" };

/** Spec 2.10: the workspace's payment-processor connection (Stripe). */
export default async function PaymentSettingsPage() {
  const ctx = await requireMember();
  const connection = await withUser(ctx.claims, (db) => connectionOfWorkspace(db, ctx.workspace.workspaceId));
  const canEdit = ADMIN_ROLES.includes(ctx.workspace.role);
  return (
    <>
      <h1>Payments</h1>
      <div className="stack">
        <section className="card stack" aria-labelledby="webhook-heading">
          <h2 id="webhook-heading" style={{ margin: 0 }}>
            Stripe webhook
          </h2>
          <p className="hint" style={{ margin: 0 }}>
            In Stripe, send the events <code>checkout.session.completed</code> and{" "}
            <code>charge.refunded</code> to this address, with the signing secret set as{" "}
            <code>STRIPE_WEBHOOK_SECRET</code> on the server.
          </p>
          <code data-testid="webhook-url">{`${appUrl()}/api/webhooks/payproc`}</code>
        </section>
        <Section id="connection-heading" title="Connection">
          {canEdit ? (
            <ConnectionForm connection={connection} />
          ) : (
            <dl>
              <dt>Stripe account</dt>
              <dd>
                {connection
                  ? (connection.payproc_account_id ?? "None (events without an account)")
                  : "Not connected"}
              </dd>
              <dt>Live mode</dt>
              <dd>{connection?.livemode ? "Yes" : "No"}</dd>
              <dt>Subscribe purchasers to marketing email</dt>
              <dd>{connection?.auto_subscribe_purchasers ? "Yes" : "No"}</dd>
              <dd className="hint">Only owners and admins can change the connection.</dd>
            </dl>
          )}
          {canEdit && connection && <DisconnectButton />}
        </Section>
      </div>
    </>
  );
}
