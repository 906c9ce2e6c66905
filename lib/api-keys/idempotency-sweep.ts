import type { Db } from "@/lib/db/doors";

/**
 * How long a key's first answer is replayed (docs/api.md): the REST API's Idempotency-Key claim
 * (lib/api/v1/idempotency.ts) takes an older row over, and the worker's sweep removes it. Here, out
 * of the API layer, so the worker does not import it.
 */
export const IDEMPOTENCY_HOURS = 24;

/** Removes answers past their 24 hours (the sweep; a key is also taken over when seen again). */
export async function sweepIdempotencyKeys(db: Db, batch = 10_000): Promise<number> {
  const rows = await db`
    delete from public.api_idempotency_keys
    where ctid = any(array(
      select ctid from public.api_idempotency_keys
      where created_at < now() - make_interval(hours => ${IDEMPOTENCY_HOURS}) limit ${batch}))
    returning 1`;
  return rows.length;
}
