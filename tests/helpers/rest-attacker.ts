import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import type postgres from "postgres";
import type { Sql } from "@/lib/db/client";
import { withUser, type Claims, type Db } from "@/lib/db/doors";
import { PRIVILEGE_MANIFEST, type ManifestEntry, type WorkspaceRole } from "@/lib/db/privileges";
import { withAnon } from "./anon";
import { addMember, unique, type TestUser } from "./factories";
import { createTenants, userOf, type Outcome, type Tenants } from "./rls";
import { buildRow, TABLES, type Row } from "./rows";

/** Who calls through Supabase's REST API: an owner, an admin and a member of workspace A, or nobody. */
export type Who = WorkspaceRole | "anon";
export const CALLERS: Who[] = ["owner", "admin", "member", "anon"];
/** Whose row: workspace A's (the callers') or workspace B's (nobody's here). */
export type Side = "A" | "B";
export const SIDES: Side[] = ["A", "B"];
/** The token's authenticator assurance level (Supabase's `aal` claim); none: as a password sign-in's. */
export type Aal = "aal1" | "aal2";
/** One request: read or write one column, insert a row, delete a row. */
export type Action =
  { op: "select"; column: string } | { op: "update"; column: string } | { op: "insert" } | { op: "delete" };

interface Column {
  name: string;
  type: string;
  /** generated (stored) or identity "always": only DEFAULT can be written */
  generated: boolean;
}
interface Table {
  name: string;
  columns: Column[];
  /** the primary key, or every column when there is none */
  key: string[];
  scoped: boolean;
  /** a unique key on workspace_id alone: one row per workspace (a provider connection) */
  single: boolean;
}
/** A committed row the attempts aim at: how to find it, its values as text, its row version. */
interface Target {
  key: Record<string, string>;
  values: Record<string, string | null>;
  xmin: string;
}

/** The tables the harness attacks and the rows it attacks, made once per test file (committed). */
export interface World {
  t: Tenants;
  /** a member of A who is none of the callers: the membership and profile the callers aim at */
  colleague: TestUser;
  tables: Map<string, Table>;
  targets: Map<string, Target>;
  inserts: Map<string, Row>;
  /** rows per (table, side) once everything is made: every attempt is rolled back */
  baseline: Map<string, number>;
}

export function readManifest(): ManifestEntry[] {
  return JSON.parse(readFileSync(PRIVILEGE_MANIFEST, "utf8"));
}

/** Every table in schema public, its columns and key, from the catalog. */
async function readTables(sql: Sql): Promise<Map<string, Table>> {
  const rows = await sql<{ name: string; columns: Column[]; key: string[] | null; single: boolean }[]>`
    select c.relname as name,
           (select jsonb_agg(jsonb_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod),
                   'generated', a.attgenerated <> '' or a.attidentity = 'a') order by a.attnum)
              from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped) as columns,
           (select array_agg(a.attname::text order by k.n)
              from pg_index i, unnest(i.indkey::int2[]) with ordinality k(attnum, n)
              join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum
             where i.indrelid = c.oid and i.indisprimary) as key,
           exists (select 1 from pg_index i
                    where i.indrelid = c.oid and i.indisunique and i.indpred is null
                      and i.indnatts = 1 and i.indkey[0] = (select attnum from pg_attribute
                                                             where attrelid = c.oid and attname = 'workspace_id')) as single
    from pg_class c
    where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p')
    order by 1`;
  return new Map(
    rows.map((r) => [
      r.name,
      {
        name: r.name,
        columns: r.columns,
        key: r.key ?? r.columns.map((c) => c.name),
        scoped: r.columns.some((c) => c.name === "workspace_id"),
        single: r.single,
      },
    ]),
  );
}

const hex64 = () => randomBytes(32).toString("hex");

/**
 * Rows of the tables rows.ts does not describe (they are not plain workspace data): the row
 * an insert attempt sends, in workspace `ws`.
 */
