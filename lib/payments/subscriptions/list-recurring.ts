import type { Db } from "@/lib/db/doors";

export const SUBSCRIPTION_STATUSES = [
  "incomplete",
  "incomplete_expired",
  "trialing",
  "active",
  "past_due",
  "canceled",
  "unpaid",
  "paused",
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export interface MembershipRow {
  id: string;
  contact_id: string | null;
  status: string;
  member_since: Date;
  expires_at: Date | null;
  plan_id: string;
  plan_name: string;
  plan_kind: string;
  payproc_subscription_id: string;
  subscription_status: string;
  cancel_at_period_end: boolean;
  current_period_end: Date | null;
  sort_key: string;
}

/**
 * A contact's memberships, oldest first (member_since, then id), in the caller's door. A cursor's key
 * is cast from text: postgres.js sends a parameter typed timestamptz through a JS Date, which drops
 * the microseconds, and the page after a row would start with that row again.
 */
export function listContactMemberships(
  db: Db,
  input: { workspaceId: string; contactId: string; limit: number; after: { key: string; id: string } | null },
): Promise<MembershipRow[]> {
  const after = input.after
    ? db`and (m.member_since, m.id) > (${input.after.key}::text::timestamptz, ${input.after.id}::uuid)`
    : db``;
  return db<MembershipRow[]>`
    select m.id, m.contact_id, m.status, m.member_since, m.expires_at, p.id as plan_id, p.name as plan_name,
           p.kind as plan_kind, s.payproc_subscription_id, s.status as subscription_status,
           s.cancel_at_period_end, s.current_period_end, m.member_since::text as sort_key
    from public.memberships m
    join public.subscriptions s on s.workspace_id = m.workspace_id and s.id = m.subscription_id
    join public.plans p on p.workspace_id = m.workspace_id and p.id = m.plan_id
    where m.workspace_id = ${input.workspaceId} and m.contact_id = ${input.contactId} ${after}
    order by m.member_since, m.id
    limit ${input.limit + 1}`;
}

export interface SubscriptionRow {
  id: string;
  contact_id: string | null;
  plan_id: string;
  plan_name: string;
  payproc_subscription_id: string;
  status: string;
  current_period_start: Date | null;
  current_period_end: Date | null;
  cancel_at_period_end: boolean;
  canceled_at: Date | null;
  ended_at: Date | null;
  created_at: Date;
  sort_key: string;
}

/** The workspace's subscriptions, optionally of one Stripe status, oldest first by id's insertion. */
export function listSubscriptions(
  db: Db,
  input: {
    workspaceId: string;
    status?: SubscriptionStatus;
    limit: number;
    after: { key: string; id: string } | null;
  },
): Promise<SubscriptionRow[]> {
  const status = input.status ? db`and s.status = ${input.status}` : db``;
  const after = input.after
    ? db`and (s.created_at, s.id) > (${input.after.key}::text::timestamptz, ${input.after.id}::uuid)`
    : db``;
  return db<SubscriptionRow[]>`
    select s.id, s.contact_id, s.plan_id, p.name as plan_name, s.payproc_subscription_id, s.status,
           s.current_period_start, s.current_period_end, s.cancel_at_period_end, s.canceled_at, s.ended_at,
           s.created_at, s.created_at::text as sort_key
    from public.subscriptions s
    join public.plans p on p.workspace_id = s.workspace_id and p.id = s.plan_id
    where s.workspace_id = ${input.workspaceId} ${status} ${after}
    order by s.created_at, s.id
    limit ${input.limit + 1}`;
}
