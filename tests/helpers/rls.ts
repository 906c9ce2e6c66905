import type { Sql } from "@/lib/db/client";
import { withService, withUser, type Db } from "@/lib/db/doors";
import { withAnon } from "./anon";
import { addMember, createWorkspace, type TestUser, type TestWorkspace } from "./factories";
import { buildRow, insertRow, keyOf, TABLES, type Row } from "./rows";

export type Caller = "owner" | "admin" | "member" | "outsider" | "anon" | "service";
export type Op = "select" | "insert" | "update" | "delete";
/** What an operation did, read back from the database: done, no row touched, or an error code. */
export type Outcome = "allowed" | "0 rows" | string;

/** Workspace A with an owner, an admin and a member; workspace B whose owner is the outsider. */
export interface Tenants {
  a: TestWorkspace;
  admin: TestUser;
  member: TestUser;
  b: TestWorkspace;
}

export async function createTenants(sql: Sql): Promise<Tenants> {
  const a = await createWorkspace(sql);
  const admin = await addMember(sql, a.id, "admin");
  const member = await addMember(sql, a.id, "member");
  const b = await createWorkspace(sql);
  return { a, admin, member, b };
}

export function userOf(t: Tenants, caller: Caller): TestUser | null {
  return (
    { owner: t.a.owner, admin: t.admin, member: t.member, outsider: t.b.owner }[caller as string] ?? null
  );
}

/** Runs `fn` through the door the caller would use. */
export function as<T>(t: Tenants, caller: Caller, fn: (db: Db) => Promise<T>): Promise<T> {
  if (caller === "anon") return withAnon(fn);
  if (caller === "service") return withService(fn);
  return withUser(userOf(t, caller)!.claims, fn);
}

/** The value, or the Postgres error code (SQLSTATE) it failed with. */
export async function attempt<T>(
  run: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; code: string }> {
  try {
    return { ok: true, value: await run() };
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (!code) throw e;
    return { ok: false, code };
  }
}

const countInA = async (sql: Sql, table: string, t: Tenants) =>
  (await sql`select count(*)::int as n from ${sql(table)} where workspace_id = ${t.a.id}`)[0].n as number;

const countByKey = async (sql: Sql, table: string, key: Row) =>
  (
    await sql`select count(*)::int as n from ${sql(table)} t where to_jsonb(t) @> ${sql.json(key as never)}`
  )[0].n as number;

/**
 * Performs `op` on a row of `table` in workspace A as `caller` and reports what happened,
 * checked against the database: 'allowed' (the row was read / stored / changed / removed),
 * '0 rows' (no error and nothing happened), or the error code (and nothing happened).
 * Anything else (an error that still wrote, a success that did not) is reported verbatim.
 */
export async function observe(sql: Sql, t: Tenants, table: string, op: Op, caller: Caller): Promise<Outcome> {
  const user = userOf(t, caller);
  // notification_reads are personal: a caller marks a notification read for themself
  // and a consent_events entry names its author (least privilege: actor_user_id = auth.uid())
  const own =
    table === "notification_reads" && user
      ? { user_id: user.id }
      : table === "consent_events" && user
        ? { actor_user_id: user.id }
        : {};
  if (op === "insert") {
    const row = await buildRow(sql, table, t.a, own);
    const before = await countInA(sql, table, t);
    const r = await attempt(() => as(t, caller, (db) => db`insert into ${db(table)} ${db(row)}`));
    const added = (await countInA(sql, table, t)) - before;
    if (r.ok) return added === 1 ? "allowed" : `inserted, ${added} stored`;
    return added === 0 ? r.code : `${r.code} but stored`;
  }
  const target = await insertRow(sql, table, t.a, own);
  const key = keyOf(table, target);
  // column by column, not to_jsonb(t): a whole-row reference needs SELECT on every column,
  // and some columns are service-only (ticketing_connections.access_token)
  const match = (db: Db) =>
    Object.entries(key)
      .map(([column, value]) => db`t.${db(column)}::text = ${value}`)
      .reduce((all, one) => db`${all} and ${one}`);
  if (op === "select") {
    const r = await attempt(() =>
      as(t, caller, (db) => db`select count(*)::int as n from ${db(table)} t where ${match(db)}`),
    );
    if (!r.ok) return r.code;
    return r.value[0].n === 1 ? "allowed" : "0 rows";
  }
  if (op === "delete") {
    const r = await attempt(() => as(t, caller, (db) => db`delete from ${db(table)} t where ${match(db)}`));
    const left = await countByKey(sql, table, key);
    if (r.ok && r.value.count === 1 && left === 0) return "allowed";
    if (r.ok && r.value.count === 0 && left === 1) return "0 rows";
    return r.ok ? `deleted ${r.value.count}, ${left} left` : left === 1 ? r.code : `${r.code} but deleted`;
  }
  const [column, value] = Object.entries(TABLES[table].change)[0];
  const r = await attempt(() =>
    as(t, caller, (db) => db`update ${db(table)} t set ${db(column)} = ${value as never} where ${match(db)}`),
  );
  const [{ changed }] = await sql`
    select bool_or(t.${sql(column)} is not distinct from ${value as never}) as changed
    from ${sql(table)} t where to_jsonb(t) @> ${sql.json(key as never)}`;
  if (r.ok && r.value.count === 1 && changed) return "allowed";
  if (r.ok && r.value.count === 0 && !changed) return "0 rows";
  return r.ok ? `updated ${r.value.count}, changed ${changed}` : changed ? `${r.code} but changed` : r.code;
}
