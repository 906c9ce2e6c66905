import { describe, expect, test } from "vitest";
import { withUser } from "@/lib/db/doors";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createContact, createWorkspace, type TestWorkspace } from "../helpers/factories";
import { as, attempt, createTenants } from "../helpers/rls";
import { insertRow, keyOf, TABLES, type Row } from "../helpers/rows";

const db = setupTestDatabase();

// Spec 2.4.2: dependent records of a contact and what deleting the contact does to them.
const SPEC_2_4_2: Record<string, "cascade" | "set null"> = {
  contact_tags: "cascade",
  notes: "cascade",
  company_contacts: "cascade",
  deals: "set null",
  tasks: "set null",
  appointment_external_attendees: "cascade",
  campaign_enrollments: "cascade",
  event_registrations: "cascade",
  transactions: "set null",
  email_sends: "set null",
  contact_suppressions: "cascade",
  agreement_contacts: "cascade",
};

/** What happened to a dependent row: gone, or kept with contact_id null (or, wrongly, kept as is). */
async function fate(table: string, row: Row): Promise<string> {
  const key = keyOf(table, row);
  const left =
    await db.sql`select contact_id, workspace_id from ${db.sql(table)} t where to_jsonb(t) @> ${db.sql.json(key)}`;
  if (left.length === 0) return "cascade";
  if (left[0].contact_id === null && left[0].workspace_id === row.workspace_id) return "set null";
  return `kept (contact_id ${left[0].contact_id})`;
}

/** One row in every workspace-scoped table (a complaint suppression among them). */
async function populate(ws: TestWorkspace): Promise<void> {
  for (const table of Object.keys(TABLES)) await insertRow(db.sql, table, ws);
  const contact = await createContact(db.sql, ws.id);
  await insertRow(db.sql, "contact_suppressions", ws, { contact_id: contact.id, reason: "complaint" });
  // kept by the database from the contact's values (not in TABLES): a typed custom field value
  const field = await insertRow(db.sql, "custom_fields", ws);
  await db.sql`update contacts set custom_fields = jsonb_build_object(${field.key as string}::text, 'x'::text)
               where id = ${contact.id}`;
  await db.sql`insert into webhook_inbox (provider, event_id, event_type, workspace_id, payload)
               values ('payproc', ${`evt_${ws.id}`}, 'checkout.session.completed', ${ws.id}, '{}')`;
  // one row per workspace, keyed by it (not in TABLES): the two-factor requirement
  await db.sql`insert into workspace_security (workspace_id, require_two_factor) values (${ws.id}, true)`;
  // append-only (no UPDATE, so not in TABLES): its rows go only with their workspace
  await db.sql`insert into audit_log (workspace_id, actor_id, action) values (${ws.id}, ${ws.owner.id}, 'tag.created')`;
  // service-only (no member privilege, so not in TABLES): a key's stored Idempotency-Key answer
  // service-only, one per workspace (not in TABLES): the key that signs its tickets
  await db.sql`insert into event_ticket_keys (workspace_id, public_key, private_key_sealed)
               values (${ws.id}, ${"A".repeat(43)}, ${`v1.${ws.id.slice(0, 8)}.tag.sealed`})`;
  await db.sql`insert into api_idempotency_keys (api_key_id, idempotency_key, workspace_id, fingerprint, status)
               select id, 'k', workspace_id, repeat('a', 64), 201 from api_keys where workspace_id = ${ws.id} limit 1`;
}

const count = async (table: string, workspaceId: string) =>
  (await db.sql`select count(*)::int as n from ${db.sql(table)} where workspace_id = ${workspaceId}`)[0]
    .n as number;

describe("2.4.2 deleting a contact", () => {
  test("2.4.2: each dependent record is cascaded or set null as the spec says (complaint suppression included)", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await addMember(db.sql, ws.id, "member");
    const contact = await createContact(db.sql, ws.id);
    const other = await createContact(db.sql, ws.id);
    const rows: [string, Row][] = [];
    for (const table of Object.keys(SPEC_2_4_2)) {
      rows.push([table, await insertRow(db.sql, table, ws, { contact_id: contact.id })]);
    }
    const complaint = await insertRow(db.sql, "contact_suppressions", ws, {
      contact_id: contact.id,
      reason: "complaint",
    });
    const untouched = await insertRow(db.sql, "deals", ws, { contact_id: other.id });

    await withUser(member.claims, (q) => q`delete from contacts where id = ${contact.id}`);

    const observed: Record<string, string> = {};
    for (const [table, row] of rows) observed[table] = await fate(table, row);
    expect(observed).toEqual(SPEC_2_4_2);
    expect(await fate("contact_suppressions", complaint)).toBe("cascade");
    expect(await db.sql`select id from contacts where id = ${contact.id}`).toHaveLength(0);
    expect(await fate("deals", untouched)).toMatch(/^kept/);
  });
});