const EXTRA: Record<string, (ws: string) => Row> = {
  workspaces: () => ({ name: unique("ws") }),
  account_tokens: () => ({
    purpose: "sign_up",
    email: `${unique("t")}@example.test`,
    token_hash: hex64(),
    expires_at: new Date(Date.now() + 86_400_000),
  }),
  rate_limit_hits: () => ({ key: unique("rl") }),
  // the sending pacer's row of a Resend key (no workspace: the team's rate is shared by all of them)
  provider_pacers: () => ({ id: `resend:${hex64().slice(0, 16)}` }),
  audit_log: (ws) => ({ workspace_id: ws, action: "contact.updated" }),
  contact_counts: (ws) => ({ workspace_id: ws, source: unique("src"), shard: 0, n: 1 }),
  contact_daily_counts: (ws) => ({
    workspace_id: ws,
    day: "2000-01-01",
    source: unique("src"),
    shard: 0,
    n: 1,
  }),
  contact_status_counts: (ws) => ({ workspace_id: ws, status: "unsubscribed", shard: 7, n: 1 }),
  workspace_security: (ws) => ({ workspace_id: ws }),
  // a workspace's ticket key (service only): one per workspace
  event_ticket_keys: (ws) => ({
    workspace_id: ws,
    public_key: "A".repeat(43),
    private_key_sealed: `v1.${hex64().slice(0, 16)}.tag.sealed`,
  }),
  address_suppressions: (ws) => ({ workspace_id: ws, address_hash: hex64(), reason: "complaint" }),
  webhook_inbox: (ws) => ({
    workspace_id: ws,
    provider: "email",
    event_id: unique("evt"),
    event_type: "email.delivered",
    payload: {},
  }),
};

/**
 * What a caller's own request carries: PostgREST sends what the client writes, and the policies
 * of these tables require the caller's own id (or address) in these columns.
 */
function own(table: string, user: TestUser | null): Row {
  if (!user) return {};
  const mine: Record<string, Row> = {
    notification_reads: { user_id: user.id },
    consent_events: { actor_user_id: user.id },
    audit_log: { actor_id: user.id, actor_email: user.email },
    workspace_invitations: { invited_by: user.id },
  };
  return mine[table] ?? {};
}

const sideWs = (w: World, side: Side) => (side === "A" ? w.t.a.id : w.t.b.id);
const slot = (table: string, side: Side, who?: Who) => `${table} ${side}${who ? ` ${who}` : ""}`;

/**
 * The rows every attempt aims at, in A and in B, committed once (as superuser). With
 * `requireTwoFactor`, workspace A requires two-factor (its workspace_security row says so).
 */
