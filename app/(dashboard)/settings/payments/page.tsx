import type { Metadata } from "next";
import type { AppErrorCode } from "@/lib/errors/app-error";
import { ADMIN_ROLES, requireMember } from "@/lib/auth/context";
import { appUrl } from "@/lib/config";
import { withUser } from "@/lib/db/doors";
import { connectionOfWorkspace } from "@/lib/payments/resolve-connection";
import { stripeConnectConfigured } from "@/lib/payments/stripe-connect";
import { ConnectionForm, DisconnectButton } from "@/components/payments/connection-form";
import { connectStripeAction, disconnectAction, saveConnectionAction } from "./actions";

/**
 * The texts of `?error=<code>`, by AppError code: the Stripe Connect callback's refusals
 * (app/api/auth/payproc/callback) and this page's actions'. `conflict` covers every failure to
 * save, so no text names another workspace (docs/decisions.md, "Stripe Connect").
 */
const ERRORS: Partial<Record<AppErrorCode, string>> = {
  unauthenticated: "Stripe access was not granted.",
  invalid: "The connection request could not be verified. Start again from this page.",
  provider_failed: "Stripe did not accept the authorisation. Try connecting again.",
  conflict: "This Stripe account could not be connected to this workspace. Contact support if this persists.",
  forbidden: "Only owners and admins can change the payment connection.",
  unavailable:
    "Stripe Connect is not configured on this server (STRIPE_SECRET_KEY and STRIPE_CONNECT_CLIENT_ID).",
};
import { Section } from "@/components/ui/section";
import { asFormAction } from "@/lib/http/form-state";
import { QueryNotices } from "@/components/ui/query-notices";
import type { QueryPageProps } from "@/lib/http/page-param";

export const metadata: Metadata = { title: "Payment settings" };

/** Spec 2.10: the workspace's payment-processor connection (Stripe). */
export default async function PaymentSettingsPage({ searchParams }: QueryPageProps) {
  const q = await searchParams;
  const ctx = await requireMember();
  const connection = await withUser(ctx.claims, (db) => connectionOfWorkspace(db, ctx.workspace.workspaceId));
  const canEdit = ADMIN_ROLES.includes(ctx.workspace.role);
  return (
    <>
      <h1>Payments</h1>
      <QueryNotices query={q} errors={ERRORS} notices={{ connected: "Connected to Stripe." }} />
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
          <dl>
            <dt>Stripe account</dt>
            <dd data-testid="connected-account">
              {connection
                ? (connection.payproc_account_id ?? "None (events without an account)")
                : "Not connected"}
            </dd>
            <dt>Live mode</dt>
            <dd>{connection?.livemode ? "Yes" : "No"}</dd>
            {!canEdit && (
              <>
                <dt>Subscribe purchasers to marketing email</dt>
                <dd>{connection?.auto_subscribe_purchasers ? "Yes" : "No"}</dd>
                <dd className="hint">Only owners and admins can change the connection.</dd>
              </>
            )}
          </dl>
          {canEdit && connection && <ConnectionForm action={saveConnectionAction} connection={connection} />}
          {canEdit &&
            (stripeConnectConfigured() ? (
              <form action={asFormAction(connectStripeAction)}>
                <button type="submit" className={connection ? "secondary" : undefined}>
                  {connection ? "Reconnect with Stripe" : "Connect with Stripe"}
                </button>
              </form>
            ) : (
              <p className="hint">
                Stripe Connect is not configured on this server (STRIPE_SECRET_KEY and
                STRIPE_CONNECT_CLIENT_ID).
              </p>
            ))}
          {canEdit && connection && <DisconnectButton action={disconnectAction} />}
        </Section>
      </div>
    </>
  );
}
