import { describe, expect, test } from "vitest";
import { withService, type Db } from "@/lib/db/doors";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createUser, createWorkspace, unique } from "../helpers/factories";
import { as, attempt, createTenants } from "../helpers/rls";
import { insertRow, TABLES } from "../helpers/rows";

const db = setupTestDatabase();
const PAST = new Date("2000-01-01T00:00:00Z");

const UPDATED_AT_TABLES = [
  "workspaces",
  "user_profiles",
  "contacts",
  "products",
  "tasks",
  "notes",
  "deals",
  "broadcasts",
  "forms",
  "events",
  "event_registrations",
  "ticketing_connections",
  "payproc_connections",
  "campaigns",
  "automations",
  "webhook_endpoints",
  "workspace_security",
  "custom_fields",
  "segments",
  "email_topics",
  "import_mappings",
  "event_ticket_types",
  "plans",
  "subscriptions",
  "memberships",
];

/** A row of `table` whose updated_at lies in the past, and an update of another column. */
async function staleRow(
  table: string,
): Promise<{ id: string; change: Record<string, unknown>; key?: string }> {
  if (table === "workspace_security") {
    const ws = await createWorkspace(db.sql);
    await db.sql`insert into workspace_security (workspace_id, updated_at) values (${ws.id}, ${PAST})`;
    return { id: ws.id, change: { require_two_factor: true }, key: "workspace_id" };
  }
  if (table === "workspaces") {
    const [w] = await db.sql`insert into workspaces (name, updated_at) values ('w', ${PAST}) returning id`;
    return { id: w.id, change: { name: "Changed" } };
  }
  if (table === "user_profiles") {
    const user = await createUser(db.sql);
    await db.sql`delete from user_profiles where id = ${user.id}`;
    await db.sql`insert into user_profiles (id, updated_at) values (${user.id}, ${PAST})`;
    return { id: user.id, change: { first_name: "Changed" } };
  }
  const row = await insertRow(db.sql, table, await createWorkspace(db.sql), { updated_at: PAST });
  return { id: row.id as string, change: TABLES[table].change };
}