export async function buildWorld(sql: Sql, options: { requireTwoFactor?: boolean } = {}): Promise<World> {
  const t = await createTenants(sql);
  const colleague = await addMember(sql, t.a.id, "member");
  const w: World = {
    t,
    colleague,
    tables: await readTables(sql),
    targets: new Map(),
    inserts: new Map(),
    baseline: new Map(),
  };
  const newRow = async (table: string, side: Side): Promise<Row> => {
    const ws = sideWs(w, side);
    if (table in TABLES) return buildRow(sql, table, side === "A" ? t.a : t.b);
    if (table === "user_profiles" || table === "workspace_members") {
      // a person with no profile and no membership yet
      const [u] =
        await sql`insert into auth.users (email) values (${`${unique("new")}@example.test`}) returning id, email`;
      return table === "user_profiles"
        ? { id: u.id, email: u.email }
        : { workspace_id: ws, user_id: u.id, role: "member" };
    }
    if (table === "user_two_factor" || table === "user_recovery_codes") {
      // a person's second factor: rows of an account, not of a workspace
      const [u] =
        await sql`insert into auth.users (email) values (${`${unique("mfa")}@example.test`}) returning id`;
      return table === "user_two_factor"
        ? { user_id: u.id, secret_sealed: "sealed" }
        : { user_id: u.id, code_digest: hex64() };
    }
    if (table === "api_idempotency_keys" || table === "api_rate_limits") {
      // the REST API's own bookkeeping for a key of this workspace (service only)
      const [k] = await sql`
        insert into api_keys (workspace_id, name, key_hash, scopes)
        values (${ws}, 'Key', ${hex64()}, '{contacts:read}') returning id`;
      return table === "api_rate_limits"
        ? { api_key_id: k.id, window_start: new Date(), hits: 1 }
        : { api_key_id: k.id, workspace_id: ws, idempotency_key: unique("idem"), fingerprint: hex64() };
    }
    if (table === "contact_field_values") {
      // a typed custom field value of a contact of this workspace, as the database's trigger writes
      // it from contacts.custom_fields (docs/decisions.md, "Custom fields")
      const [c] =
        await sql`insert into contacts (workspace_id, email) values (${ws}, ${`${unique("cfv")}@example.test`}) returning id`;
      const [f] = await sql`insert into custom_fields (workspace_id, key, label, field_type)
        values (${ws}, ${`f_${hex64().slice(0, 8)}`}, 'Field', 'text') returning id`;
      return { workspace_id: ws, contact_id: c.id, field_id: f.id, value_text: "x" };
    }
    if (table === "email_send_secrets") {
      // the whole copy of an outbox email of this workspace
      const [mail] = await sql`
        insert into email_sends (workspace_id, to_email, kind, subject, status, provider)
        values (${ws}, ${`${unique("to")}@example.test`}, 'transactional', 'S', 'outbox', 'outbox') returning id`;
      return { email_send_id: mail.id, text_body: "token=secret" };
    }
    if (!EXTRA[table])
      throw new Error(
        `No row shape for table ${table}: add one to TABLES (tests/helpers/rows.ts) or EXTRA here.`,
      );
    if (table === "workspace_security" && side === "A" && options.requireTwoFactor)
      return { ...EXTRA[table](ws), require_two_factor: true };
    return EXTRA[table](ws);
  };
  const target = async (table: string, side: Side, who: Who | undefined, ctid: string) => {
    const info = w.tables.get(table)!;
    const texts = info.columns.map((c) => sql`${sql(c.name)}::text as ${sql(c.name)}`);
    const [values] = await sql`
      select ${texts.reduce((all, one) => sql`${all}, ${one}`)}, xmin::text as "xmin()"
      from ${sql(table)} where ctid = ${ctid}::tid`;
    const { ["xmin()"]: xmin, ...row } = values;
    w.targets.set(slot(table, side, who), {
      key: Object.fromEntries(info.key.map((k) => [k, row[k] as string])),
      values: row as Record<string, string | null>,
      xmin: xmin as string,
    });
  };
  const insert = async (table: string, row: Row) =>
    (await sql`insert into ${sql(table)} ${sql(row)} returning ctid::text as ctid`)[0].ctid as string;
  const find = async (table: string, where: Row) =>
    (
      await sql`select ctid::text as ctid from ${sql(table)} where ${Object.entries(where)
        .map(([k, v]) => sql`${sql(k)} = ${v as string}`)
        .reduce((all, one) => sql`${all} and ${one}`)}`
    )[0].ctid as string;
  for (const table of w.tables.keys()) {
    for (const side of SIDES) {
      w.inserts.set(slot(table, side), await newRow(table, side));
      const ws = sideWs(w, side);
      const someone = side === "A" ? colleague.id : t.b.owner.id;
      if (table === "workspaces") await target(table, side, undefined, await find(table, { id: ws }));
      else if (table === "user_profiles")
        await target(table, side, undefined, await find(table, { id: someone }));
      else if (table === "workspace_members")
        await target(table, side, undefined, await find(table, { workspace_id: ws, user_id: someone }));
      else if (table === "privacy_salts") {
        // one per workspace, made by its first suppression (address_suppressions) or here
        await sql`select public.ensure_privacy_salt(${ws})`;
        await target(table, side, undefined, await find(table, { workspace_id: ws }));
      } else if (table === "notification_reads") {
        // personal rows: each caller aims at their own (anon at the owner's); B's is its owner's
        const mine: [Who | undefined, TestUser][] =
          side === "A"
            ? [
                ["owner", t.a.owner],
                ["admin", t.admin],
                ["member", t.member],
                ["anon", t.a.owner],
              ]
            : [[undefined, t.b.owner]];
        for (const [who, user] of mine) {
          const ctid =
            who === "anon"
              ? await find(table, { workspace_id: ws, user_id: user.id })
              : await insert(table, { ...(await newRow(table, side)), user_id: user.id });
          await target(table, side, who, ctid);
        }
      } else await target(table, side, undefined, await insert(table, await newRow(table, side)));
    }
  }
  for (const table of w.tables.keys())
    for (const side of SIDES) w.baseline.set(slot(table, side), await count(sql, w, table, side));
  return w;
}

