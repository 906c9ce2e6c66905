import { refused, type Result } from "@/lib/errors/app-error";
import type Stripe from "stripe";
import { withService, type Db } from "@/lib/db/doors";
import { idOf, sessionIdOf } from "../checkout-from-stripe";
import { connectionOfWorkspace } from "../resolve-connection";
import { onAccount } from "../stripe-client";
import { QUICK_RETRY, withStripeRetry, type RetryOptions } from "../stripe-retry";

export type IntentOutcome = "intent" | "none" | "error_fetching" | "invalid_format";

export interface BackfillDeps {
  stripe: Stripe;
  /** the database door; the service identity (spec 4.12) */
  door?: <T>(fn: (db: Db) => Promise<T>) => Promise<T>;
  retry?: RetryOptions;
  /** Stripe lookups in flight at once */
  concurrency?: number;
}

export interface BackfillIntentsResult {
  processed: number;
  outcomes: Record<IntentOutcome, number>;
  /** rows of the workspace whose payproc_payment_intent_id is still null */
  remaining: number;
}

export const NO_CONNECTION = "This workspace has no payment processor connection.";

/**
 * Spec 4.11: fills payproc_payment_intent_id on a batch of rows where it is null. The session
 * id is parsed out of external_payproc_transaction_id and the session looked up on the
 * workspace's connected account; every processed row gets the intent id, 'none' (free or
 * 100% discount), 'error_fetching' (lookup or network failure, after retries) or
 * 'invalid_format', so the pool of null rows drains on every pass. Stripe is called between
 * two short transactions, never inside one.
 */
export async function backfillPaymentIntents(
  deps: BackfillDeps,
  input: { workspaceId: string; limit?: number },
): Promise<Result<BackfillIntentsResult>> {
  const door = deps.door ?? withService;
  const limit = input.limit ?? 100;
  const batch = await door(async (db) => {
    const connection = await connectionOfWorkspace(db, input.workspaceId);
    if (!connection) return null;
    const rows = await db<{ id: string; external_payproc_transaction_id: string | null }[]>`
      select id, external_payproc_transaction_id from public.transactions
      where workspace_id = ${input.workspaceId} and payproc_payment_intent_id is null
      order by created_at, id
      limit ${limit}`;
    return { connection, rows };
  });
  if (!batch) return refused("conflict", NO_CONNECTION);

  const sessions = new Map<string, string[]>();
  const values = new Map<string, string>();
  for (const row of batch.rows) {
    const sessionId = sessionIdOf(row.external_payproc_transaction_id ?? "");
    if (!sessionId) values.set(row.id, "invalid_format");
    else sessions.set(sessionId, [...(sessions.get(sessionId) ?? []), row.id]);
  }
  const options = onAccount(batch.connection.payproc_account_id);
  await inParallel([...sessions.keys()], deps.concurrency ?? 4, async (sessionId) => {
    let value: string;
    try {
      const session = await withStripeRetry(
        () => deps.stripe.checkout.sessions.retrieve(sessionId, {}, options),
        deps.retry ?? QUICK_RETRY,
      );
      value = idOf(session.payment_intent) ?? "none";
    } catch {
      value = "error_fetching";
    }
    for (const id of sessions.get(sessionId)!) values.set(id, value);
  });

  const ids = [...values.keys()];
  const remaining = await door(async (db) => {
    if (ids.length > 0) {
      await db`
        update public.transactions t set payproc_payment_intent_id = v.value
        from unnest(${ids}::uuid[], ${ids.map((id) => values.get(id)!)}::text[]) as v(id, value)
        where t.id = v.id and t.workspace_id = ${input.workspaceId} and t.payproc_payment_intent_id is null`;
    }
    const [{ n }] = await db`
      select count(*)::int as n from public.transactions
      where workspace_id = ${input.workspaceId} and payproc_payment_intent_id is null`;
    return n as number;
  });

  const outcomes: Record<IntentOutcome, number> = {
    intent: 0,
    none: 0,
    error_fetching: 0,
    invalid_format: 0,
  };
  for (const value of values.values()) {
    const key = value in outcomes ? (value as IntentOutcome) : "intent";
    outcomes[key] += 1;
  }
  return { data: { processed: ids.length, outcomes, remaining } };
}

/** Runs `fn` over `items` with at most `width` calls in flight. */
export async function inParallel<T>(
  items: T[],
  width: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}
