import type { Db } from "@/lib/db/doors";
import type { Period } from "./dashboard-period";

export interface FormDay {
  form_id: string;
  form_name: string;
  day: string;
  submissions: number;
  staged: number;
  verified: number;
}

/** Form activity per UTC day and form in the period, from the kept daily counts. */
export async function formActivity(
  db: Db,
  input: { workspaceId: string; period: Period },
): Promise<FormDay[]> {
  return db<FormDay[]>`
    select d.form_id, f.name as form_name, to_char(d.day, 'YYYY-MM-DD') as day,
           sum(d.submissions)::int as submissions, sum(d.staged)::int as staged, sum(d.verified)::int as verified
    from public.form_daily_counts d
    join public.forms f on f.id = d.form_id and f.workspace_id = d.workspace_id
    where d.workspace_id = ${input.workspaceId}
      and d.day between ${input.period.from}::date and ${input.period.to}::date
    group by d.form_id, f.name, d.day
    order by f.name, d.form_id, d.day`;
}

export interface MoneySummary {
  currency: string;
  purchases: number;
  revenue_cents: number;
  refunded_cents: number;
}

/**
 * Purchases of the period by currency: revenue (amount paid) and the part refunded so far, by
 * purchase date (an index-only range scan of the period's purchases).
 */
export async function moneySummary(
  db: Db,
  input: { workspaceId: string; period: Period },
): Promise<MoneySummary[]> {
  return db<MoneySummary[]>`
    select currency, count(*)::int as purchases,
           (sum(amount_paid) * 100)::float8 as revenue_cents, (sum(amount_refunded) * 100)::float8 as refunded_cents
    from public.transactions
    where workspace_id = ${input.workspaceId}
      and transaction_date >= (${input.period.from}::date)::timestamp at time zone 'UTC'
      and transaction_date < (${input.period.to}::date + 1)::timestamp at time zone 'UTC'
    group by currency order by currency`;
}

/** Refund review tasks still open (spec 3.6: closed means 'completed'). */
export async function openReviewTasks(db: Db, input: { workspaceId: string }): Promise<number> {
  const [{ n }] = await db`
    select count(*)::int as n from public.tasks
    where workspace_id = ${input.workspaceId} and status in ('open', 'in_progress') and kind = 'refund_review'`;
  return n;
}

export interface UpcomingEvent {
  id: string;
  name: string;
  start_time: Date | null;
  timezone: string;
  capacity: number | null;
  registered: number;
}

/** The next events (not yet ended) with their active registrations against capacity. */
export async function upcomingEvents(
  db: Db,
  input: { workspaceId: string; limit?: number },
): Promise<UpcomingEvent[]> {
  return db<UpcomingEvent[]>`
    select e.id, e.name, e.start_time, e.timezone, e.capacity,
           (select count(*)::int from public.event_registrations r
            where r.event_id = e.id and r.status = 'registered') as registered
    from public.events e
    where e.workspace_id = ${input.workspaceId} and coalesce(e.end_time, e.start_time) >= now()
    order by e.start_time asc nulls last, e.id
    limit ${input.limit ?? 5}`;
}
