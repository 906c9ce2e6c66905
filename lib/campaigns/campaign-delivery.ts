import { randomUUID } from "node:crypto";
import type { Db } from "@/lib/db/doors";
import { marketingSkipReasonSql } from "@/lib/email/broadcast-audience";
import { BROADCAST_BATCH_SIZE, BROADCAST_LEASE_SECONDS, type QueuedEmail } from "@/lib/email/send-broadcast";

/**
 * Campaign emails leave in chunks of Resend's batch call (docs/decisions.md, "Campaign emails in
 * batches"): a send step records its 'queued' row in the runner's transaction, and the
 * 'campaign-delivery' job gathers the queued rows of every campaign into chunks of up to 100. A chunk
 * is named when it is formed (`lease_owner` = `campaign:<uuid>` on its rows) and its name is the
 * idempotency key of its one batch call, so a chunk whose call was interrupted (the worker died, the
 * provider did not answer) is sent again as the same rows under the same key, whatever other rows
 * were queued since, and Resend answers from its first delivery. Eligibility (spec 8.3) is read again
 * when a chunk is formed: the queue may wait minutes behind the provider's rate.
 */
export interface CampaignChunk {
  key: string;
  rows: (QueuedEmail & { workspace_id: string })[];
}

const CHUNK_PREFIX = "campaign:";

const RETURNING = (db: Db) => db`id, workspace_id, to_email, subject, html, text_body, headers, lease_owner`;

/**
 * Up to `count` chunks to deliver, leased for BROADCAST_LEASE_SECONDS: first chunks formed before
 * whose lease ended (released after a failed call, or a dead run's), whole; then new chunks of the
 * oldest rows no chunk holds, in id order. Rows another live run leased are left to it.
 */
export async function claimCampaignChunks(db: Db, count: number): Promise<CampaignChunk[]> {
  const chunks: CampaignChunk[] = [];
  while (chunks.length < count) {
    const [stale] = await db<{ lease_owner: string }[]>`
      select lease_owner from public.email_sends
      where status = 'queued' and campaign_enrollment_id is not null and provider = 'resend'
        and lease_owner like ${CHUNK_PREFIX + "%"} and (lease_until is null or lease_until < now())
      limit 1`;
    if (!stale) break;
    // a row lock taken by another run that re-leases the same chunk first makes its lease_until
    // current when this statement re-reads the row: the chunk is then the other run's
    const rows = await db<(QueuedEmail & { workspace_id: string; lease_owner: string })[]>`
      update public.email_sends
      set lease_until = now() + make_interval(secs => ${BROADCAST_LEASE_SECONDS})
      where lease_owner = ${stale.lease_owner} and status = 'queued'
        and (lease_until is null or lease_until < now())
      returning ${RETURNING(db)}`;
    if (rows.length) chunks.push({ key: stale.lease_owner, rows: byId(rows) });
  }
  while (chunks.length < count) {
    const key = CHUNK_PREFIX + randomUUID();
    // Spec 8.3 again as the chunk is formed: a contact who unsubscribed, was suppressed or was
    // deleted since the send step queued their email gets nothing; the row is skipped with the
    // reason. Only here: a chunk once named is sent again whole (its key stands for its rows).
    const [formed] = await db<{ skipped: number; rows: (QueuedEmail & { workspace_id: string })[] }[]>`
      with candidates as (
        select e.id, case when c.id is null then 'contact deleted' else ${marketingSkipReasonSql(db)} end as skip
        from public.email_sends e
        left join public.contacts c on c.id = e.contact_id and c.workspace_id = e.workspace_id
        where e.status = 'queued' and e.campaign_enrollment_id is not null and e.provider = 'resend'
          and e.lease_owner is null
        order by e.id
        limit ${BROADCAST_BATCH_SIZE}
        for update of e skip locked
      ), skipped as (
        update public.email_sends e set status = 'skipped', skip_reason = k.skip
        from candidates k where e.id = k.id and k.skip is not null
        returning e.id
      ), leased as (
        update public.email_sends e
        set lease_owner = ${key}, lease_until = now() + make_interval(secs => ${BROADCAST_LEASE_SECONDS})
        from candidates k where e.id = k.id and k.skip is null
        returning e.id, e.workspace_id, e.to_email, e.subject, e.html, e.text_body, e.headers, e.lease_owner
      )
      select (select count(*) from skipped)::int as skipped,
             coalesce((select json_agg(l) from leased l), '[]') as rows`;
    if (formed.rows.length === 0 && formed.skipped === 0) break;
    if (formed.rows.length) chunks.push({ key, rows: byId(formed.rows) });
  }
  return chunks;
}

/** The call for a chunk did not go through: its lease ends now, so the next attempt takes it at once. */
export async function releaseCampaignChunk(db: Db, key: string): Promise<void> {
  await db`update public.email_sends set lease_until = null
           where lease_owner = ${key} and status = 'queued'`;
}

/** Whether queued campaign emails wait with no live lease (a chunk left by a failed last attempt, or never formed). */
export async function campaignEmailsWaiting(db: Db): Promise<boolean> {
  const [row] = await db`
    select 1 from public.email_sends
    where status = 'queued' and campaign_enrollment_id is not null and provider = 'resend'
      and (lease_until is null or lease_until < now())
    limit 1`;
  return Boolean(row);
}

const byId = <R extends { id: string }>(rows: R[]) => [...rows].sort((a, b) => (a.id < b.id ? -1 : 1));
