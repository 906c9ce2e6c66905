import type { Db } from "@/lib/db/doors";
import type { Period } from "./dashboard-period";

export interface DailySourceCount {
  day: string;
  source: string;
  n: number;
}

/** New contacts per UTC day and source in the period, from the kept daily counts. */
export async function contactsBySource(
  db: Db,
  input: { workspaceId: string; period: Period },
): Promise<DailySourceCount[]> {
  return db<DailySourceCount[]>`
    select to_char(day, 'YYYY-MM-DD') as day, source, sum(n)::int as n
    from public.contact_daily_counts
    where workspace_id = ${input.workspaceId} and day between ${input.period.from}::date and ${input.period.to}::date
    group by day, source having sum(n) <> 0
    order by day, source`;
}

export interface ConsentShare {
  subscribed: number;
  not_opted_in: number;
  unsubscribed: number;
  /** contacts with a 'bounce', 'complaint' or 'manual' suppression (no email at all, spec 8.3) */
  suppressed: number;
  total: number;
}

/**
 * Today's share of contacts by email status (spec 3.4): the suppressed first (a hard
 * suppression, whatever their consent), the others by their kept status counts less the
 * suppressed among them. Reads the counters and the suppressions, never the contacts table
 * as a whole.
 */
export async function consentShare(db: Db, input: { workspaceId: string }): Promise<ConsentShare> {
  const [row] = await db<ConsentShare[]>`
    with kept as (
      select status, sum(n)::int as n from public.contact_status_counts
      where workspace_id = ${input.workspaceId} group by status
    ), hard as (
      select public.contact_email_status(c.is_subscribed, c.unsubscribed_at) as status, count(*)::int as n
      from (select distinct s.contact_id from public.contact_suppressions s
            where s.workspace_id = ${input.workspaceId} and s.reason in ('bounce', 'complaint', 'manual')) s
      join public.contacts c on c.id = s.contact_id and c.workspace_id = ${input.workspaceId}
      group by 1
    )
    select
      coalesce((select n from kept where status = 'subscribed'), 0) - coalesce((select n from hard where status = 'subscribed'), 0) as subscribed,
      coalesce((select n from kept where status = 'not_opted_in'), 0) - coalesce((select n from hard where status = 'not_opted_in'), 0) as not_opted_in,
      coalesce((select n from kept where status = 'unsubscribed'), 0) - coalesce((select n from hard where status = 'unsubscribed'), 0) as unsubscribed,
      coalesce((select sum(n) from hard), 0)::int as suppressed,
      coalesce((select sum(n) from kept), 0)::int as total`;
  return row;
}
