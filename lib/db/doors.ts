import type postgres from "postgres";
import { poolCheckout } from "@/lib/observability/metrics";
import { getSql, type Sql } from "./client";
import {
  countRead,
  markWrite,
  memberCaller,
  readTarget,
  replicaConfigured,
  replicaFailed,
  replicaUnavailable,
} from "./replica";

/** A transaction handle. Every domain function takes one and never opens its own. */
export type Db = postgres.TransactionSql;

/** The identity of a signed-in member, as Supabase's gateway would put it in the JWT. */
export interface Claims {
  sub: string;
  role: "authenticated";
  email?: string;
  exp?: number;
  /** authenticator assurance level, as Supabase's `aal`: aal2 once a second factor was given */
  aal?: "aal1" | "aal2";
  /** how and when (Unix seconds) the session was authenticated, as Supabase's `amr` */
  amr?: AuthMethod[];
}

/** One entry of a session's `amr` claim (Supabase's AMREntry). */
export interface AuthMethod {
  method: "password" | "totp" | "recovery" | (string & {});
  timestamp: number;
}

/**
 * Runs `fn` in a transaction as the signed-in member: `role authenticated` and the
 * request.jwt.claims setting, exactly as Supabase's API gateway does, so that the RLS
 * policies decide what the member sees. The claims travel as a bound parameter.
 */
export function withUser<T>(claims: Claims, fn: (db: Db) => Promise<T>): Promise<T> {
  return transaction(userIdentity(claims), fn, { writer: memberCaller(claims.sub) });
}

const userIdentity = (claims: Claims) => (sql: postgres.Sql) =>
  sql`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', ${JSON.stringify(claims)}, true),
             set_config('statement_timeout', ${statementTimeout()}, true)`;

/**
 * The longest one statement of the app may run (docs/decisions.md, "A statement has a deadline"):
 * DATABASE_STATEMENT_TIMEOUT, a Postgres duration ('60s' unless set; '0' turns it off). Set with the
 * identity at the start of every transaction (no round trip of its own, and a transaction pooler
 * keeps it to the transaction), so one tenant's runaway query gives its connection back.
 */
export function statementTimeout(): string {
  const value = process.env.DATABASE_STATEMENT_TIMEOUT?.trim();
  return value && /^\d{1,9}\s*(ms|s|min|h)?$/.test(value) ? value : "60s";
}

/**
 * A read that tolerates a little lag, as the signed-in member: on the read replica
 * (DATABASE_READ_URL) with exactly withUser's identity (role authenticated, the claims: the same
 * RLS), or on the primary when there is no replica, it is down or too far behind, or the member
 * wrote something it has not replayed yet (lib/db/replica.ts). `fn` must only read: on the replica
 * a write fails, and a read the replica drops at the connection is run again on the primary.
 * For dashboard aggregates, lists and exports; never for a read that decides a write.
 */
export function withReadUser<T>(claims: Claims, fn: (db: Db) => Promise<T>): Promise<T> {
  return read(memberCaller(claims.sub), (sql) => transaction(userIdentity(claims), fn, { sql }));
}

/**
 * withReadUser's service door: a read as service_role (RLS bypassed) on the replica when it may
 * serve it. `caller` (e.g. `key:<api key id>`) is whose writes it must see: the same string given
 * to withService's `writer` when that caller wrote.
 */
export function withReadService<T>(
  fn: (db: Db) => Promise<T>,
  options: { caller?: string } = {},
): Promise<T> {
  return read(options.caller, (sql) => transaction(serviceIdentity, fn, { sql }));
}

async function read<T>(caller: string | undefined, run: (sql: Sql) => Promise<T>): Promise<T> {
  const { sql, target } = await readTarget(caller);
  if (target === "primary") return run(sql);
  try {
    return await run(sql);
  } catch (error) {
    if (!replicaUnavailable(error)) throw error;
    replicaFailed();
    countRead("primary", "replica_error");
    return run(getSql());
  }
}

/**
 * Runs `fn` in a transaction as service_role with no claims: auth.uid() is null and
 * RLS is bypassed. For webhooks, public endpoints, sync jobs and the backfill script:
 * the spec's "service-level identity that has no user session". `writer` names the caller the
 * writes are made for (e.g. `key:<api key id>`), whose reads through withReadService must then
 * see them (lib/db/replica.ts); withUser names its member itself.
 */
export function withService<T>(fn: (db: Db) => Promise<T>, options: { writer?: string } = {}): Promise<T> {
  return transaction(serviceIdentity, fn, options);
}

const serviceIdentity = (sql: postgres.Sql) =>
  sql`select set_config('role', 'service_role', true), set_config('request.jwt.claims', '', true),
             set_config('statement_timeout', ${statementTimeout()}, true)`;

/**
 * Inside a service transaction (withService), runs `fn` as the member `claims` names, exactly as
 * withUser would (role authenticated, their claims: RLS and auth.uid() apply), then returns the
 * transaction to the service identity. For a job that does a member's work on their behalf and
 * records the outcome in the same transaction (the background CSV import). If `fn` throws, the
 * caller's transaction rolls back whatever identity it was left in.
 */
