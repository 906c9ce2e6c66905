import type { Db as IDatabase } from "pg-boss";
import type postgres from "postgres";
import type { Sql } from "@/lib/db/client";
import type { Db } from "@/lib/db/doors";

type Rows = { rows: unknown[] };

/**
 * postgres.js answers a multi-statement text with one row list per statement; pg-boss wants the
 * rows of all of them (its maintenance blocks are BEGIN … RETURNING … COMMIT in one text).
 */
function rowsOf(result: postgres.RowList<postgres.Row[]> | postgres.RowList<postgres.Row[]>[]): Rows {
  const list = result as unknown[];
  if (list.length > 0 && list.every((item) => Array.isArray(item))) return { rows: list.flat() };
  return { rows: [...list] };
}

/**
 * pg-boss's statements on one of our postgres.js pools. A text without parameters may be a
 * BEGIN … COMMIT block, which postgres.js runs only on a connection of its own (it refuses a
 * BEGIN sent to a pool), so it goes to a reserved connection; everything else to the pool.
 */
export function poolDb(sql: Sql): IDatabase {
  return {
    async executeSql(text, values) {
      if (values?.length) return rowsOf(await sql.unsafe(text, values as postgres.ParameterOrJSON<never>[]));
      const conn = await sql.reserve();
      try {
        return rowsOf(await conn.unsafe(text));
      } finally {
        conn.release();
      }
    },
  };
}

/**
 * pg-boss's statements inside one of our transactions (withUser/withService), so that a job is
 * enqueued, retried or cancelled together with the change that causes it, or not at all.
 */
export function transactionDb(db: Db): IDatabase {
  return {
    async executeSql(text, values) {
      return rowsOf(await db.unsafe(text, (values ?? []) as postgres.ParameterOrJSON<never>[]));
    },
  };
}
