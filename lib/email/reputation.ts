import { asService, type Db } from "@/lib/db/doors";
import { createNotification } from "@/lib/notifications/create-notification";
import { pauseBroadcastItself } from "./send-broadcast";

/**
 * When a broadcast pauses itself for its workspace's reputation (docs/decisions.md, "A broadcast
 * pauses itself for its workspace's reputation"): complaints at 0.3% (the line Gmail and Yahoo
 * hold senders to) or hard bounces at 5% of at least 1,000 emails the provider took, among the
 * workspace's last 10,000. Each is configurable.
 */
export interface ReputationLimits {
  complaintRate: number;
  bounceRate: number;
  minDelivered: number;
  window: number;
}

const positive = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

export function reputationLimits(): ReputationLimits {
  return {
    complaintRate: positive("EMAIL_PAUSE_COMPLAINT_RATE", 0.003),
    bounceRate: positive("EMAIL_PAUSE_BOUNCE_RATE", 0.05),
    minDelivered: positive("EMAIL_PAUSE_MIN_DELIVERED", 1000),
    window: positive("EMAIL_REPUTATION_WINDOW", 10_000),
  };
}

export interface Reputation {
  /** emails the provider took among the workspace's last `window` (sent, then bounced or complained of) */
  delivered: number;
  bounced: number;
  complained: number;
}

/** The workspace's rolling rates: its last `window` emails handed to the provider, newest first. */
export async function workspaceReputation(db: Db, workspaceId: string, window: number): Promise<Reputation> {
  const [row] = await db<Reputation[]>`
    select count(*)::int as delivered,
           count(*) filter (where status = 'bounced')::int as bounced,
           count(*) filter (where status = 'complained')::int as complained
    from (select status from public.email_sends
          where workspace_id = ${workspaceId} and status in ('sent', 'bounced', 'complained')
          order by created_at desc
          limit ${window}) recent`;
  return row;
}

const percent = (rate: number) => `${(rate * 100).toFixed(1).replace(/\.0$/, "")}%`;

/** Why the rates stop sending, in the words the page and the notification use; null while they are within limits. */
export function reputationBreach(reputation: Reputation, limits: ReputationLimits): string | null {
  const { delivered, bounced, complained } = reputation;
  if (delivered < limits.minDelivered) return null;
  const of = `of the workspace's last ${delivered.toLocaleString("en")} emails`;
  if (complained / delivered >= limits.complaintRate)
    return `Complaints reached ${percent(complained / delivered)} ${of} (the limit is ${percent(limits.complaintRate)}).`;
  if (bounced / delivered >= limits.bounceRate)
    return `Hard bounces reached ${percent(bounced / delivered)} ${of} (the limit is ${percent(limits.bounceRate)}).`;
  return null;
}

/**
 * Before each batch of a broadcast: when the workspace's rates pass their limits, the broadcast
 * pauses itself with the reason and every member is notified; an owner resumes it (after which
 * the same rates do not pause it again: `reputation_override`). True when it paused.
 */
export async function pauseForReputation(
  db: Db,
  input: { workspaceId: string; broadcastId: string },
  limits: ReputationLimits = reputationLimits(),
): Promise<boolean> {
  return asService(db, async () => {
    const [broadcast] = await db<{ subject: string; reputation_override: boolean }[]>`
      select subject, reputation_override from public.broadcasts
      where id = ${input.broadcastId} and workspace_id = ${input.workspaceId} and status = 'sending'`;
    if (!broadcast || broadcast.reputation_override) return false;
    const breach = reputationBreach(await workspaceReputation(db, input.workspaceId, limits.window), limits);
    if (!breach || !(await pauseBroadcastItself(db, input, "reputation", breach))) return false;
    await createNotification(db, {
      workspaceId: input.workspaceId,
      type: "broadcast.paused",
      title: `"${broadcast.subject}" paused to protect your sending reputation`,
      body: `${breach} An owner can resume it from the broadcast's page.`,
      actionUrl: `/broadcasts/${input.broadcastId}`,
      actionLabel: "Open the broadcast",
    });
    return true;
  });
}
