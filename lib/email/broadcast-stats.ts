import type { Db } from "@/lib/db/doors";
import { isUuid } from "@/lib/ids/uuid";

/**
 * A broadcast's outcome as DESIGN section 8 ("Email engagement") names it: counts of sends;
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
  /** opens and clicks in all, repeats and machines included */
  totals: { opens: number; clicks: number };
  links: { url: string; clicks: number; unique: number; human_unique: number }[];
  /** the first event of each kind per send, by UTC hour or day: the sends that reached it then */
  timeline: { bucket: "hour" | "day"; labels: string[]; values: Record<string, Record<string, number>> };
}

const EMPTY: BroadcastStats = {
  sent: 0,
  delivered: 0,
  opened_unique: 0,
  clicked_unique: 0,
  bounced: 0,
  complained: 0,
  unsubscribed: 0,
};

const COUNTED: Record<string, keyof BroadcastStats> = {
  delivered: "delivered",
  opened: "opened_unique",
  clicked: "clicked_unique",
  bounced: "bounced",
  complained: "complained",
  unsubscribed: "unsubscribed",
};

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
  const [broadcast] = await db<{ sent: number }[]>`
    select (select count(*) from public.email_sends s
            where s.broadcast_id = b.id and s.workspace_id = b.workspace_id
              and s.status in ${db(SENT_STATUSES)})::int as sent
    from public.broadcasts b
    where b.id = ${input.broadcastId} and b.workspace_id = ${input.workspaceId}`;
  if (!broadcast) return null;
  const rows = await db<{ type: string; sends: number; human: number; events: number }[]>`
    select type, count(distinct email_send_id)::int as sends,
           count(distinct email_send_id) filter (where not is_machine)::int as human,
           count(*)::int as events
    from public.email_events
    where broadcast_id = ${input.broadcastId} and workspace_id = ${input.workspaceId}
    group by type`;
  const stats: BroadcastStats = { ...EMPTY, sent: broadcast.sent };
  const human = { opened_unique: 0, clicked_unique: 0 };
  const totals = { opens: 0, clicks: 0 };
  for (const r of rows) {
    const key = COUNTED[r.type];
    if (key) stats[key] = r.sends;
    if (r.type === "opened") {
      human.opened_unique = r.human;
      totals.opens = r.events;
    } else if (r.type === "clicked") {
      human.clicked_unique = r.human;
      totals.clicks = r.events;
    }
  }
  return { stats, human, totals };
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
  const links = await db<{ url: string; clicks: number; unique: number; human_unique: number }[]>`
    select link_url as url, count(*)::int as clicks, count(distinct email_send_id)::int as unique,
           count(distinct email_send_id) filter (where not is_machine)::int as human_unique
    from public.email_events
    where broadcast_id = ${input.broadcastId} and workspace_id = ${input.workspaceId}
      and type = 'clicked' and link_url is not null
    group by link_url
    order by count(distinct email_send_id) desc, link_url
    limit 50`;
  const firsts = await db<{ type: string; hour: Date; sends: number }[]>`
    select type, date_trunc('hour', first_at, 'UTC') as hour, count(*)::int as sends
    from (select type, email_send_id, min(occurred_at) as first_at
          from public.email_events
          where broadcast_id = ${input.broadcastId} and workspace_id = ${input.workspaceId}
            and type <> 'delivery_delayed' and not (type in ('opened', 'clicked') and is_machine)
          group by type, email_send_id) f
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