export async function asUser<T>(db: Db, claims: Claims, fn: () => Promise<T>): Promise<T> {
  // unmarked before the switch and marked again only once the service is back
  const wasService = serviceTransactions.delete(db);
  await db`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', ${JSON.stringify(claims)}, true)`;
  const result = await fn();
  await serviceIdentity(db as unknown as postgres.Sql);
  if (wasService) serviceTransactions.add(db);
  return result;
}

/**
 * The handles of transactions opened as the service (withService) while they run as it: asUser
 * unmarks its handle for as long as a member's identity is in place. asServiceForMember skips its
 * check's round trip for a marked handle, where the check would only find the service. The mark can
 * only be missing where the service is (a savepoint's handle, a switch this file does not make), which
 * costs that round trip; it is never present for a member's identity.
 */
const serviceTransactions = new WeakSet<object>();

/**
 * Inside any transaction (withUser or withService), runs `fn` as the service (role
 * service_role, no claims: RLS is bypassed), then gives the transaction back the identity it
 * had. For the rows only the system writes (outgoing email, provider connections), once the
 * caller has been checked as themself in the same transaction: the check and the write commit
 * together or not at all. Saving and switching the identity cost one round trip together (the
 * two statements leave in one socket write and run in order).
 */
export async function asService<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  const [[saved]] = await Promise.all([
    db<{ role: string; claims: string | null }[]>`
      select current_setting('role') as role, current_setting('request.jwt.claims', true) as claims`,
    serviceIdentity(db as unknown as postgres.Sql),
  ]);
  // already the service (a webhook, a job): nothing to give back, and no round trip to do it
  if (saved.role === "service_role" && !saved.claims) return fn();
  return thenRestore(
    fn,
    () =>
      db`select set_config('role', ${saved.role}, true), set_config('request.jwt.claims', ${saved.claims ?? ""}, true)`,
  );
}

/**
 * The door for rows a member may not write directly (docs/decisions.md, "The database is the
 * boundary"): the consent paths (lib/consent/consent-door.ts) and broadcasts
 * (lib/email/broadcast-door.ts). The caller is checked as themself, in the statement that switches
 * the transaction to service_role: a member of `workspaceId` (with one of `roles` when given, at the
 * assurance level the workspace requires: public.is_workspace_member, has_workspace_role), else
 * `refuse()` is thrown. `write` then runs with RLS bypassed (each of its statements names the
 * workspace) and the member's claims kept, so auth.uid() still records them as creator or modifier;
 * then their role comes back. The service (or any role the database does not hand to callers) writes
 * directly.
 */
export async function asServiceForMember<T>(
  db: Db,
  workspaceId: string,
  refuse: () => Error,
  write: () => Promise<T>,
  roles?: readonly string[],
): Promise<T> {
  if (serviceTransactions.has(db)) return write(); // the service writes directly, as below
  const member = roles
    ? db`public.has_workspace_role(${workspaceId}, ${roles as string[]}::text[])`
    : db`public.is_workspace_member(${workspaceId})`;
  const [{ was, switched }] = await db<{ was: string; switched: string | null }[]>`
    select s.was,
           case when s.was not in ('authenticated', 'anon') then s.was
                when ${member} then set_config('role', 'service_role', true)
           end as switched
    from (select current_setting('role') as was offset 0) s`;
  if (switched === null) throw refuse();
  if (switched === was) return write();
  return thenRestore(write, () => db`select set_config('role', ${was}, true)`);
}

/**
 * Runs `fn` in an identity switched for it, then `restore`s the transaction's own identity, after a
 * failure too: the doors that switch (asService, asServiceForMember) share this.
 */
export async function thenRestore<T>(fn: () => Promise<T>, restore: () => Promise<unknown>): Promise<T> {
  let result: T;
  try {
    result = await fn();
  } catch (error) {
    // a failed statement aborted the transaction, which rolls back: restoring may fail with it
    await restore().catch(() => {});
    throw error;
  }
  await restore();
  return result;
}

/**
 * Inside the transaction of the member `claims` names (withUser), runs statements as the service and
 * returns to the member, as asService does, in one round trip instead of three: `issue` must send its
 * statements before it first awaits (call `.execute()` on each), so the switch to the service, the
 * statements and the switch back leave in one socket write and the server runs them in that order.
 * For reading, as the system, what a member may not read row by row (their session's version).
 */
export async function asServiceAtOnce<T>(db: Db, claims: Claims, issue: () => Promise<T>): Promise<T> {
  const toService = serviceIdentity(db as unknown as postgres.Sql).execute();
  const result = issue();
  const back =
    db`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', ${JSON.stringify(claims)}, true)`.execute();
  const [, value] = await Promise.all([toService, result, back]);
  return value;
}