async function count(q: Sql | Db, w: World, table: string, side: Side): Promise<number> {
  const scoped = w.tables.get(table)!.scoped;
  const [{ n }] = scoped
    ? await q`select count(*)::int as n from ${q(table)} where workspace_id = ${sideWs(w, side)}`
    : await q`select count(*)::int as n from ${q(table)}`;
  return n as number;
}

function targetOf(w: World, table: string, side: Side, who: Who): Target {
  const found = w.targets.get(slot(table, side, who)) ?? w.targets.get(slot(table, side));
  if (!found) throw new Error(`no ${side} row of ${table} for ${who}`);
  return found;
}

class Observed extends Error {
  constructor(readonly outcome: Outcome) {
    super(outcome);
  }
}

/**
 * Makes one request as PostgREST would for `who` (role authenticated with the caller's JWT
 * claims through withUser, or role anon), in a transaction of its own; then, in the same
 * transaction and as the superuser, reads what it did; then rolls everything back. Returns
 * 'allowed' (read / stored / changed / removed), '0 rows' (no error, nothing touched), the
 * SQLSTATE when it failed and nothing changed, or what happened verbatim when the error and
 * the database disagree. `aal` sets the token's assurance level (none: as the test users' claims).
 */
export async function observeRequest(
  w: World,
  table: string,
  action: Action,
  who: Who,
  side: Side,
  aal?: Aal,
): Promise<Outcome> {
  const user = who === "anon" ? null : userOf(w.t, who)!;
  const claims = user ? { ...user.claims, ...(aal ? { aal } : {}) } : null;
  const door = <T>(fn: (db: Db) => Promise<T>) => (claims ? withUser(claims, fn) : withAnon(fn));
  const info = w.tables.get(table)!;
  try {
    await door(async (db) => {
      const outcome = await request(db, w, info, action, who, side, user, claims);
      throw new Observed(outcome);
    });
  } catch (e) {
    if (e instanceof Observed) return e.outcome;
    throw e;
  }
  throw new Error("unreachable");
}

