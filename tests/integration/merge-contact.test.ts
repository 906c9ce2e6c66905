import { describe, expect, test } from "vitest";
import { withService } from "@/lib/db/doors";
import { mergeContact, type MergeContactInput } from "@/lib/contacts/merge-contact";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace } from "../helpers/factories";
import { milestone, waitFor, waitsOnLock } from "../helpers/wait-for";

const db = setupTestDatabase();

const merge = (input: Omit<MergeContactInput, "via"> & { via?: string }) =>
  withService((tx) => mergeContact(tx, { via: "form submission", ...input }));

async function notesOf(contactId: string) {
  return db.sql`select content, content_text, created_by, type from notes where contact_id = ${contactId} order by created_at`;
}

describe("merge-contact", () => {
  test("a new contact is created with the given source and no audit note", async () => {
    const ws = await createWorkspace(db.sql);
    const result = await merge({
      workspaceId: ws.id,
      email: "  New.Person@Example.test ",
      fields: { first_name: "New", phone: "2025550143" },
      source: "form",
      mode: "overwrite",
    });
    expect(result.created).toBe(true);
    const [row] = await db.sql`select * from contacts where id = ${result.contact.id}`;
    expect(row).toMatchObject({
      email: "new.person@example.test",
      first_name: "New",
      source: "form",
      created_by: null,
    });
    expect(await notesOf(row.id)).toHaveLength(0);
  });

  test("4.2.2 B.1: never overwrites an existing first name, last name or phone; fills empty fields", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { first_name: "Ada", last_name: null, phone: "2025550143" });
    const result = await merge({
      workspaceId: ws.id,
      email: c.email,
      fields: { first_name: "Eve", last_name: "Lovelace", phone: "3105550100", city: "London" },
      source: "form",
      mode: "fill_empty",
    });
    expect(result.created).toBe(false);
    const [row] =
      await db.sql`select first_name, last_name, phone, city, source from contacts where id = ${c.id}`;
    expect(row).toEqual({
      first_name: "Ada",
      last_name: "Lovelace",
      phone: "2025550143",
      city: "London",
      source: "manual",
    });
    expect(await notesOf(c.id)).toHaveLength(0);
  });

  test("4.10: changed fields are merged in one update and overwritten values get one escaped system note", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { first_name: "Ada", last_name: "Byron", phone: null });
    await merge({
      workspaceId: ws.id,
      email: c.email,
      fields: { first_name: "<b>Eve</b>", last_name: "Byron", phone: "2025550143" },
      source: "payproc",
      mode: "overwrite",
      via: "payment checkout",
      extra: { is_subscribed: true },
    });
    const [row] =
      await db.sql`select first_name, last_name, phone, is_subscribed, source from contacts where id = ${c.id}`;
    expect(row).toEqual({
      first_name: "<b>Eve</b>",
      last_name: "Byron",
      phone: "2025550143",
      is_subscribed: true,
      source: "manual",
    });
    const notes = await notesOf(c.id);
    expect(notes).toHaveLength(1);
    expect(notes[0].created_by).toBeNull();
    expect(notes[0].type).toBe("contact");
    expect(notes[0].content_text).toContain('First name: "Ada" → "<b>Eve</b>"');
    expect(notes[0].content_text).not.toContain("Phone"); // filling an empty field is not an overwrite
    expect(notes[0].content).toContain("&lt;b&gt;Eve&lt;/b&gt;");
    expect(notes[0].content).not.toContain("<b>Eve</b>");
  });

  test("4.10 step 1: US phone numbers are compared after normalisation", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { phone: "(202) 555-0143" });
    const [before] = await db.sql`select updated_at from contacts where id = ${c.id}`;
    await merge({
      workspaceId: ws.id,
      email: c.email,
      fields: { phone: "+1 202-555-0143" },
      source: "form",
      mode: "overwrite",
    });
    const [row] = await db.sql`select phone, updated_at from contacts where id = ${c.id}`;
    expect(row.phone).toBe("(202) 555-0143");
    expect(row.updated_at).toEqual(before.updated_at);
    expect(await notesOf(c.id)).toHaveLength(0);
  });

  test("extra columns may depend on the stored contact and are skipped when unchanged", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { is_subscribed: true, opt_in_source: "form-1" });
    let seen: unknown;
    await merge({
      workspaceId: ws.id,
      email: c.email,
      fields: {},
      source: "payproc",
      mode: "overwrite",
      extra: (existing) => {
        seen = existing?.opt_in_source;
        return existing?.is_subscribed
          ? {}
          : { is_subscribed: true, opt_in_source: "payproc_auto_subscribe" };
      },
    });
    expect(seen).toBe("form-1");
    const [row] = await db.sql`select opt_in_source from contacts where id = ${c.id}`;
    expect(row.opt_in_source).toBe("form-1");
  });

  test("4.10: historical imports (audit: false) write no note", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { first_name: "Ada" });
    await merge({
      workspaceId: ws.id,
      email: c.email,
      fields: { first_name: "Eve" },
      source: "ticketing",
      mode: "overwrite",
      audit: false,
    });
    expect(await notesOf(c.id)).toHaveLength(0);
  });

  test("4.2.2 B.3: 50 concurrent writers of one new email yield one contact and no error", async () => {
    const ws = await createWorkspace(db.sql);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        merge({
          workspaceId: ws.id,
          email: "race@example.test",
          fields: { first_name: `N${i}` },
          source: "form",
          mode: "fill_empty",
        }),
      ),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const rows =
      await db.sql`select first_name from contacts where workspace_id = ${ws.id} and email = 'race@example.test'`;
    expect(rows).toHaveLength(1);
    expect(new Set(results.map((r) => r.contact.id)).size).toBe(1);
  });
  test.runIf(process.env.TEST_DB === "postgres")(
    "4.2.2 B.3: a writer that waited on a concurrent creation merges into the contact it created",
    async () => {
      const ws = await createWorkspace(db.sql);
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const created = milestone();
      const first = withService(async (tx) => {
        const r = await mergeContact(tx, {
          workspaceId: ws.id,
          email: "waited@example.test",
          fields: { first_name: "Ada" },
          source: "form",
          mode: "fill_empty",
          via: "form submission",
        });
        created.reached();
        await held;
        return r;
      });
      try {
        await Promise.race([created.passed, first]); // the first writer holds its new contact uncommitted
        const second = merge({
          workspaceId: ws.id,
          email: "waited@example.test",
          fields: { first_name: "Other", last_name: "Lovelace" },
          source: "payproc",
          mode: "fill_empty",
        });
        await waitFor(
          () => waitsOnLock(db.sql, "transactionid"),
          "the second writer waits on the unique key",
        );
        release();
        const [a, b] = await Promise.all([first, second]);
        expect(a.created).toBe(true);
        // the second statement's snapshot predates the first's row: it is read again, under a lock
        expect(b).toMatchObject({ created: false, contact: { id: a.contact.id } });
      } finally {
        release();
      }
      const rows = await db.sql`
        select first_name, last_name, source from contacts where workspace_id = ${ws.id} and email = 'waited@example.test'`;
      expect(rows).toEqual([{ first_name: "Ada", last_name: "Lovelace", source: "form" }]);
    },
  );
});
