import type postgres from "postgres";
import { log } from "@/lib/observability/log";
import { metrics } from "@/lib/observability/metrics";
import { connect, getSql, type Sql } from "./client";

/**
 * The read replica (DATABASE_READ_URL, docs/deployment.md "Read replica"): which server a read that
 * tolerates a little lag goes to. The replica, unless
 * - it is down or did not answer the last check (reason `replica_down`),
 * - it is behind the primary by more than DATABASE_READ_MAX_LAG_MS (`lagging`),
 * - the caller wrote something the replica has not replayed yet (`own_write`): after a
 *   transaction of a member or an API key that wrote, the primary's WAL insert position is kept in
 *   app_meta.read_marks (on the primary, so every web process sees it), and the caller's reads go
 *   to the primary until the replica's pg_last_wal_replay_lsn() has passed it.
 * Without DATABASE_READ_URL every read goes to the primary (`unset`). The replica's state is
 * checked at most every DATABASE_READ_CHECK_MS per process and shared by the reads in between.
 */

export type ReadReason = "replica" | "unset" | "replica_down" | "lagging" | "own_write" | "replica_error";

export interface ReplicaState {
  ok: boolean;
  /** how far behind the primary the replica's replay is, in ms (0 when it has replayed all) */
  lagMs: number;
  /** the replica's pg_last_wal_replay_lsn() as a number (the primary's LSNs compare with it) */
  replayLsn: bigint;
  checkedAt: number;
}

const maxLagMs = () => Number(process.env.DATABASE_READ_MAX_LAG_MS ?? 2_000);
const checkMs = () => Number(process.env.DATABASE_READ_CHECK_MS ?? 250);
/** a replica that failed its check is asked again after this long */
const DOWN_RETRY_MS = 2_000;
/** a check that takes longer than this counts as the replica being down */
const CHECK_TIMEOUT_MS = 1_000;

const globalForReplica = globalThis as unknown as {
  __crmReadSql?: Sql | null;
  __crmReplicaState?: ReplicaState;
  __crmReplicaCheck?: Promise<ReplicaState>;
};

/** The replica's pool, or null without DATABASE_READ_URL. */
export function getReadSql(): Sql | null {
  if (globalForReplica.__crmReadSql === undefined) {
    const url = process.env.DATABASE_READ_URL;
    globalForReplica.__crmReadSql = url
      ? connect(url, {
          max: Number(process.env.DATABASE_READ_POOL_SIZE ?? process.env.DATABASE_POOL_SIZE ?? 10),
          connectTimeoutSeconds: 2,
        })
      : null;
  }
  return globalForReplica.__crmReadSql;
}

/** Replaces the replica's pool (null: none) and forgets its state, for tests and scripts. */
export function setReadSql(sql: Sql | null | undefined): void {
  globalForReplica.__crmReadSql = sql;
  globalForReplica.__crmReplicaState = undefined;
  globalForReplica.__crmReplicaCheck = undefined;
}

/** Whether writes must leave a mark for read-your-writes: only when there is a replica to read from. */
export function replicaConfigured(): boolean {
  return getReadSql() !== null;
}

/** 'X/Y', PostgreSQL's text form of an LSN (two 32-bit hex halves), as a number. */
export function lsnValue(text: string): bigint {
  const [hi, lo] = text.split("/");
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("the replica did not answer in time")), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const DOWN: Omit<ReplicaState, "checkedAt"> = { ok: false, lagMs: Infinity, replayLsn: 0n };

/**
 * One look at the replica: its replay position against the primary's insert position. Caught up
 * when it has replayed everything the primary had written when asked; otherwise the time since it
 * replayed its last commit (an upper bound: after a long idle spell the first new commit shows a
 * large lag until it is replayed, which only sends reads to the primary for that moment).
 */
async function check(replica: Sql): Promise<ReplicaState> {
  try {
    const [[primary], [standby]] = await within(
      Promise.all([
        getSql()<{ lsn: string }[]>`select pg_current_wal_insert_lsn()::text as lsn`,
        replica<{ recovering: boolean; lsn: string | null; behind: number | null }[]>`
          select pg_is_in_recovery() as recovering, pg_last_wal_replay_lsn()::text as lsn,
                 (extract(epoch from clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000)::float8 as behind`,
      ]),
      CHECK_TIMEOUT_MS,
    );
    // not in recovery: a promoted replica, or DATABASE_READ_URL names the primary itself
    if (!standby.recovering || standby.lsn === null) {
      const replayLsn = standby.recovering ? 0n : lsnValue(primary.lsn);
      return { ok: standby.recovering ? false : true, lagMs: 0, replayLsn, checkedAt: Date.now() };
    }
    const replayLsn = lsnValue(standby.lsn);
    const lagMs = replayLsn >= lsnValue(primary.lsn) ? 0 : Math.max(0, standby.behind ?? Infinity);
    return { ok: true, lagMs, replayLsn, checkedAt: Date.now() };
  } catch {
    return { ...DOWN, checkedAt: Date.now() };
  }
}

