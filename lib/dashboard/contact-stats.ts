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
 * Today's share of contacts by email status: 'suppressed' (a hard suppression, whatever their
 * consent), then spec 3.4's priorities 3 to 5. One read of the kept status counters.
 */
export async function consentShare(db: Db, input: { workspaceId: string }): Promise<ConsentShare> {
  const [row] = await db<ConsentShare[]>`
    select
      coalesce(sum(n) filter (where status = 'subscribed'), 0)::int as subscribed,
      coalesce(sum(n) filter (where status = 'not_opted_in'), 0)::int as not_opted_in,
      coalesce(sum(n) filter (where status = 'unsubscribed'), 0)::int as unsubscribed,
      coalesce(sum(n) filter (where status = 'suppressed'), 0)::int as suppressed,
      coalesce(sum(n), 0)::int as total
    from public.contact_status_counts where workspace_id = ${input.workspaceId}`;
  return row;
}