async function request(
  db: Db,
  w: World,
  info: Table,
  action: Action,
  who: Who,
  side: Side,
  user: TestUser | null,
  claims: Claims | null,
): Promise<Outcome> {
  const table = info.name;
  const target = action.op === "insert" ? null : targetOf(w, table, side, who);
  const match = () =>
    Object.entries(target!.key)
      .map(([column, value]) => db`t.${db(column)}::text = ${value}`)
      .reduce((all, one) => db`${all} and ${one}`);
  const version = () => db`select xmin::text as xmin from ${db(table)} t where ${match()}`;
  const counted = () =>
    info.scoped
      ? db`select count(*)::int as n from ${db(table)} where workspace_id = ${sideWs(w, side)}`
      : db`select count(*)::int as n from ${db(table)}`;
  const run = () => statement(db, w, info, action, side, user, target, match);
  if (action.op === "insert" && info.single) {
    // one row per workspace: the request comes before the workspace has one (connecting for the
    // first time); the superuser removes it, then the request's identity is set again
    await Promise.all([
      db`reset role`.execute(),
      db`delete from ${db(table)} where workspace_id = ${sideWs(w, side)}`.execute(),
      db`select set_config('role', ${claims ? "authenticated" : "anon"}, true), set_config('request.jwt.claims', ${claims ? JSON.stringify(claims) : ""}, true)`.execute(),
    ]);
  }
  if (action.op === "select") {
    const [r] = await inSavepoint(db, run);
    if (!r.ok) return r.code;
    return r.value.length === 1 ? "allowed" : r.value.length === 0 ? "0 rows" : `${r.value.length} rows`;
  }
  // the request, then (in the same write) back to the superuser to read what it did
  const [r, after] = await inSavepoint(db, run, action.op === "insert" ? counted : version);
  if (action.op === "insert") {
    const before = w.baseline.get(slot(table, side))! - (info.single ? 1 : 0);
    const added = (after![0].n as number) - before;
    if (r.ok) return added === 1 ? "allowed" : `inserted, ${added} stored`;
    return added === 0 ? r.code : `${r.code} but ${added} stored`;
  }
  const now = after![0]?.xmin as string | undefined;
  if (action.op === "delete") {
    const gone = now === undefined;
    if (r.ok && r.value.count === 1 && gone) return "allowed";
    if (r.ok && r.value.count === 0 && !gone) return "0 rows";
    return r.ok ? `deleted ${r.value.count}, gone ${gone}` : gone ? `${r.code} but deleted` : r.code;
  }
  const changed = now !== target!.xmin;
  if (r.ok && r.value.count === 1 && changed) return "allowed";
  if (r.ok && r.value.count === 0 && !changed) return "0 rows";
  return r.ok ? `updated ${r.value.count}, changed ${changed}` : changed ? `${r.code} but changed` : r.code;
}

/** The statement PostgREST makes for the request (GET, PATCH, POST, DELETE with an eq filter on the key). */
function statement(
  db: Db,
  w: World,
  info: Table,
  action: Action,
  side: Side,
  user: TestUser | null,
  target: Target | null,
  match: () => postgres.PendingQuery<postgres.Row[]>,
) {
  const table = info.name;
  if (action.op === "insert")
    return db`insert into ${db(table)} ${db({ ...w.inserts.get(slot(table, side))!, ...own(table, user) })}`;
  if (action.op === "select") return db`select t.${db(action.column)} from ${db(table)} t where ${match()}`;
  if (action.op === "delete") return db`delete from ${db(table)} t where ${match()}`;
  const column = info.columns.find((c) => c.name === action.column)!;
  const value = moveValue(w, info, column, side, target!);
  return db`update ${db(table)} t set ${db(column.name)} = ${value === DEFAULT ? db`default` : db`${value}::text::${db.unsafe(column.type)}`} where ${match()}`;
}

type Rows = postgres.RowList<postgres.Row[]>;

/**
 * SAVEPOINT and the statement leave in one write (postgres.js pipelines what is issued in one
 * tick, and withUser sends BEGIN and the identity in the same write); then, in one more
 * write, a failed statement is rolled back to the savepoint, the role is reset to the session's
 * superuser and `after` reads what the request did. Returns the request's rows or SQLSTATE, and
 * what `after` read.
 */
