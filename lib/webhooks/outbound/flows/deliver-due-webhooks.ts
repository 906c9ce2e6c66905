import { openSecret } from "@/lib/crypto/secret-box";
import { withService, type Db } from "@/lib/db/doors";
import { deliverWebhook, type DeliveryAttempt } from "../deliver-webhook";

/**
 * Retries after a failed attempt: about a day in all (issue 15), then the delivery is failed.
 * A delivery claimed by a worker is leased for LEASE; a worker that dies mid-attempt leaves it
 * to be claimed again when the lease ends (at least once: receivers deduplicate by webhook-id).
 */
export const RETRY_DELAYS_SECONDS = [30, 120, 600, 1_800, 3_600, 7_200, 14_400, 28_800, 28_800];
const LEASE = "2 minutes";
/** An endpoint failing for this long is disabled and its workspace's owners are told. */
export const DISABLE_AFTER = "3 days";

/** Claims up to `limit` due deliveries for this worker: concurrent workers never share one. */
export async function claimDueWebhookDeliveries(db: Db, limit: number): Promise<string[]> {
  const rows = await db`
    update public.webhook_deliveries d set next_attempt_at = now() + ${LEASE}::interval
    from (select id from public.webhook_deliveries
          where status = 'pending' and next_attempt_at <= now()
          order by next_attempt_at limit ${limit} for update skip locked) due
    where d.id = due.id
    returning d.id`;
  return rows.map((r) => r.id as string);
}

type Outcome = "succeeded" | "retrying" | "failed" | "skipped";

/**
 * One attempt of one delivery: read it and its endpoint, POST it with no transaction open (the
 * receiver may take seconds), then record the answer in a short transaction that re-checks the
 * delivery is still pending.
 */
export async function attemptWebhookDelivery(deliveryId: string): Promise<Outcome> {
  const [target] = await withService(
    (db) => db`
      select d.id, d.message_id, d.event_type, d.payload::text as body, e.url, e.enabled, e.secret_ciphertext
      from public.webhook_deliveries d join public.webhook_endpoints e on e.id = d.endpoint_id
      where d.id = ${deliveryId} and d.status = 'pending'`,
  );
  if (!target) return "skipped";
  let attempt: DeliveryAttempt;
  if (!target.enabled && target.event_type !== "webhook.test")
    attempt = { ok: false, status: null, durationMs: 0, excerpt: "The endpoint is disabled.", refused: true };
  else
    attempt = await deliverWebhook(target.url, openSecret(target.secret_ciphertext), {
      id: target.message_id,
      body: target.body,
    });
  return withService((db) => recordAttempt(db, deliveryId, attempt));
}

async function recordAttempt(db: Db, deliveryId: string, attempt: DeliveryAttempt): Promise<Outcome> {
  const [row] = await db`
    update public.webhook_deliveries
    set attempts = attempts + 1, last_attempt_at = now(), last_status_code = ${attempt.status},
        last_duration_ms = ${attempt.durationMs}, last_response_excerpt = ${attempt.excerpt.slice(0, 2048)},
        status = case when ${attempt.ok} then 'succeeded'
                      when ${attempt.refused} or attempts >= ${RETRY_DELAYS_SECONDS.length} then 'failed'
                      else 'pending' end,
        next_attempt_at = now() + make_interval(secs => (${RETRY_DELAYS_SECONDS}::int[])[least(attempts + 1, ${RETRY_DELAYS_SECONDS.length})])
    where id = ${deliveryId} and status = 'pending'
    returning status, endpoint_id, workspace_id`;
  if (!row) return "skipped";
  if (attempt.ok) {
    await db`update public.webhook_endpoints set failing_since = null
             where id = ${row.endpoint_id} and failing_since is not null`;
  } else {
    await disableIfFailingTooLong(db, row.endpoint_id);
  }
  return row.status === "succeeded" ? "succeeded" : row.status === "failed" ? "failed" : "retrying";
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
 * Claims the due deliveries and attempts them, `concurrency` at a time (a batch of 50 slow
 * receivers, 10 s each, ends well within the lease); returns how many were attempted. For the
 * worker's delivery loop (webhook-pump.ts).
 */
export async function deliverDueWebhooks(
  options: { limit?: number; concurrency?: number } = {},
): Promise<number> {
  const ids = await withService((db) => claimDueWebhookDeliveries(db, options.limit ?? 50));
  let next = 0;
  const lane = async () => {
    while (next < ids.length) await attemptWebhookDelivery(ids[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 8, ids.length) }, lane));
  return ids.length;
}
