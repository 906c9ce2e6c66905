import { openSecret } from "@/lib/crypto/secret-box";
import { withService, type Db } from "@/lib/db/doors";
import { log } from "@/lib/observability/log";
import { deliverWebhook, type DeliveryAttempt } from "../deliver-webhook";

/**
 * Retries after a failed attempt: about a day in all (docs/decisions.md, "Outbound webhooks"), then the
 * delivery is failed. A delivery claimed by a worker is leased for LEASE; a worker that dies mid-attempt
 * leaves it to be claimed again when the lease ends (at least once: receivers deduplicate by webhook-id).
 */
export const RETRY_DELAYS_SECONDS = [30, 120, 600, 1_800, 3_600, 7_200, 14_400, 28_800, 28_800];
const LEASE = "2 minutes";
/** An endpoint failing for this long is disabled and its workspace's owners are told. */
export const DISABLE_AFTER = "3 days";

/** A claimed delivery with what its attempt needs. */
export interface DueDelivery {
  id: string;
  message_id: string;
  event_type: string;
  body: string;
  url: string;
  enabled: boolean;
  secret_ciphertext: string;
}

/**
 * Claims up to `limit` due deliveries for this worker, with their endpoints: concurrent workers
 * never share one. The claim is the lease: until it ends nobody else attempts them.
 */
export async function claimDueWebhookDeliveries(db: Db, limit: number): Promise<DueDelivery[]> {
  return db<DueDelivery[]>`
    with due as (
      select id from public.webhook_deliveries
      where status = 'pending' and next_attempt_at <= now()
      order by next_attempt_at limit ${limit} for update skip locked
    ), claimed as (
      update public.webhook_deliveries d set next_attempt_at = now() + ${LEASE}::interval
      from due where d.id = due.id
      returning d.id, d.message_id, d.event_type, d.payload::text as body, d.endpoint_id
    )
    select c.id, c.message_id, c.event_type, c.body, e.url, e.enabled, e.secret_ciphertext
    from claimed c join public.webhook_endpoints e on e.id = c.endpoint_id`;
}

/** One attempt of one claimed delivery: a POST with no transaction open (the receiver may take seconds). */
export async function attemptWebhookDelivery(target: DueDelivery): Promise<DeliveryAttempt> {
  if (!target.enabled && target.event_type !== "webhook.test")
    return { ok: false, status: null, durationMs: 0, excerpt: "The endpoint is disabled.", refused: true };
  return deliverWebhook(target.url, openSecret(target.secret_ciphertext), {
    id: target.message_id,
    body: target.body,
  });
}

/**
 * One delivery's failure is its own (docs/decisions.md, "One delivery's failure is its own"): whatever
 * throws while attempting it (a secret that does not open, a signing error) is that delivery's failed
 * attempt, retried on its schedule, and never stops the batch from being recorded.
 */
async function attemptIsolated(target: DueDelivery): Promise<DeliveryAttempt> {
  try {
    return await attemptWebhookDelivery(target);
  } catch (error) {
    log.error({ err: error, deliveryId: target.id }, "webhook delivery could not be attempted");
    return {
      ok: false,
      status: null,
      durationMs: 0,
      excerpt: "The delivery could not be attempted.",
      refused: false,
    };
  }
}

/**
 * Records a batch's answers in one statement, each only if its delivery is still pending: a
 * success ends it, a refusal or the last retry fails it, anything else is due again after its
 * backoff. Endpoints that succeeded forget their run of failures; those that failed may be
 * disabled.
 */
