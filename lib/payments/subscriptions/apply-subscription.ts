import type { Db } from "@/lib/db/doors";
import { mergeContact } from "@/lib/contacts/merge-contact";
import { splitName } from "../checkout-from-stripe";
import { membershipOf } from "./membership-of";
import { parkSubscription } from "./park-subscription";
import type { SubscriptionState } from "./stripe-billing-shapes";

export interface ApplySubscriptionInput {
  workspaceId: string;
  state: SubscriptionState;
  /** the Stripe customer (when the subscription was fetched with it): the contact of a new row */
  customer: { email: string | null; name: string | null } | null;
  /**
   * How new the object is, in Stripe's event time: the event's creation time for an object the
   * event carried; for one fetched from Stripe, at least that of anything the row held.
   */
  syncedThrough: Date;
  /** fetched from Stripe now (the newest there is), rather than carried by the event */
  fetched: boolean;
}

export type ApplySubscriptionResult =
  | { status: "applied"; subscriptionId: string; membership: string | null }
  /** the row holds a newer object: nothing written */
  | { status: "stale" }
  /** a price that is no plan of the workspace: a review task, nothing else written */
  | { status: "parked"; taskId: string | null }
  /** the subscription is held by another workspace: refused */
  | { status: "foreign" };

/**
 * docs/decisions.md, "Subscriptions mirror Stripe's newest object": writes a Stripe subscription
 * and the membership derived from it, in the caller's transaction, unless the row already holds a
 * newer object. An object the event carried is written only when its event is newer than the row's
 * (`synced_through`); a fetched one when it is at least as new. The row is locked first, so two
 * deliveries about one subscription write one after the other.
 */
export async function applySubscription(
  db: Db,
  input: ApplySubscriptionInput,
): Promise<ApplySubscriptionResult> {
  const { workspaceId, state } = input;
  const [found] = await db`
    select
      (select id from public.plans where workspace_id = ${workspaceId} and payproc_price_id = ${state.priceId}) as plan_id,
      (select row_to_json(s) from (
         select workspace_id, contact_id, synced_through from public.subscriptions
         where payproc_subscription_id = ${state.payprocSubscriptionId} for update) s) as held`;
  const held = found.held as {
    workspace_id: string;
    contact_id: string | null;
    synced_through: string;
  } | null;
  if (held && held.workspace_id !== workspaceId) return { status: "foreign" };
  if (!found.plan_id) {
    const task = await parkSubscription(db, {
      workspaceId,
      payprocSubscriptionId: state.payprocSubscriptionId,
      priceId: state.priceId,
      email: input.customer?.email ?? null,
    });
    return { status: "parked", taskId: task?.id ?? null };
  }
  if (held) {
    const heldThrough = new Date(held.synced_through).getTime();
    const through = input.syncedThrough.getTime();
    if (input.fetched ? through < heldThrough : through <= heldThrough) return { status: "stale" };
  }

  let contactId = held?.contact_id ?? null;
  if (!held && input.customer?.email) {
    const merged = await mergeContact(db, {
      workspaceId,
      email: input.customer.email.trim().toLowerCase(),
      fields: splitName(input.customer.name),
      source: "payproc",
      mode: "fill_empty",
      via: "payment subscription",
    });
    contactId = merged.contact.id;
  }

  const guard = input.fetched
    ? db`subscriptions.synced_through <= excluded.synced_through`
    : db`subscriptions.synced_through < excluded.synced_through`;
  const [row] = await db`
    insert into public.subscriptions as subscriptions (workspace_id, contact_id, plan_id, payproc_subscription_id,
      payproc_customer_id, status, started_at, current_period_start, current_period_end, cancel_at_period_end,
      canceled_at, ended_at, cancellation_reason, latest_invoice_id, synced_through)
    values (${workspaceId}, ${contactId}, ${found.plan_id}, ${state.payprocSubscriptionId}, ${state.payprocCustomerId},
      ${state.status}, ${state.startedAt}, ${state.currentPeriodStart}, ${state.currentPeriodEnd},
      ${state.cancelAtPeriodEnd}, ${state.canceledAt}, ${state.endedAt}, ${state.cancellationReason},
      ${state.latestInvoiceId}, ${input.syncedThrough})
    on conflict (payproc_subscription_id) do update set
      plan_id = excluded.plan_id, status = excluded.status, started_at = excluded.started_at,
      current_period_start = excluded.current_period_start, current_period_end = excluded.current_period_end,
      cancel_at_period_end = excluded.cancel_at_period_end, canceled_at = excluded.canceled_at,
      ended_at = excluded.ended_at, cancellation_reason = excluded.cancellation_reason,
      latest_invoice_id = excluded.latest_invoice_id, synced_through = excluded.synced_through
    where subscriptions.workspace_id = excluded.workspace_id and ${guard}
    returning id, contact_id, plan_id`;
  if (!row) return { status: "stale" };

  const membership = membershipOf(state);
  if (!membership) {
    await db`delete from public.memberships where workspace_id = ${workspaceId} and subscription_id = ${row.id}`;
    return { status: "applied", subscriptionId: row.id, membership: null };
  }
  await db`
    insert into public.memberships (workspace_id, subscription_id, contact_id, plan_id, status, member_since, expires_at)
    values (${workspaceId}, ${row.id}, ${row.contact_id}, ${row.plan_id}, ${membership.status},
            ${membership.memberSince}, ${membership.expiresAt})
    on conflict (workspace_id, subscription_id) do update set
      contact_id = excluded.contact_id, plan_id = excluded.plan_id, status = excluded.status,
      member_since = excluded.member_since, expires_at = excluded.expires_at
    where (memberships.contact_id, memberships.plan_id, memberships.status, memberships.member_since, memberships.expires_at)
      is distinct from (excluded.contact_id, excluded.plan_id, excluded.status, excluded.member_since, excluded.expires_at)`;
  return { status: "applied", subscriptionId: row.id, membership: membership.status };
}
