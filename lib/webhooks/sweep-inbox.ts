import type { Db } from "@/lib/db/doors";

/** How long finished webhook deliveries are kept (INBOX_RETENTION_DAYS, default 30). */
export function inboxRetentionDays(): number {
  const days = Number(process.env.INBOX_RETENTION_DAYS ?? 30);
  return Number.isFinite(days) && days >= 1 ? Math.floor(days) : 30;
}

/**
 * Inbox retention: finished deliveries (done, ignored) older than the retention, 10,000 a
 * call. Failed and dead ones stay for an operator to see.
 */
export async function sweepInbox(db: Db, retentionDays = inboxRetentionDays()): Promise<number> {
  const rows = await db`
    delete from public.webhook_inbox w
    where w.ctid = any (array(
      select old.ctid from public.webhook_inbox old
      where old.status in ('done', 'ignored')
        and old.received_at < now() - make_interval(days => ${retentionDays})
      limit 10000))`;
  return rows.count;
}
