import type { Db } from "@/lib/db/doors";
import { createNotification } from "@/lib/notifications/create-notification";
import { tomorrowIn } from "@/lib/time/format";
import { safeTimeZone } from "@/lib/time/zones";

/**
 * A subscription the webhook cannot place (its price is no plan of the workspace) is parked, never
 * guessed: a review task for the workspace owner (as the refund review tasks, lib/payments/review-task.ts),
 * one open task per subscription however often its events come, and a notification with the
 * first. Returns the task made now, or null when one is open already.
 */
export async function parkSubscription(
  db: Db,
  input: {
    workspaceId: string;
    payprocSubscriptionId: string;
    priceId: string | null;
    email: string | null;
    now?: Date;
  },
): Promise<{ id: string } | null> {
  const [owner] = await db`
    select m.user_id, p.timezone from public.workspace_members m
    join public.user_profiles p on p.id = m.user_id
    where m.workspace_id = ${input.workspaceId} and m.role = 'owner'
    order by m.created_at, m.user_id
    limit 1`;
  const timeZone = safeTimeZone(owner?.timezone);
  const title = "Review a subscription to an unknown price";
  const description = [
    `Stripe subscription ${input.payprocSubscriptionId}${input.email ? ` (${input.email})` : ""} is for price ${input.priceId ?? "(none)"}, which is not one of this workspace's plans.`,
    "",
    "It was not recorded: no membership and no transactions were made from it.",
    "Options:",
    "A: Add the price as a plan; the subscription's next event from Stripe then records it.",
    "B: If the subscription was not meant for this workspace, cancel it in Stripe.",
  ].join("\n");
  const [task] = await db`
    insert into public.tasks (workspace_id, title, description, kind, status, due_date, assigned_user_id,
      payproc_subscription_id, created_by)
    values (${input.workspaceId}, ${title}, ${description}, 'subscription_review', 'open',
      ${tomorrowIn(timeZone, input.now)}, ${owner?.user_id ?? null}, ${input.payprocSubscriptionId}, null)
    on conflict (workspace_id, payproc_subscription_id) where kind = 'subscription_review' and status = 'open'
    do nothing
    returning id`;
  if (!task) return null;
  await createNotification(db, {
    workspaceId: input.workspaceId,
    userId: owner?.user_id ?? null,
    type: "subscription_review",
    title,
    body: "A Stripe subscription is for a price that is not one of the workspace's plans.",
    actionUrl: "/tasks",
    actionLabel: "Open tasks",
  });
  return { id: task.id };
}