describe("triggers and constraints", () => {
  test("updated_at: every table with an updated_at column is in the list below", async () => {
    const rows = await db.sql`
      select c.relname from pg_attribute a join pg_class c on c.oid = a.attrelid
      where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' and a.attname = 'updated_at' order by 1`;
    expect(rows.map((r) => r.relname).sort()).toEqual([...UPDATED_AT_TABLES].sort());
  });

  test.each(UPDATED_AT_TABLES)(
    "updated_at of %s is maintained by the database: an update moves it forward",
    async (table) => {
      const { id, change, key = "id" } = await staleRow(table);
      // a separate transaction (now() is the transaction's start); the caller's own value is ignored
      await withService(
        (q: Db) =>
          q`update ${q(table)} set ${q({ ...change, updated_at: new Date("1999-01-01T00:00:00Z") })} where ${q(key)} = ${id}`,
      );
      const [row] = await db.sql`
      select updated_at > ${PAST} as moved, updated_at > now() - interval '1 minute' as recent
      from ${db.sql(table)} where ${db.sql(key)} = ${id}`;
      expect(row).toEqual({ moved: true, recent: true });
    },
  );

  test("contacts: one BEFORE ROW trigger per write and one AFTER STATEMENT trigger per operation; the topic sync stays deferred to commit", async () => {
    const rows = await db.sql<
      { name: string; timing: string; level: string; events: string[]; deferred: boolean }[]
    >`
      select t.tgname as name,
             case when t.tgtype & 2 <> 0 then 'before' else 'after' end as timing,
             case when t.tgtype & 1 <> 0 then 'row' else 'statement' end as level,
             array_remove(array[case when t.tgtype & 4 <> 0 then 'insert' end,
                                case when t.tgtype & 16 <> 0 then 'update' end,
                                case when t.tgtype & 8 <> 0 then 'delete' end], null) as events,
             t.tginitdeferred as deferred
      from pg_trigger t where t.tgrelid = 'public.contacts'::regclass and not t.tgisinternal
      order by t.tgname`;
    expect(rows).toEqual([
      {
        name: "contacts_after_delete",
        timing: "after",
        level: "statement",
        events: ["delete"],
        deferred: false,
      },
      {
        name: "contacts_after_insert",
        timing: "after",
        level: "statement",
        events: ["insert"],
        deferred: false,
      },
      {
        name: "contacts_after_update",
        timing: "after",
        level: "statement",
        events: ["update"],
        deferred: false,
      },
      { name: "contacts_before_insert", timing: "before", level: "row", events: ["insert"], deferred: false },
      { name: "contacts_before_update", timing: "before", level: "row", events: ["update"], deferred: false },
      {
        name: "contacts_sync_topics_insert",
        timing: "after",
        level: "row",
        events: ["insert"],
        deferred: true,
      },
      {
        name: "contacts_sync_topics_update",
        timing: "after",
        level: "row",
        events: ["update"],
        deferred: true,
      },
    ]);
  });

  test("contacts: the checks run in their stated order, so a member's write breaking two rules fails on the first (stamp, custom fields, consent)", async () => {
    const t = await createTenants(db.sql);
    const refusal = async (statement: Parameters<typeof as>[2]) => {
      try {
        await as(t, "member", statement);
        return null;
      } catch (e) {
        const { code, message } = e as { code?: string; message: string };
        return { code, message };
      }
    };
    // another author (updated_by follows created_by) and a consent column: the stamp's check first
    expect(
      await refusal(
        (q) => q`insert into contacts (workspace_id, email, created_by, is_subscribed)
                 values (${t.a.id}, ${unique("order") + "@example.test"}, ${t.admin.id}, true)`,
      ),
    ).toEqual({ code: "42501", message: "contacts.updated_by is the signed-in member" });
    // an undefined custom field and a consent column: the custom fields' check before the consent rule
    expect(
      await refusal(
        (q) => q`insert into contacts (workspace_id, email, custom_fields, is_subscribed)
                 values (${t.a.id}, ${unique("order") + "@example.test"}, '{"nope": 1}', true)`,
      ),
    ).toEqual({ code: "23514", message: "custom field nope is not defined" });
    // the consent rule alone
    expect(
      await refusal(
        (q) => q`insert into contacts (workspace_id, email, is_subscribed)
                 values (${t.a.id}, ${unique("order") + "@example.test"}, true)`,
      ),
    ).toEqual({ code: "42501", message: "Consent is changed only through the consent flows (spec 3.3)." });
    expect((await db.sql`select count(*)::int as n from contacts where workspace_id = ${t.a.id}`)[0].n).toBe(
      0,
    );
  });

  test("2.4: email is stored trimmed and lowercased, on insert and on update", async () => {
    const ws = await createWorkspace(db.sql);
    const [c] = await withService(
      (q) =>
        q`insert into contacts (workspace_id, email) values (${ws.id}, '  MiXed@Example.TEST ') returning id, email`,
    );
    expect(c.email).toBe("mixed@example.test");
    await withService((q) => q`update contacts set email = ' Other@EXAMPLE.test' where id = ${c.id}`);
    expect((await db.sql`select email from contacts where id = ${c.id}`)[0].email).toBe("other@example.test");
  });

  test("2.4 UNIQUE(workspace_id, email): case and blanks do not make a second contact; another workspace may", async () => {
    const a = await createWorkspace(db.sql);
    const b = await createWorkspace(db.sql);
    await createContact(db.sql, a.id, { email: "dup@example.test" });
    const second = await createContact(db.sql, a.id, { email: "second@example.test" });
    const insert = await attempt(() =>
      withService((q) => q`insert into contacts (workspace_id, email) values (${a.id}, ' DUP@Example.Test')`),
    );
    const update = await attempt(() =>
      withService((q) => q`update contacts set email = 'Dup@EXAMPLE.test ' where id = ${second.id}`),
    );
    expect({ insert, update }).toEqual({
      insert: { ok: false, code: "23505" },
      update: { ok: false, code: "23505" },
    });
    await createContact(db.sql, b.id, { email: "DUP@example.test" });
    const emails =
      await db.sql`select workspace_id, email from contacts where workspace_id in ${db.sql([a.id, b.id])} order by 1, 2`;
    expect(emails.map((r) => `${r.workspace_id === a.id ? "A" : "B"}:${r.email}`).sort()).toEqual([
      "A:dup@example.test",
      "A:second@example.test",
      "B:dup@example.test",
    ]);
  });

  test.each([
    [3, null, "23514"],
    [null, 3, "23514"],
    [0, 1, "23514"],
    [13, 1, "23514"],
    [1, 0, "23514"],
    [1, 32, "23514"],
    [12, 31, "stored"],
    [1, 1, "stored"],
    [null, null, "stored"],
  ])("2.4 birth_month %s / birth_day %s (1-12, 1-31, paired): %s", async (month, day, outcome) => {
    const ws = await createWorkspace(db.sql);
    const email = `${unique("b")}@example.test`;
    const r = await attempt(() =>
      withService(
        (q) =>
          q`insert into contacts (workspace_id, email, birth_month, birth_day) values (${ws.id}, ${email}, ${month}, ${day})`,
      ),
    );
    const stored = (await db.sql`select count(*)::int as n from contacts where email = ${email}`)[0].n;
    expect(
      r.ok ? (stored === 1 ? "stored" : "not stored") : stored === 0 ? r.code : `${r.code} but stored`,
    ).toBe(outcome);
  });

  // [table, column, every allowed value, a wrong value]
  test.each([
    ["contacts", "source", ["manual", "form", "import", "ticketing", "payproc", "event"], "web"],
    ["contact_suppressions", "reason", ["bounce", "complaint", "unsubscribe", "manual"], "spam"],
    ["form_submissions", "submission_type", ["direct", "verified_email", "api_key"], "email"],
    ["transactions", "status", ["succeeded", "refunded"], "pending"],
    ["transactions", "currency", ["usd", "eur"], "USD"],
    ["event_registrations", "status", ["registered", "cancelled"], "attending"],
    ["notes", "type", ["contact", "task"], "memo"],
  ] as const)(
    "2.x %s.%s: the spec's values are accepted, others refused",
    async (table, column, allowed, wrong) => {
      const ws = await createWorkspace(db.sql);
      for (const value of allowed) await insertRow(db.sql, table, ws, { [column]: value });
      const r = await attempt(() => insertRow(db.sql, table, ws, { [column]: wrong }));
      expect(r).toEqual({ ok: false, code: "23514" });
      const stored =
        await db.sql`select ${db.sql(column)} as v from ${db.sql(table)} where workspace_id = ${ws.id}`;
      expect(stored.map((x) => x.v).sort()).toEqual([...allowed].sort());
    },
  );

  // Spec 3.3: "A 'complaint' suppression is never removed by any flow." The database holds
  // the line for the service role too: no update of a complaint row, no deletion while its
  // contact exists. The same statement on a 'bounce' row goes through (the control).
  test.each([
    ["delete it", (q: Db, id: string) => q`delete from contact_suppressions where id = ${id}`, true],
    [
      "change its reason",
      (q: Db, id: string) => q`update contact_suppressions set reason = 'manual' where id = ${id}`,
      true,
    ],
    [
      "change its date",
      (q: Db, id: string) => q`update contact_suppressions set created_at = ${PAST} where id = ${id}`,
      true,
    ],
    [
      "move it to another contact",
      (q: Db, id: string) => q`update contact_suppressions s set contact_id = (
        select c.id from contacts c where c.workspace_id = s.workspace_id and c.id <> s.contact_id limit 1) where id = ${id}`,
      true,
    ],
    [
      "move it to another workspace",
      (q: Db, id: string) => q`update contact_suppressions set workspace_id = (
        select id from workspaces where id <> contact_suppressions.workspace_id limit 1) where id = ${id}`,
      false,
    ],
  ] as const)("3.3 complaint wall: the service role cannot %s", async (_what, statement, controlSucceeds) => {
    const ws = await createWorkspace(db.sql);
    await createWorkspace(db.sql);
    const contact = await createContact(db.sql, ws.id);
    await createContact(db.sql, ws.id);
    const complaint = await insertRow(db.sql, "contact_suppressions", ws, {
      contact_id: contact.id,
      reason: "complaint",
    });
    const bounce = await insertRow(db.sql, "contact_suppressions", ws, {
      contact_id: contact.id,
      reason: "bounce",
    });
    const snapshot = async (id: unknown) =>
      (await db.sql`select to_jsonb(s) as row from contact_suppressions s where id = ${id as string}`)[0]
        ?.row;
    const before = await snapshot(complaint.id);

    const refused = await attempt(() => withService((q) => statement(q, complaint.id as string)));
    expect(refused).toEqual({ ok: false, code: "P0001" });
    expect(await snapshot(complaint.id)).toEqual(before);

    if (controlSucceeds) {
      const control = await attempt(() =>
        withService(async (q) => (await statement(q, bounce.id as string)).count),
      );
      expect(control).toEqual({ ok: true, value: 1 });
    }
  });
});
