import type { Db } from "@/lib/db/doors";
import { isUuid } from "@/lib/ids/uuid";

export type DeliverySuppressionReason = "bounce" | "complaint";

/**
 * The suppressions a broadcast caused (spec 6.1: a bounce or complaint event suppresses the
 * contact): contacts whose email of this broadcast bounced (or was reported as spam) and who hold
 * a 'bounce' ('complaint') suppression recorded since it was sent. One that was removed since (a
 * 'bounce' is cleared when the address changes, spec 4.15) is no longer counted. Read as the caller.
 */
function causedSql(db: Db, input: { workspaceId: string; broadcastId: string }) {
  return db`
    select s.id, s.contact_id, s.reason, s.created_at, c.email, c.first_name, c.last_name, e.broadcast_id
    from public.email_sends e
    join public.contact_suppressions s
      on s.contact_id = e.contact_id and s.workspace_id = e.workspace_id
         and s.reason = case e.status when 'bounced' then 'bounce' else 'complaint' end
         and s.created_at >= coalesce(e.sent_at, e.created_at)
    join public.contacts c on c.id = s.contact_id and c.workspace_id = s.workspace_id
    where e.broadcast_id = ${input.broadcastId} and e.workspace_id = ${input.workspaceId}
      and e.status in ('bounced', 'complained')`;
}

/** How many of the broadcast's bounces and complaints became suppressions. */
export async function broadcastSuppressionCounts(
  db: Db,
  input: { workspaceId: string; broadcastId: string },
): Promise<Record<DeliverySuppressionReason, number>> {
  if (!isUuid(input.broadcastId)) return { bounce: 0, complaint: 0 };
  const [row] = await db<{ bounce: number; complaint: number }[]>`
    select count(*) filter (where reason = 'bounce')::int as bounce,
           count(*) filter (where reason = 'complaint')::int as complaint
    from (${causedSql(db, input)}) x`;
  return row;
}

export interface SuppressionListRow {
  id: string;
  contact_id: string;
  reason: string;
  created_at: Date;
  email: string;
  first_name: string | null;
  last_name: string | null;
  broadcast_id: string | null;
}

/**
 * The workspace's suppressions, newest first (at most `limit`): all of them, of one reason, or
 * those one broadcast caused. Read as the caller (members read contact_suppressions).
 */
export async function listSuppressions(
  db: Db,
  input: { workspaceId: string; reason?: string; broadcastId?: string; limit?: number },
): Promise<SuppressionListRow[]> {
  const limit = input.limit ?? 200;
  const reason = input.reason ?? null;
  if (input.broadcastId !== undefined) {
    if (!isUuid(input.broadcastId)) return [];
    return db<SuppressionListRow[]>`
      select * from (${causedSql(db, { workspaceId: input.workspaceId, broadcastId: input.broadcastId })}) x
      where ${reason}::text is null or x.reason = ${reason}
      order by x.created_at desc, x.id
      limit ${limit}`;
  }
  return db<SuppressionListRow[]>`
    select s.id, s.contact_id, s.reason, s.created_at, c.email, c.first_name, c.last_name, null::uuid as broadcast_id
    from public.contact_suppressions s
    join public.contacts c on c.id = s.contact_id and c.workspace_id = s.workspace_id
    where s.workspace_id = ${input.workspaceId} and (${reason}::text is null or s.reason = ${reason})
    order by s.created_at desc, s.id
    limit ${limit}`;
}