describe("deleting a workspace", () => {
  test("2.1-2.9 'cascade on delete': deleting a workspace removes every row of it and nothing of another", async () => {
    const a = await createWorkspace(db.sql);
    await addMember(db.sql, a.id, "member");
    const b = await createWorkspace(db.sql);
    await populate(a);
    await populate(b);
    const tables = (
      await db.sql`select c.relname from pg_attribute a join pg_class c on c.oid = a.attrelid
                   where c.relnamespace = 'public'::regnamespace and c.relkind = 'r'
                     and a.attname = 'workspace_id' and not a.attisdropped order by 1`
    ).map((r) => r.relname as string);
    const counts = async (ws: string) =>
      Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await count(t, ws)])));
    const emptyTables = (c: Record<string, number>) => Object.keys(c).filter((t) => c[t] === 0);
    expect(emptyTables(await counts(a.id)), "tables without a row of A before the delete").toEqual([]);
    const before = await counts(b.id);

    // populate made A require two-factor: its owner acts at aal2 (docs/decisions.md, "The second
    // factor holds at the database")
    await withUser({ ...a.owner.claims, aal: "aal2" }, (q) => q`delete from workspaces where id = ${a.id}`);

    expect(await counts(a.id)).toEqual(Object.fromEntries(tables.map((t) => [t, 0])));
    expect(await counts(b.id)).toEqual(before);
    expect(await db.sql`select id from workspaces where id = ${a.id}`).toHaveLength(0);
  });
});

describe("owners", () => {
  test("the last owner can neither leave, be removed (even by the system) nor be demoted", async () => {
    const t = await createTenants(db.sql);
    const owner = t.a.owner.id;
    const refusals = {
      leave: await attempt(() =>
        as(
          t,
          "owner",
          (q) => q`delete from workspace_members where user_id = ${owner} and workspace_id = ${t.a.id}`,
        ),
      ),
      demoteSelf: await attempt(() =>
        as(
          t,
          "owner",
          (q) =>
            q`update workspace_members set role = 'admin' where user_id = ${owner} and workspace_id = ${t.a.id}`,
        ),
      ),
      systemRemoves: await attempt(() =>
        as(
          t,
          "service",
          (q) => q`delete from workspace_members where user_id = ${owner} and workspace_id = ${t.a.id}`,
        ),
      ),
      systemDemotes: await attempt(() =>
        as(
          t,
          "service",
          (q) =>
            q`update workspace_members set role = 'member' where user_id = ${owner} and workspace_id = ${t.a.id}`,
        ),
      ),
    };
    expect(refusals).toEqual({
      leave: { ok: false, code: "P0001" },
      // roles change only through the service door (docs/decisions.md, "The second factor holds at the
      // database"): the grant refuses a member's direct update; the trigger refuses the system's
      demoteSelf: { ok: false, code: "42501" },
      systemRemoves: { ok: false, code: "P0001" },
      systemDemotes: { ok: false, code: "P0001" },
    });
    const owners =
      await db.sql`select user_id from workspace_members where workspace_id = ${t.a.id} and role = 'owner'`;
    expect(owners.map((r) => r.user_id)).toEqual([owner]);
  });

  test("an owner may leave when another owner remains", async () => {
    const t = await createTenants(db.sql);
    await db.sql`update workspace_members set role = 'owner' where user_id = ${t.admin.id}`;
    await as(
      t,
      "owner",
      (q) => q`delete from workspace_members where user_id = ${t.a.owner.id} and workspace_id = ${t.a.id}`,
    );
    const owners =
      await db.sql`select user_id from workspace_members where workspace_id = ${t.a.id} and role = 'owner'`;
    expect(owners.map((r) => r.user_id)).toEqual([t.admin.id]);
  });

  test("an admin can neither remove nor demote an owner, but removes a member", async () => {
    const t = await createTenants(db.sql);
    const removed = await as(
      t,
      "admin",
      async (q) => (await q`delete from workspace_members where user_id = ${t.a.owner.id}`).count,
    );
    const demoted = await attempt(() =>
      as(
        t,
        "admin",
        async (q) =>
          (await q`update workspace_members set role = 'member' where user_id = ${t.a.owner.id}`).count,
      ),
    );
    const removedMember = await as(
      t,
      "admin",
      async (q) => (await q`delete from workspace_members where user_id = ${t.member.id}`).count,
    );
    expect({ removed, demoted, removedMember }).toEqual({
      removed: 0,
      demoted: { ok: false, code: "42501" },
      removedMember: 1,
    });
    const members =
      await db.sql`select user_id, role from workspace_members where workspace_id = ${t.a.id} order by role`;
    expect(members).toEqual([
      { user_id: t.admin.id, role: "admin" },
      { user_id: t.a.owner.id, role: "owner" },
    ]);
  });
});
