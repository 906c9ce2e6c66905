import type { Db } from "@/lib/db/doors";
import { isUuid } from "@/lib/ids/uuid";

/**
 * A broadcast's outcome as docs/api.md ("Email engagement") names it: counts of sends;
 * opened_unique and clicked_unique count the sends with at least one such event (machine ones
 * included: the contract counts events as Resend reports them).
 */
export interface BroadcastStats {
  sent: number;
  delivered: number;
  opened_unique: number;
  clicked_unique: number;
  bounced: number;
  complained: number;
  unsubscribed: number;
}

/** What the broadcast's page shows beside the contract's counts. */
export interface BroadcastReport {
  stats: BroadcastStats;
  /** sends with at least one open (click) not flagged as a machine's */
  human: { opened_unique: number; clicked_unique: number };
  links: { url: string; clicks: number; unique: number; human_unique: number }[];
  /** the first event of each kind per send, by UTC hour or day: the sends that reached it then */
  timeline: { bucket: "hour" | "day"; labels: string[]; values: Record<string, Record<string, number>> };
}

/** A sent email counts as sent when it left (or reached the dev outbox), whatever came of it. */
const SENT_STATUSES = ["sent", "outbox", "bounced", "complained"];

/**
 * The contract's counts for one broadcast of the workspace, or null when the id names no
 * broadcast of it (another workspace's id reads as a made-up one). Runs as the caller.
 */
export async function getBroadcastStats(
  db: Db,
  input: { workspaceId: string; broadcastId: string },
): Promise<BroadcastStats | null> {
  const report = await loadCounts(db, input);
  return report && report.stats;
}

async function loadCounts(db: Db, input: { workspaceId: string; broadcastId: string }) {
  if (!isUuid(input.broadcastId)) return null;
  // email_send_stats: each send's first event of each kind, kept from email_events by the database
  const [row] = await db<(BroadcastStats & { human_opened: number; human_clicked: number })[]>`
    select (select count(*) from public.email_sends s
            where s.broadcast_id = b.id and s.workspace_id = b.workspace_id
              and s.status in ${db(SENT_STATUSES)})::int as sent,
           coalesce(x.delivered, 0) as delivered, coalesce(x.opened_unique, 0) as opened_unique,
           coalesce(x.clicked_unique, 0) as clicked_unique, coalesce(x.bounced, 0) as bounced,
           coalesce(x.complained, 0) as complained, coalesce(x.unsubscribed, 0) as unsubscribed,
           coalesce(x.human_opened, 0) as human_opened, coalesce(x.human_clicked, 0) as human_clicked
    from public.broadcasts b
    left join lateral (
      select count(delivered_at)::int as delivered, count(opened_at)::int as opened_unique,
             count(clicked_at)::int as clicked_unique, count(bounced_at)::int as bounced,
             count(complained_at)::int as complained, count(unsubscribed_at)::int as unsubscribed,
             count(human_opened_at)::int as human_opened, count(human_clicked_at)::int as human_clicked
      from public.email_send_stats t
      where t.broadcast_id = b.id and t.workspace_id = b.workspace_id) x on true
    where b.id = ${input.broadcastId} and b.workspace_id = ${input.workspaceId}`;
  if (!row) return null;
  const { human_opened, human_clicked, ...stats } = row;
  return { stats, human: { opened_unique: human_opened, clicked_unique: human_clicked } };
}

const hourLabel = (d: Date) => `${d.toISOString().slice(0, 13).replace("T", " ")}:00`;
const dayLabel = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Everything the broadcast's page shows: the counts, opens and clicks without machines, clicks
 * per link, and over time the sends that first reached each event (human opens and clicks
 * only), by hour over the first three days and by day after that.
 */
export async function getBroadcastReport(
  db: Db,
  input: { workspaceId: string; broadcastId: string },
): Promise<BroadcastReport | null> {
  const counts = await loadCounts(db, input);
  if (!counts) return null;
  // per link and send first (in the index's order, no sort), then per link
  const links = await db<{ url: string; clicks: number; unique: number; human_unique: number }[]>`
    select link_url as url, sum(n)::int as clicks, count(*)::int as unique,
           count(*) filter (where human)::int as human_unique
    from (select link_url, email_send_id, count(*) as n, bool_or(not is_machine) as human
          from public.email_events
          where broadcast_id = ${input.broadcastId} and workspace_id = ${input.workspaceId}
            and type = 'clicked' and link_url is not null
          group by link_url, email_send_id) p
    group by link_url
    order by count(*) desc, link_url
    limit 50`;
  const firsts = await db<{ type: string; hour: Date; sends: number }[]>`
    select f.type, date_bin('1 hour', f.at, timestamptz '2000-01-01 00:00:00+00') as hour, count(*)::int as sends
    from public.email_send_stats t
    cross join lateral (values ('delivered', t.delivered_at), ('opened', t.human_opened_at),
                               ('clicked', t.human_clicked_at), ('bounced', t.bounced_at),
                               ('complained', t.complained_at), ('unsubscribed', t.unsubscribed_at)) f(type, at)
    where t.broadcast_id = ${input.broadcastId} and t.workspace_id = ${input.workspaceId} and f.at is not null
    group by 1, 2
    order by 2`;
  const byDay =
    firsts.length > 1 && firsts[firsts.length - 1].hour.getTime() - firsts[0].hour.getTime() > 72 * 3_600_000;
  const labelOf = byDay ? dayLabel : hourLabel;
  const step = byDay ? 86_400_000 : 3_600_000;
  const labels: string[] = [];
  if (firsts.length) {
    const start = Date.parse(byDay ? `${dayLabel(firsts[0].hour)}T00:00:00Z` : firsts[0].hour.toISOString());
    const end = firsts[firsts.length - 1].hour.getTime();
    for (let t = start; t <= end; t += step) labels.push(labelOf(new Date(t)));
  }
  const values: Record<string, Record<string, number>> = {};
  for (const f of firsts) {
    const label = labelOf(f.hour);
    values[label] ??= {};
    values[label][f.type] = (values[label][f.type] ?? 0) + f.sends;
  }
  return {
    ...counts,
    links,
    timeline: { bucket: byDay ? "day" : "hour", labels, values },
  };
}
