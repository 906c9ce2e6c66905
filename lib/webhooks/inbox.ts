import type { Db } from "@/lib/db/doors";

export type Provider = "payproc" | "ticketing" | "email";

export interface InboxRow {
  id: string;
  provider: Provider;
  event_id: string;
  event_type: string;
  workspace_id: string | null;
  payload: Record<string, unknown>;
  attempts: number;
}

/**
 * Keeps an inbound delivery before anything is done with it (docs/decisions.md, "The webhook inbox"). A
 * replayed provider event id hits the unique key: `duplicate` is true and the caller acknowledges without
 * processing it again.
 */
export async function storeDelivery(
  db: Db,
  input: {
    provider: Provider;
    eventId: string;
    eventType: string;
    payload: unknown;
    workspaceId?: string | null;
  },
): Promise<{ id: string; duplicate: boolean }> {
  const [row] = await db`
    insert into public.webhook_inbox (provider, event_id, event_type, workspace_id, payload)
    values (${input.provider}, ${input.eventId}, ${input.eventType}, ${input.workspaceId ?? null},
            ${db.json(input.payload as never)})
    on conflict (provider, event_id) do nothing
    returning id`;
  if (row) return { id: row.id, duplicate: false };
  const [existing] = await db`
    select id from public.webhook_inbox where provider = ${input.provider} and event_id = ${input.eventId}`;
  return { id: existing.id, duplicate: true };
}

/**
 * Claims one stored delivery for processing (skipping rows another worker holds), so a
 * delivery is processed by one worker at a time. Returns null when it is already done.
 */
export async function claimDelivery(db: Db, id: string): Promise<InboxRow | null> {
  const [row] = await db<InboxRow[]>`
    update public.webhook_inbox set status = 'processing', attempts = attempts + 1
    where id = (
      select id from public.webhook_inbox
      where id = ${id} and status in ('pending', 'failed', 'processing')
      for update skip locked)
    returning id, provider, event_id, event_type, workspace_id, payload, attempts`;
  return row ?? null;
}

/** A delivery tried this often is dead: kept with its last error, retried only by hand. */
export const MAX_DELIVERY_ATTEMPTS = 10;

/**
 * The outcome of a claimed delivery. A failure is 'failed' (to be retried), or 'dead' when it
 * was the last attempt (`dead`) or the delivery has had MAX_DELIVERY_ATTEMPTS.
 */
export async function finishDelivery(
  db: Db,
  id: string,
  outcome: { status: "done" | "ignored" } | { error: string; dead?: boolean },
): Promise<void> {
  if ("error" in outcome) {
    await db`update public.webhook_inbox
             set status = case when ${outcome.dead ?? false} or attempts >= ${MAX_DELIVERY_ATTEMPTS}
                               then 'dead' else 'failed' end,
                 last_error = ${outcome.error}
             where id = ${id}`;
  } else {
    await db`update public.webhook_inbox set status = ${outcome.status}, last_error = null, processed_at = now() where id = ${id}`;
  }
}

/**
 * An attempt that failed before the delivery was claimed (the provider's answer, fetched
 * outside any transaction): counted, with its error, unless another worker finished it.
 */
export async function recordDeliveryFailure(
  db: Db,
  id: string,
  input: { error: string; dead?: boolean },
): Promise<void> {
  await db`update public.webhook_inbox
           set attempts = attempts + 1, last_error = ${input.error},
               status = case when ${input.dead ?? false} or attempts + 1 >= ${MAX_DELIVERY_ATTEMPTS}
                             then 'dead' else 'failed' end
           where id = ${id} and status in ('pending', 'failed', 'processing')`;
}

/** Deliveries still to do: never finished (a crash after the answer) or failed, oldest first. */
export async function pendingDeliveries(
  db: Db,
  provider: Provider,
  olderThanSeconds = 30,
  limit = 50,
): Promise<string[]> {
  const rows = await db`
    select id from public.webhook_inbox
    where provider = ${provider} and status in ('pending', 'processing', 'failed')
      and attempts < ${MAX_DELIVERY_ATTEMPTS}
      and received_at < now() - make_interval(secs => ${olderThanSeconds})
    order by received_at
    limit ${limit}`;
  return rows.map((r) => r.id as string);
}

/** What claiming a delivery found: claimed now, finished already, or held by another worker. */
export type Claim = "claimed" | "finished" | "busy";

/**
 * For a delivery processed within one database transaction (added for the payproc webhook):
 * claims it and marks it done in one statement, skipping a row another worker holds. The
 * caller does its work in the same transaction, so a failure rolls the mark back with it.
 * When the row is not claimed, says whether it is finished (done or ignored) or held by
 * another worker, whose outcome is not known yet.
 */
export async function claimDeliveryAsDone(db: Db, id: string): Promise<Claim> {
  const [row] = await db`
    with claimable as (
      select id from public.webhook_inbox
      where id = ${id} and status in ('pending', 'failed', 'processing')
      for update skip locked
    ), claimed as (
      update public.webhook_inbox
      set status = 'done', attempts = attempts + 1, last_error = null, processed_at = now()
      where id = (select id from claimable)
      returning id
    )
    select exists (select from claimed) as claimed,
           (select status from public.webhook_inbox where id = ${id}) as status`;
  if (row.claimed) return "claimed";
  return row.status === "done" || row.status === "ignored" ? "finished" : "busy";
}
