import type { Db } from "@/lib/db/doors";

/** Items upserted together, their statements in flight at once on the request's connection. */
const BATCH_CHUNK = 100;

export type ItemOutcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

/**
 * A batch of upserts (docs/api.md, batch), each atomic on its own: an item that fails changes
 * nothing and the others go on. The items go in chunks of 100 under one savepoint, their statements
 * sent together (postgres.js pipelines what is issued at once; the server runs them in order, so a
 * later item sees an earlier one's contact); when any of a chunk fails, the chunk is rolled back to
 * its savepoint and its items run again one by one, each under a savepoint of its own. `settle` is
 * called for each item in order, with its outcome.
 */
export async function upsertInChunks<T extends { index: number }, R>(
  db: Db,
  items: T[],
  upsert: (item: T) => Promise<R>,
  settle: (item: T, outcome: ItemOutcome<R>) => Promise<void>,
): Promise<void> {
  for (let start = 0; start < items.length; start += BATCH_CHUNK) {
    const chunk = items.slice(start, start + BATCH_CHUNK);
    const name = `batch_chunk_${start}`;
    await db.unsafe(`savepoint ${name}`);
    const settled = await Promise.allSettled(chunk.map(upsert));
    if (settled.every((r) => r.status === "fulfilled")) {
      await db.unsafe(`release savepoint ${name}`);
      for (const [i, r] of settled.entries())
        await settle(chunk[i], { ok: true, value: (r as PromiseFulfilledResult<R>).value });
      continue;
    }
    await db.unsafe(`rollback to savepoint ${name}`);
    for (const item of chunk) {
      let outcome: ItemOutcome<R>;
      try {
        outcome = {
          ok: true,
          value: await pipelinedSavepoint(db, `batch_${item.index}`, () => upsert(item)),
        };
      } catch (error) {
        outcome = { ok: false, error };
      }
      await settle(item, outcome);
    }
  }
}

/**
 * `fn` atomic on its own inside the request's transaction, as db.savepoint, without the two
 * round trips of its own: SAVEPOINT leaves with fn's first statement and RELEASE with the next
 * item's (postgres.js writes what is issued in one tick together; the server runs them in
 * order). On failure the transaction is rolled back to the savepoint and the error rethrown.
 */
async function pipelinedSavepoint<T>(db: Db, name: string, fn: () => Promise<T>): Promise<T> {
  const opened = db.unsafe(`savepoint ${name}`).execute();
  opened.catch(() => {}); // awaited below
  try {
    const result = await fn();
    await opened;
    db.unsafe(`release savepoint ${name}`)
      .execute()
      .catch(() => {}); // a failed release fails the transaction's next statement
    return result;
  } catch (error) {
    await opened.catch(() => {});
    await db.unsafe(`rollback to savepoint ${name}`);
    throw error;
  }
}