/** The replica's state, at most DATABASE_READ_CHECK_MS old (`fresh`: checked now). Null without a replica. */
export async function replicaState(fresh = false): Promise<ReplicaState | null> {
  const replica = getReadSql();
  if (!replica) return null;
  const known = globalForReplica.__crmReplicaState;
  const age = known ? Date.now() - known.checkedAt : Infinity;
  if (!fresh && known && age < (known.ok ? checkMs() : DOWN_RETRY_MS)) return known;
  globalForReplica.__crmReplicaCheck ??= check(replica).then((state) => {
    globalForReplica.__crmReplicaState = state;
    globalForReplica.__crmReplicaCheck = undefined;
    return state;
  });
  return globalForReplica.__crmReplicaCheck;
}

/** A read on the replica failed at the connection: it counts as down until the next check. */
export function replicaFailed(): void {
  globalForReplica.__crmReplicaState = { ...DOWN, checkedAt: Date.now() };
}

/** A member's read-your-writes name (withUser and withReadUser use it). */
export const memberCaller = (userId: string) => `member:${userId}`;

/**
 * An API key's read-your-writes name: the `writer` of withService and the `caller` of
 * withReadService for the requests of that key (the v1 API's writes and lists).
 */
export const apiKeyCaller = (apiKeyId: string) => `key:${apiKeyId}`;

/** The caller's last write mark, as a number, or null. */
async function markOf(caller: string): Promise<bigint | null> {
  const [row] = await getSql()<
    { lsn: string }[]
  >`select lsn::text as lsn from app_meta.read_marks where caller = ${caller}`;
  return row ? lsnValue(row.lsn) : null;
}

/**
 * Where a read of `caller` (e.g. `member:<user id>`, `key:<api key id>`; none for reads of no
 * one in particular) goes now. Counted by target and reason (crm_db_reads_total).
 */
export async function readTarget(
  caller?: string,
): Promise<{ sql: Sql; target: "replica" | "primary"; reason: ReadReason }> {
  const replica = getReadSql();
  const decide = async (): Promise<ReadReason> => {
    if (!replica) return "unset";
    const [state, mark] = await Promise.all([replicaState(), caller ? markOf(caller) : null]);
    if (!state?.ok) return "replica_down";
    if (state.lagMs > maxLagMs()) return "lagging";
    if (mark !== null && state.replayLsn < mark) return "own_write";
    return "replica";
  };
  const reason = await decide();
  const target = reason === "replica" ? "replica" : "primary";
  countRead(target, reason);
  return { sql: target === "replica" ? replica! : getSql(), target, reason };
}

export function countRead(target: "replica" | "primary", reason: ReadReason): void {
  metrics().dbReads.inc({ target, reason });
}

/**
 * After a caller's transaction committed a write: the primary's WAL insert position now, which is
 * past the commit, is the caller's mark. A statement of its own on the same connection, as the
 * connection's login user (the caller's role ended with its transaction). It never throws: the
 * write is committed, and an error here would invite the caller to make it again; without the mark
 * the caller's next reads may be served by a replica within DATABASE_READ_MAX_LAG_MS.
 */
export async function markWrite(conn: postgres.ReservedSql, caller: string): Promise<void> {
  try {
    await conn`
      insert into app_meta.read_marks as m (caller, lsn) values (${caller}, pg_current_wal_insert_lsn())
      on conflict (caller) do update set lsn = greatest(m.lsn, excluded.lsn), written_at = now()`;
  } catch (error) {
    log.warn({ err: error }, "read replica: the write's read-your-writes mark was not kept");
  }
}

/**
 * Whether a failed read on the replica may be retried on the primary: the connection failed
 * (refused, reset, closed, timed out; SQLSTATE class 08, or the server shutting down, 57P01-57P03),
 * or recovery cancelled the query (40001: a conflict with replay).
 */
export function replicaUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  if (typeof code !== "string") return false;
  return (
    code.startsWith("08") ||
    ["57P01", "57P02", "57P03", "40001"].includes(code) ||
    [
      "ECONNREFUSED",
      "ECONNRESET",
      "EPIPE",
      "ETIMEDOUT",
      "CONNECTION_CLOSED",
      "CONNECTION_ENDED",
      "CONNECTION_DESTROYED",
      "CONNECT_TIMEOUT",
    ].includes(code)
  );
}
