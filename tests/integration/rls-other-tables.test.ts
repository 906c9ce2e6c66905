import { describe, expect, test } from "vitest";
import type { Db } from "@/lib/db/doors";
import { setupTestDatabase } from "../helpers/db";
import { createUser } from "../helpers/factories";
import { as, attempt, createTenants, observe, type Caller, type Op, type Outcome } from "../helpers/rls";

const db = setupTestDatabase();

// Tables spec 5.4 does not list: "every table is limited to the rows of the caller's
// workspaces" (5.4), members work with their workspace's records, settings-like tables are
// Admin+ for writes, system tables are written by the system only (docs/decisions.md).
type Rule = "members" | "admins" | "none";
const MEMBERS: Record<Op, Rule> = {
  select: "members",
  insert: "members",
  update: "members",
  delete: "members",
};
const SETTINGS: Record<Op, Rule> = {
  select: "members",
  insert: "admins",
  update: "admins",
  delete: "admins",
};
const READ_ONLY: Record<Op, Rule> = { select: "members", insert: "none", update: "none", delete: "none" };

const MEMBER_TABLES = [
  "tags",
  "contact_tags",
  "products",
  "tasks",
  "notes",
  "companies",
  "company_contacts",
  "deals",
  "deal_payments",
  "appointments",
  "appointment_external_attendees",
  "agreements",
  "agreement_contacts",
  "campaigns",
  "campaign_enrollments",
  "import_mappings",
];
const RULES: Record<string, { ops: Record<Op, Rule>; callers: Caller[] }> = {
  ...Object.fromEntries(
    MEMBER_TABLES.map((t) => [t, { ops: MEMBERS, callers: ["member", "outsider"] as Caller[] }]),
  ),
  // the account id and live mode come only from Stripe Connect, through the service door: no
  // member inserts the row; admins update the one setting they choose (auto_subscribe_purchasers)
  payproc_connections: {
    ops: { ...SETTINGS, insert: "none" },
    callers: ["owner", "admin", "member", "outsider"],
  },
  // broadcasts are written through the service door after the member check (docs/decisions.md,
  // "The database is the boundary"): members read them, no direct write skips the composer
  broadcasts: { ops: READ_ONLY, callers: ["owner", "member", "outsider"] },
  // outgoing email is written by the system only: members read the log
  email_sends: { ops: READ_ONLY, callers: ["owner", "member", "outsider"] },
  // engagement events come from the provider's webhook and the consent ledger: members read them
  email_events: { ops: READ_ONLY, callers: ["owner", "member", "outsider"] },
  // each send's first events, kept by the database from email_events
  email_send_stats: { ops: READ_ONLY, callers: ["owner", "member", "outsider"] },
  // keys are issued and revoked through the service door after the role check: members list them
  api_keys: { ops: READ_ONLY, callers: ["owner", "admin", "member", "outsider"] },
  automations: { ops: SETTINGS, callers: ["owner", "admin", "member", "outsider"] },
  automation_runs: { ops: READ_ONLY, callers: ["owner", "member", "outsider"] },
  notifications: { ops: READ_ONLY, callers: ["owner", "member", "outsider"] },
  // background CSV imports are written by the upload route and the worker only
  contact_imports: { ops: READ_ONLY, callers: ["owner", "member", "outsider"] },
  // consent_events is an append-only ledger written by the consent door only (docs/decisions.md,
  // "The database is the boundary"): members read it
  consent_events: { ops: READ_ONLY, callers: ["owner", "member", "outsider"] },
  // notification_reads: each member marks notifications read for themself; no edits
  notification_reads: { ops: { ...MEMBERS, update: "none" }, callers: ["member", "outsider"] },
  // "not a duplicate" marks: members add and remove (undo) them as themselves; nobody edits one
  duplicate_dismissals: { ops: { ...MEMBERS, update: "none" }, callers: ["member", "outsider"] },
};

function expected(rule: Rule, op: Op, caller: Caller): Outcome {
  const permitted =
    (rule === "members" && caller !== "outsider") ||
    (rule === "admins" && (caller === "owner" || caller === "admin"));
  if (permitted) return "allowed";
  return op === "insert" || rule === "none" ? "42501" : "0 rows";
}

const rows = Object.entries(RULES).flatMap(([table, { ops, callers }]) =>
  (Object.entries(ops) as [Op, Rule][]).flatMap(([op, rule]) =>
    callers.map((caller) => [table, op.toUpperCase(), caller, expected(rule, op, caller), op] as const),
  ),
);