async function inSavepoint(
  db: Db,
  run: () => postgres.PendingQuery<postgres.Row[]>,
  after?: () => postgres.PendingQuery<postgres.Row[]>,
): Promise<[{ ok: true; value: Rows } | { ok: false; code: string }, Rows | undefined]> {
  const [, done] = await Promise.allSettled([db`savepoint attempt`.execute(), run().execute()]);
  const failed = done.status === "rejected";
  const code = failed ? (done.reason as { code?: string }).code : undefined;
  if (failed && !code) throw done.reason;
  const read =
    failed || after
      ? await Promise.all([
          ...(failed ? [db`rollback to savepoint attempt`.execute()] : []),
          ...(after ? [db`reset role`.execute(), after().execute()] : []),
        ])
      : [];
  const r =
    done.status === "fulfilled"
      ? { ok: true as const, value: done.value }
      : { ok: false as const, code: code! };
  return [r, after ? read.at(-1) : undefined];
}

const DEFAULT = Symbol("default");

/**
 * The value an update writes: the row's own value (the request is about the right to write the
 * column, not about a valid new value), DEFAULT where nothing else may be written, and for
 * workspace_id the other workspace's id: moving a row out of its workspace.
 */
function moveValue(
  w: World,
  info: Table,
  column: Column,
  side: Side,
  target: Target,
): string | null | typeof DEFAULT {
  if (column.generated) return DEFAULT;
  if (column.name === "workspace_id" && info.scoped) return sideWs(w, side === "A" ? "B" : "A");
  return target.values[column.name];
}

/** Whether `role` (or PUBLIC) holds `privilege` on `column` of public.`table`, per the manifest. */
export function holds(
  manifest: ManifestEntry[],
  role: "anon" | "authenticated",
  table: string,
  privilege: string,
  column: string,
): boolean {
  return manifest.some(
    (e) =>
      (e.role === role || e.role === "PUBLIC") &&
      e.object === `public.${table}` &&
      e.privilege.replace(/ WITH GRANT OPTION$/, "") === privilege &&
      (e.kind === "table" || (e.kind === "column" && e.columns!.includes(column))),
  );
}

/** The workspace roles the policies admit for `privilege` on `table`, per the manifest. */
export function admitted(manifest: ManifestEntry[], table: string, privilege: string): WorkspaceRole[] {
  return manifest
    .filter(
      (e) =>
        e.role === "authenticated" &&
        e.object === `public.${table}` &&
        (e.kind === "table" || e.kind === "column") &&
        e.privilege.replace(/ WITH GRANT OPTION$/, "") === privilege,
    )
    .flatMap((e) => e.admits ?? []);
}

/**
 * The outcome the manifest promises. The privileges the statement needs (the column it reads
 * or writes, every column an insert sends, SELECT on the key it filters by) are checked first:
 * without them, 42501 and nothing changes. With them, a caller the policies admit succeeds on
 * A's row; anyone else (anon has no policy at all, and B's rows are nobody's here) reads,
 * changes and removes 0 rows, and an insert fails with 42501. Moving a row to the other
 * workspace fails the policies' WITH CHECK: 42501.
 */
export function expected(
  manifest: ManifestEntry[],
  w: World,
  table: string,
  action: Action,
  who: Who,
  side: Side,
): Outcome {
  const info = w.tables.get(table)!;
  const role = who === "anon" ? "anon" : "authenticated";
  const privilege = action.op.toUpperCase();
  const needs: (readonly [string, string])[] =
    action.op === "insert"
      ? Object.keys({ ...w.inserts.get(slot(table, side))!, ...own(table, userOf(w.t, who)) }).map((c) => [
          "INSERT",
          c,
        ])
      : [
          action.op === "delete" ? ["DELETE", info.key[0]] : [privilege, action.column],
          ...info.key.map((k) => ["SELECT", k] as const),
        ];
  if (!needs.every(([p, c]) => holds(manifest, role, table, p, c))) return "42501";
  const admits = who !== "anon" && side === "A" && admitted(manifest, table, privilege).includes(who);
  if (!admits) return action.op === "insert" ? "42501" : "0 rows";
  if (action.op === "update" && action.column === "workspace_id" && info.scoped) return "42501";
  return "allowed";
}