/**
 * One statement in a transaction of its own as service_role: BEGIN, the identity, the
 * statement and COMMIT leave in one socket write, so the whole transaction costs one round
 * trip instead of three (withService must wait for the statement's answer before it can send
 * COMMIT). For the hot paths whose transaction is a single statement, such as keeping a
 * webhook in the inbox before it is processed. A failed statement leaves the transaction
 * aborted, COMMIT rolls it back, and the statement's error is thrown.
 */
export async function withServiceStatement<T extends readonly postgres.Row[]>(
  statement: (db: Db) => postgres.PendingQuery<T>,
): Promise<T> {
  const asked = performance.now();
  const conn = await getSql().reserve();
  const returned = poolCheckout(performance.now() - asked);
  try {
    const [begin, identity, result, commit] = await Promise.allSettled([
      conn`begin`.execute(),
      serviceIdentity(conn).execute(),
      statement(conn as unknown as Db).execute(),
      conn`commit`.execute(),
    ]);
    if (commit.status === "rejected") await conn`rollback`.catch(() => {}); // e.g. a lost connection
    // in order: a failed BEGIN or identity is the cause of everything after it
    for (const outcome of [begin, identity, result, commit])
      if (outcome.status === "rejected") throw outcome.reason;
    if ((commit as PromiseFulfilledResult<postgres.RowList<postgres.Row[]>>).value.command !== "COMMIT")
      throw new TransactionAborted();
    return (result as PromiseFulfilledResult<T>).value;
  } finally {
    conn.release();
    returned();
  }
}

/** COMMIT found the transaction aborted (a failed statement whose error `fn` swallowed): nothing was written. */
export class TransactionAborted extends Error {
  constructor() {
    super("The transaction was aborted by an earlier failed statement and has been rolled back.");
  }
}

type Statement = postgres.PendingQuery<postgres.Row[]>;

/**
 * One transaction on a connection of its own. BEGIN, the identity statement and `fn`'s first
 * query are issued in the same tick, and postgres.js writes what is issued in one tick to the
 * socket together: opening the transaction costs no round trip of its own (sql.begin waits for
 * BEGIN's answer, then for the identity's: two on every request, in the largest CPU item of a
 * request's profile, the socket writes). The server runs them in order, so no statement of
 * `fn` runs outside the transaction or under another identity; if BEGIN or the identity
 * fails, that error is the one thrown. Any failure rolls back; a COMMIT the server answers
 * with ROLLBACK (an error swallowed inside `fn`) throws TransactionAborted.
 */
async function transaction<T>(
  identity: (sql: postgres.Sql) => Statement,
  fn: (db: Db) => Promise<T>,
  options: { sql?: Sql; writer?: string } = {},
): Promise<T> {
  const asked = performance.now();
  const conn = await (options.sql ?? getSql()).reserve();
  const returned = poolCheckout(performance.now() - asked);
  if (identity === serviceIdentity) serviceTransactions.add(conn);
  try {
    const opened = Promise.all([conn`begin`.execute(), identity(conn).execute()]);
    opened.catch(() => {}); // awaited below, after fn
    let result: T;
    try {
      result = await fn(withSavepoints(conn));
      await opened;
    } catch (error) {
      await conn`rollback`.catch(() => {}); // the connection may be gone; release() copes
      await opened; // a failed BEGIN or identity is the cause of everything after it
      throw error;
    }
    if (options.writer === undefined || !replicaConfigured()) {
      const committed = await conn`commit`;
      if (committed.command !== "COMMIT") throw new TransactionAborted();
      return result;
    }
    // with a read replica: whether the transaction wrote is asked in the same socket write as
    // COMMIT, and only a transaction that wrote costs the mark's round trip (lib/db/replica.ts)
    const [wrote, committed] = await Promise.allSettled([
      conn<{ wrote: boolean }[]>`select pg_current_xact_id_if_assigned() is not null as wrote`.execute(),
      conn`commit`.execute(),
    ]);
    if (committed.status === "rejected") throw committed.reason;
    if (committed.value.command !== "COMMIT") throw new TransactionAborted();
    if (wrote.status === "rejected" || wrote.value[0].wrote) await markWrite(conn, options.writer);
    return result;
  } finally {
    serviceTransactions.delete(conn);
    conn.release();
    returned();
  }
}

/**
 * The reserved connection as a transaction handle: `savepoint(fn)` runs fn after SAVEPOINT,
 * releases it on success and rolls back to it on failure (rethrowing), as sql.begin's does.
 */
function withSavepoints(conn: postgres.ReservedSql): Db {
  let count = 0;
  const tx = conn as unknown as Db;
  const savepoint = async <R>(nameOrFn: string | ((sp: Db) => R), maybeFn?: (sp: Db) => R) => {
    const body = typeof nameOrFn === "function" ? nameOrFn : maybeFn!;
    const name = `s${++count}`;
    await conn.unsafe(`savepoint ${name}`);
    try {
      const result = await body(tx);
      await conn.unsafe(`release savepoint ${name}`);
      return result;
    } catch (error) {
      await conn.unsafe(`rollback to savepoint ${name}`);
      throw error;
    }
  };
  Object.assign(tx, { savepoint });
  return tx;
}