async function recordAttempts(db: Db, done: { id: string; attempt: DeliveryAttempt }[]): Promise<void> {
  const rows = await db`
    update public.webhook_deliveries d
    set attempts = d.attempts + 1, last_attempt_at = now(), last_status_code = a.status,
        last_duration_ms = a.duration_ms, last_response_excerpt = a.excerpt,
        status = case when a.ok then 'succeeded'
                      when a.refused or d.attempts >= ${RETRY_DELAYS_SECONDS.length} then 'failed'
                      else 'pending' end,
        next_attempt_at = now() + make_interval(secs => (${RETRY_DELAYS_SECONDS}::int[])[least(d.attempts + 1, ${RETRY_DELAYS_SECONDS.length})])
    from jsonb_to_recordset(${db.json(
      done.map(({ id, attempt: t }) => ({
        id,
        ok: t.ok,
        refused: t.refused,
        status: t.status,
        duration_ms: t.durationMs,
        excerpt: t.excerpt.slice(0, 2048),
      })),
    )}::jsonb) as a(id uuid, ok boolean, refused boolean, status int, duration_ms int, excerpt text)
    where d.id = a.id and d.status = 'pending'
    returning d.endpoint_id, a.ok`;
  const succeeded = [...new Set(rows.filter((r) => r.ok).map((r) => r.endpoint_id as string))];
  const failed = [...new Set(rows.filter((r) => !r.ok).map((r) => r.endpoint_id as string))];
  if (succeeded.length > 0)
    await db`update public.webhook_endpoints set failing_since = null
             where id = any(${succeeded}::uuid[]) and failing_since is not null`;
  for (const endpointId of failed.filter((id) => !succeeded.includes(id)))
    await disableIfFailingTooLong(db, endpointId);
}

/** Marks the start of a run of failures; a run longer than DISABLE_AFTER disables the endpoint and tells the owners. */
async function disableIfFailingTooLong(db: Db, endpointId: string): Promise<void> {
  const [disabled] = await db`
    with before as (select id, enabled from public.webhook_endpoints where id = ${endpointId} for update)
    update public.webhook_endpoints e
    set failing_since = coalesce(e.failing_since, now()),
        enabled = case when e.failing_since < now() - ${DISABLE_AFTER}::interval then false else e.enabled end,
        disabled_reason = case when e.failing_since < now() - ${DISABLE_AFTER}::interval
                               then 'Disabled automatically: every delivery failed for ' || ${DISABLE_AFTER} || '.'
                               else e.disabled_reason end
    from before
    where e.id = before.id
    returning e.workspace_id, e.url, before.enabled and not e.enabled as just_disabled`;
  if (!disabled?.just_disabled) return;
  await db`
    insert into public.notifications (workspace_id, user_id, type, title, body, action_url, action_label)
    select ${disabled.workspace_id}, m.user_id, 'webhook_endpoint_disabled', 'A webhook endpoint was disabled',
           'Every delivery to ' || ${disabled.url} || ' failed for ' || ${DISABLE_AFTER} || '. Fix the receiver, then enable the endpoint again.',
           '/settings/webhooks/' || ${endpointId}, 'Open endpoint'
    from public.workspace_members m
    where m.workspace_id = ${disabled.workspace_id} and m.role = 'owner'`;
}

/**
 * Claims the due deliveries, attempts them `concurrency` at a time (a batch of 50 slow
 * receivers, 10 s each, ends well within the lease) and records the answers in one transaction;
 * returns how many were attempted. For the worker's delivery loop (webhook-pump.ts). A worker
 * that dies mid-batch records nothing: the batch is attempted again when its lease ends.
 */
export async function deliverDueWebhooks(
  options: { limit?: number; concurrency?: number } = {},
): Promise<number> {
  const due = await withService((db) => claimDueWebhookDeliveries(db, options.limit ?? 50));
  if (due.length === 0) return 0;
  const done: { id: string; attempt: DeliveryAttempt }[] = [];
  let next = 0;
  const lane = async () => {
    while (next < due.length) {
      const target = due[next++];
      done.push({ id: target.id, attempt: await attemptIsolated(target) });
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 8, due.length) }, lane));
  await withService((db) => recordAttempts(db, done));
  return due.length;
}
