import type Stripe from "stripe";
import type { Db } from "@/lib/db/doors";

export interface PayprocConnection {
  id: string;
  workspace_id: string;
  payproc_account_id: string | null;
  livemode: boolean;
  auto_subscribe_purchasers: boolean;
}

/** keepPayprocEvent's one row. */
export interface KeptEvent {
  /** the event's connection; null when none or several match (the event is kept as 'ignored') */
  connection: PayprocConnection | null;
  /** the inbox row kept now, or null when the event id was there already */
  kept_id: string | null;
  /** the inbox row of an earlier delivery of the same event id, and its status */
  existing_id: string | null;
  existing_status: string | null;
}

/**
 * Spec 4.4 step 1 and spec 6.1 in one statement (docs/decisions.md, "The payment webhook"): resolves the
 * event's workspace and keeps the event in the durable inbox, with the workspace, or as 'ignored' when no
 * connection matches. The workspace of an event is the connection of the event's account; an event without an
 * account (development, test) falls back to the single connection whose live-mode flag
 * equals the event's, and none or several such connections resolve to nothing.
 *
 * A replayed event id inserts nothing (the inbox is unique on it) and returns the earlier row.
 * When a concurrent delivery of the same event commits while this statement waits on the key,
 * neither is returned: this statement's snapshot predates that row.
 */
export function keepPayprocEvent(db: Db, event: Stripe.Event) {
  const match = event.account ? db`payproc_account_id = ${event.account}` : db`livemode = ${event.livemode}`;
  return db<[KeptEvent]>`
    with candidates as (
      select id, workspace_id, payproc_account_id, livemode, auto_subscribe_purchasers
      from public.payproc_connections where ${match}
      limit 2
    ), resolved as (
      select * from candidates where (select count(*) from candidates) = 1
    ), kept as (
      insert into public.webhook_inbox (provider, event_id, event_type, workspace_id, payload, status, processed_at)
      select 'payproc', ${event.id}, ${event.type}, r.workspace_id, ${db.json(event as never)},
             case when r.id is null then 'ignored' else 'pending' end,
             case when r.id is null then now() end
      from (select) one left join resolved r on true
      on conflict (provider, event_id) do nothing
      returning id
    )
    select (select row_to_json(r) from resolved r) as connection,
           (select id from kept) as kept_id,
           i.id as existing_id, i.status as existing_status
    from (select) one left join public.webhook_inbox i on i.provider = 'payproc' and i.event_id = ${event.id}`;
}

/** The workspace's connection (backfills need its account id). */
export async function connectionOfWorkspace(db: Db, workspaceId: string): Promise<PayprocConnection | null> {
  const [row] = await db<PayprocConnection[]>`
    select id, workspace_id, payproc_account_id, livemode, auto_subscribe_purchasers
    from public.payproc_connections where workspace_id = ${workspaceId}`;
  return row ?? null;
}