describe("access to the tables spec 5.4 does not list", () => {
  test.each(rows)("5.4 (other tables) %s %s by %s: %s", async (table, _OP, caller, outcome, op) => {
    const t = await createTenants(db.sql);
    expect(await observe(db.sql, t, table, op, caller)).toBe(outcome);
  });

  test("5.4 workspaces: members read theirs, Admin+ rename, owners delete, nobody else; no one creates one directly", async () => {
    const t = await createTenants(db.sql);
    const rename = (caller: Caller) =>
      attempt(() =>
        as(
          t,
          caller,
          async (q) => (await q`update workspaces set name = ${caller} where id = ${t.a.id}`).count,
        ),
      );
    const remove = (caller: Caller) =>
      attempt(() => as(t, caller, async (q) => (await q`delete from workspaces where id = ${t.a.id}`).count));
    const seen = (caller: Caller) =>
      as(t, caller, async (q) => (await q`select id from workspaces`).map((r) => r.id));

    expect(await seen("member")).toEqual([t.a.id]);
    expect(await seen("outsider")).toEqual([t.b.id]);
    expect(await rename("outsider")).toEqual({ ok: true, value: 0 });
    expect(await rename("member")).toEqual({ ok: true, value: 0 });
    expect(await rename("admin")).toEqual({ ok: true, value: 1 });
    expect(await remove("outsider")).toEqual({ ok: true, value: 0 });
    expect(await remove("admin")).toEqual({ ok: true, value: 0 });
    expect((await db.sql`select name from workspaces where id = ${t.a.id}`)[0].name).toBe("admin");
    expect(
      await attempt(() => as(t, "owner", (q) => q`insert into workspaces (name) values ('mine')`)),
    ).toEqual({ ok: false, code: "42501" });
    expect(await remove("owner")).toEqual({ ok: true, value: 1 });
    expect(await db.sql`select id from workspaces where id = ${t.a.id}`).toHaveLength(0);
  });

  test("5.4 workspace_members: a member of B can neither see nor change A's memberships, nor join A", async () => {
    const t = await createTenants(db.sql);
    const out = (fn: Parameters<typeof as>[2]) => attempt(() => as(t, "outsider", fn));
    expect(
      await out(async (q) => (await q`select 1 from workspace_members where workspace_id = ${t.a.id}`).count),
    ).toEqual({ ok: true, value: 0 });
    expect(
      await out(
        (q) =>
          q`insert into workspace_members (workspace_id, user_id, role) values (${t.a.id}, ${t.b.owner.id}, 'member')`,
      ),
    ).toEqual({ ok: false, code: "42501" });
    // roles are changed only through the service door (docs/decisions.md, "The second factor holds at
    // the database"): no member holds UPDATE on workspace_members
    expect(
      await out(
        async (q) =>
          (await q`update workspace_members set role = 'admin' where user_id = ${t.member.id}`).count,
      ),
    ).toEqual({ ok: false, code: "42501" });
    expect(
      await out(async (q) => (await q`delete from workspace_members where user_id = ${t.member.id}`).count),
    ).toEqual({ ok: true, value: 0 });
    const members =
      await db.sql`select user_id, role from workspace_members where workspace_id = ${t.a.id} order by role`;
    expect(members).toEqual([
      { user_id: t.admin.id, role: "admin" },
      { user_id: t.member.id, role: "member" },
      { user_id: t.a.owner.id, role: "owner" },
    ]);
  });

  test("5.4 workspace_members: a member cannot promote themself; an admin makes no owners; nobody inserts a membership (invitations only)", async () => {
    const t = await createTenants(db.sql);
    expect(
      await attempt(() =>
        as(
          t,
          "member",
          async (q) =>
            (await q`update workspace_members set role = 'admin' where user_id = ${t.member.id}`).count,
        ),
      ),
    ).toEqual({ ok: false, code: "42501" });
    const newcomer = await createUser(db.sql);
    const insert = await attempt(() =>
      as(
        t,
        "admin",
        (q) =>
          q`insert into workspace_members (workspace_id, user_id, role) values (${t.a.id}, ${newcomer.id}, 'member')`,
      ),
    );
    expect(insert).toEqual({ ok: false, code: "42501" });
    const promote = await attempt(() =>
      as(t, "admin", (q) => q`update workspace_members set role = 'owner' where user_id = ${t.member.id}`),
    );
    expect(promote).toEqual({ ok: false, code: "42501" });
    const roles =
      await db.sql`select user_id, role from workspace_members where user_id in ${db.sql([t.member.id, newcomer.id])} order by role`;
    expect(roles).toEqual([{ user_id: t.member.id, role: "member" }]);
  });

  test("5.4 user_profiles: members of a workspace see each other; a member of B neither reads nor writes A's profiles", async () => {
    const t = await createTenants(db.sql);
    const profile = (caller: Caller) =>
      as(t, caller, async (q) => (await q`select id from user_profiles where id = ${t.member.id}`).count);
    expect(await profile("owner")).toBe(1);
    expect(await profile("outsider")).toBe(0);
    expect(
      await as(
        t,
        "outsider",
        async (q) => (await q`update user_profiles set first_name = 'X' where id = ${t.member.id}`).count,
      ),
    ).toBe(0);
    const stranger = await db.sql`insert into auth.users (email) values ('nobody@example.test') returning id`;
    const insert = await attempt(() =>
      as(t, "outsider", (q) => q`insert into user_profiles (id) values (${stranger[0].id})`),
    );
    expect(insert).toEqual({ ok: false, code: "42501" });
    expect((await db.sql`select first_name from user_profiles where id = ${t.member.id}`)[0].first_name).toBe(
      "Test",
    );
    expect(await db.sql`select 1 from user_profiles where id = ${stranger[0].id}`).toHaveLength(0);
  });

  test.each([
    ["rate_limit_hits", "key"],
    ["webhook_inbox", "status"],
  ])("system table %s: no signed-in caller may read or write it", async (table, column) => {
    const t = await createTenants(db.sql);
    const statements: Record<Op, (q: Db) => Promise<unknown>> = {
      select: (q) => q`select * from ${q(table)}`,
      insert: (q) => q`insert into ${q(table)} default values`,
      update: (q) => q`update ${q(table)} set ${q(column)} = ${q(column)}`,
      delete: (q) => q`delete from ${q(table)}`,
    };
    for (const [op, run] of Object.entries(statements)) {
      expect(await attempt(() => as(t, "owner", run)), op).toEqual({ ok: false, code: "42501" });
    }
  });
});
