import type { Db } from "@/lib/db/doors";
import { onAccount, stripeClient } from "@/lib/payments/stripe-client";
import { withStripeRetry } from "@/lib/payments/stripe-retry";
import { recordPortalAudit } from "./portal-audit";
import type { PortalSession } from "./portal-session";

export interface PortalMembership {
  id: string;
  plan: string;
  kind: "membership" | "gift";
  status: "active" | "grace" | "lapsed" | "cancelled";
  memberSince: Date;
  expiresAt: Date | null;
  /** the subscription ends at its period's end: "ends on", not "renews on" */
  ending: boolean;
}

/**
 * The contact's memberships and monthly gifts (DESIGN section 9, "Recurring"), as the payment webhook
 * derived them from Stripe's subscriptions: the session's contact and workspace only, newest first.
 */
export function portalMemberships(db: Db, session: PortalSession): Promise<PortalMembership[]> {
  return db<PortalMembership[]>`
    select m.id, p.name as plan, p.kind, m.status, m.member_since as "memberSince", m.expires_at as "expiresAt",
           (s.cancel_at_period_end or s.status = 'canceled') as ending
    from public.memberships m
    join public.plans p on p.id = m.plan_id and p.workspace_id = m.workspace_id
    join public.subscriptions s on s.id = m.subscription_id and s.workspace_id = m.workspace_id
    where m.workspace_id = ${session.workspaceId} and m.contact_id = ${session.contactId}
    order by m.member_since desc
    limit 50`;
}

/**
 * Where the contact manages their subscriptions (payment method, cancellation, invoices): the
 * Stripe customer of their newest subscription, on the workspace's connected account. Null when
 * they have none. Audited on the contact; the Stripe call is made after the transaction
 * (openBillingPortal), so no transaction waits on the network.
 */
export async function billingCustomer(
  db: Db,
  session: PortalSession,
  ip: string | null,
): Promise<{ customer: string; account: string | null } | null> {
  const [row] = await db<{ customer: string; account: string | null }[]>`
    select s.payproc_customer_id as customer,
           (select c.payproc_account_id from public.payproc_connections c
            where c.workspace_id = s.workspace_id order by c.created_at limit 1) as account
    from public.subscriptions s
    where s.workspace_id = ${session.workspaceId} and s.contact_id = ${session.contactId}
    order by s.started_at desc
    limit 1`;
  if (!row) return null;
  await recordPortalAudit(db, {
    workspaceId: session.workspaceId,
    contactId: session.contactId,
    action: "contact.portal_billing_opened",
    ip,
  });
  return row;
}

/** A Stripe customer portal session for the customer (Stripe's hosted page), back to `returnUrl` after. */
export async function openBillingPortal(
  billing: { customer: string; account: string | null },
  returnUrl: string,
): Promise<string> {
  const session = await withStripeRetry(() =>
    stripeClient().billingPortal.sessions.create(
      { customer: billing.customer, return_url: returnUrl },
      onAccount(billing.account),
    ),
  );
  return session.url;
}
