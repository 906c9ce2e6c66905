import { AppError } from "@/lib/errors/app-error";
import { describe, expect, test } from "vitest";
import { createContact } from "@/lib/contacts/create-contact";
import { deleteContact } from "@/lib/contacts/delete-contact";
import { getContactById } from "@/lib/contacts/get-contact-by-id";
import { BIRTHDAY_PAIR_ERROR } from "@/lib/contacts/schemas";
import { DUPLICATE_EMAIL_ERROR } from "@/lib/contacts/types";
import { updateContact } from "@/lib/contacts/update-contact";
import { withService, withUser } from "@/lib/db/doors";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createContact as insertContact, createWorkspace } from "../helpers/factories";

const db = setupTestDatabase();

const countContacts = async (workspaceId: string) =>
  (await db.sql`select count(*)::int as n from contacts where workspace_id = ${workspaceId}`)[0].n;

describe("4.15 createContact", () => {
  test("4.15 createContact: stores every given field with source 'manual' and the creating member", async () => {
    const ws = await createWorkspace(db.sql);
    const result = await withUser(ws.owner.claims, (tx) =>
      createContact(tx, {
        workspaceId: ws.id,
        email: "  Ada@Example.COM ",
        firstName: "Ada",
        lastName: "Lovelace",
        phone: "2025550143",
        addressLine1: "1 Analytical Way",
        city: "London",
        postalCode: "N1",
        country: "UK",
        birthMonth: 12,
        birthDay: 10,
      }),
    );
    expect("data" in result).toBe(true);
    const [row] = await db.sql`select * from contacts where workspace_id = ${ws.id}`;
    expect(row).toMatchObject({
      email: "ada@example.com",
      first_name: "Ada",
      last_name: "Lovelace",
      phone: "2025550143",
      address_line1: "1 Analytical Way",
      address_line2: null,
      city: "London",
      postal_code: "N1",
      country: "UK",
      birth_month: 12,
      birth_day: 10,
      source: "manual",
      is_subscribed: false,
      opt_in_source: null,
      created_by: ws.owner.id,
    });
  });

  test("4.15 createContact: rejects a duplicate email in the workspace (any case) and stores nothing", async () => {
    const ws = await createWorkspace(db.sql);
    await insertContact(db.sql, ws.id, { email: "dup@example.com", first_name: "First" });
    const result = await withUser(ws.owner.claims, (tx) =>
      createContact(tx, { workspaceId: ws.id, email: "DUP@example.com", firstName: "Second" }),
    );
    expect(result).toEqual({
      error: new AppError("contact_exists", DUPLICATE_EMAIL_ERROR, { field: "email" }),
    });
    const rows = await db.sql`select first_name from contacts where workspace_id = ${ws.id}`;
    expect(rows.map((r) => r.first_name)).toEqual(["First"]);
  });

  test("1: the same email may exist as independent contacts in two workspaces", async () => {
    const a = await createWorkspace(db.sql);
    const b = await createWorkspace(db.sql);
    await insertContact(db.sql, a.id, { email: "shared@example.com" });
    const result = await withUser(b.owner.claims, (tx) =>
      createContact(tx, { workspaceId: b.id, email: "shared@example.com" }),
    );
    expect("data" in result).toBe(true);
    expect(await countContacts(b.id)).toBe(1);
  });

  test.each([
    [{ birthMonth: 5 }, BIRTHDAY_PAIR_ERROR],
    [{ birthDay: 5 }, BIRTHDAY_PAIR_ERROR],
    [{ birthMonth: 13, birthDay: 1 }, "Birth month must be a whole number from 1 to 12."],
    [{ birthMonth: 0, birthDay: 1 }, "Birth month must be a whole number from 1 to 12."],
    [{ birthMonth: 1, birthDay: 32 }, "Birth day must be a whole number from 1 to 31."],
    [{ birthMonth: 1, birthDay: 1.5 }, "Birth day must be a whole number from 1 to 31."],
  ])("4.15/8.1 createContact: rejects unpaired or out-of-range birthday %o", async (birthday, message) => {
    const ws = await createWorkspace(db.sql);
    const result = await withUser(ws.owner.claims, (tx) =>
      createContact(tx, { workspaceId: ws.id, email: "bday@example.com", ...birthday }),
    );
    expect(result).toEqual({ error: new AppError("invalid", message) });
    expect(await countContacts(ws.id)).toBe(0);
  });

  test("4.15 createContact: an invalid email is rejected with a clear message", async () => {
    const ws = await createWorkspace(db.sql);
    const result = await withUser(ws.owner.claims, (tx) =>
      createContact(tx, { workspaceId: ws.id, email: "not-an-email" }),
    );
    expect(result).toEqual({ error: new AppError("invalid", "Enter a valid email address.") });
    expect(await countContacts(ws.id)).toBe(0);
  });

  test("4.15 createContact with isSubscribed records consent: 'Manual Consent', time and IP", async () => {
    const ws = await createWorkspace(db.sql);
    const result = await withUser(ws.owner.claims, (tx) =>
      createContact(tx, {
        workspaceId: ws.id,
        email: "yes@example.com",
        isSubscribed: true,
        ip: "203.0.113.9",
      }),
    );
    expect("data" in result).toBe(true);
    const [row] = await db.sql`
      select is_subscribed, opt_in_source, host(opt_in_ip) as ip, opt_in_timestamp from contacts where workspace_id = ${ws.id}`;
    expect(row).toMatchObject({ is_subscribed: true, opt_in_source: "Manual Consent", ip: "203.0.113.9" });
    expect(row.opt_in_timestamp).toBeInstanceOf(Date);
    const events =
      await db.sql`select action, source, actor_user_id from consent_events where workspace_id = ${ws.id}`;
    expect(events).toEqual([{ action: "subscribed", source: "Manual Consent", actor_user_id: ws.owner.id }]);
  });

  test("5.4: a member cannot create a contact in a workspace they do not belong to", async () => {
    const mine = await createWorkspace(db.sql);
    const theirs = await createWorkspace(db.sql);
    await expect(
      withUser(mine.owner.claims, (tx) =>
        createContact(tx, { workspaceId: theirs.id, email: "x@example.com" }),
      ),
    ).rejects.toThrow(/row-level security/);
    expect(await countContacts(theirs.id)).toBe(0);
  });
});

describe("4.15 updateContact", () => {
  test("4.15 updateContact: replaces the editable fields; a blank field is cleared", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await addMember(db.sql, ws.id, "member");
    const c = await insertContact(db.sql, ws.id, { first_name: "Old", phone: "123", city: "Paris" });
    const result = await withUser(member.claims, (tx) =>
      updateContact(tx, { workspaceId: ws.id, contactId: c.id, email: c.email, firstName: "New", city: "" }),
    );
    expect("data" in result).toBe(true);
    const [row] = await db.sql`select first_name, phone, city, updated_by from contacts where id = ${c.id}`;
    expect(row).toEqual({ first_name: "New", phone: null, city: null, updated_by: member.id });
  });

  test("4.15/7 updateContact: an email colliding in the workspace answers the exact 23505 text", async () => {
    const ws = await createWorkspace(db.sql);
    const taken = await insertContact(db.sql, ws.id, { email: "taken@example.com" });
    const c = await insertContact(db.sql, ws.id, { email: "mine@example.com", first_name: "Keep" });
    const result = await withUser(ws.owner.claims, async (tx) => {
      const r = await updateContact(tx, {
        workspaceId: ws.id,
        contactId: c.id,
        email: "Taken@Example.com",
        firstName: "Changed",
      });
      // the transaction is still usable after the caught unique violation
      await tx`select 1`;
      return r;
    });
    expect(result).toEqual({
      error: new AppError("contact_exists", "A contact with this email already exists in this workspace.", {
        field: "email",
      }),
    });
    const rows =
      await db.sql`select id, email, first_name from contacts where workspace_id = ${ws.id} order by email`;
    expect(rows).toEqual([
      { id: c.id, email: "mine@example.com", first_name: "Keep" },
      { id: taken.id, email: "taken@example.com", first_name: null },
    ]);
  });

  test("4.15 updateContact: on email change 'bounce' suppressions are deleted, the others kept", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await insertContact(db.sql, ws.id, { email: "old@example.com" });
    await db.sql`insert into contact_suppressions (contact_id, reason)
      select ${c.id}, r from unnest(array['bounce', 'complaint', 'unsubscribe', 'manual']) r`;
    const result = await withUser(ws.owner.claims, (tx) =>
      updateContact(tx, { workspaceId: ws.id, contactId: c.id, email: "new@example.com" }),
    );
    expect("data" in result).toBe(true);
    const reasons =
      await db.sql`select reason from contact_suppressions where contact_id = ${c.id} order by reason`;
    expect(reasons.map((r) => r.reason)).toEqual(["complaint", "manual", "unsubscribe"]);
  });

  test("4.15 updateContact: keeping the email keeps a 'bounce' suppression", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await insertContact(db.sql, ws.id, { email: "same@example.com" });
    await db.sql`insert into contact_suppressions (contact_id, reason) values (${c.id}, 'bounce')`;
    await withUser(ws.owner.claims, (tx) =>
      updateContact(tx, { workspaceId: ws.id, contactId: c.id, email: "SAME@example.com", firstName: "X" }),
    );
    const reasons = await db.sql`select reason from contact_suppressions where contact_id = ${c.id}`;
    expect(reasons.map((r) => r.reason)).toEqual(["bounce"]);
  });

  test("4.15 updateContact: an unpaired birthday is rejected and nothing changes", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await insertContact(db.sql, ws.id, { first_name: "Same" });
    const result = await withUser(ws.owner.claims, (tx) =>
      updateContact(tx, { workspaceId: ws.id, contactId: c.id, email: c.email, firstName: "X", birthDay: 3 }),
    );
    expect(result).toEqual({ error: new AppError("invalid", BIRTHDAY_PAIR_ERROR) });
    const [row] = await db.sql`select first_name, birth_day from contacts where id = ${c.id}`;
    expect(row).toEqual({ first_name: "Same", birth_day: null });
  });

  test("5.4 updateContact: another workspace's contact is not found and unchanged", async () => {
    const mine = await createWorkspace(db.sql);
    const theirs = await createWorkspace(db.sql);
    const c = await insertContact(db.sql, theirs.id, { first_name: "Theirs" });
    const result = await withUser(mine.owner.claims, (tx) =>
      updateContact(tx, { workspaceId: theirs.id, contactId: c.id, email: c.email, firstName: "Hijack" }),
    );
    expect(result).toEqual({ error: new AppError("not_found", "Contact not found.") });
    const [row] = await db.sql`select first_name from contacts where id = ${c.id}`;
    expect(row.first_name).toBe("Theirs");
  });
});

describe("4.15 getContactById", () => {
  test("4.15 getContactById: the last-modifying profile and, for a manual contact, the creating profile", async () => {
    const ws = await createWorkspace(db.sql);
    const editor = await addMember(db.sql, ws.id, "member");
    await db.sql`update user_profiles set first_name = 'Eddie', last_name = 'Editor' where id = ${editor.id}`;
    await db.sql`update user_profiles set first_name = 'Olive', last_name = 'Owner' where id = ${ws.owner.id}`;
    const created = await withUser(ws.owner.claims, (tx) =>
      createContact(tx, { workspaceId: ws.id, email: "who@example.com" }),
    );
    if (!("data" in created)) throw created.error;
    await withUser(editor.claims, (tx) =>
      updateContact(tx, {
        workspaceId: ws.id,
        contactId: created.data.id,
        email: "who@example.com",
        firstName: "W",
      }),
    );
    await db.sql`insert into contact_suppressions (contact_id, reason) values (${created.data.id}, 'bounce')`;
    const result = await withUser(editor.claims, (tx) =>
      getContactById(tx, { workspaceId: ws.id, contactId: created.data.id }),
    );
    if (!("data" in result)) throw result.error;
    expect(result.data.contact.first_name).toBe("W");
    expect(result.data.lastModifiedBy).toEqual({ first_name: "Eddie", last_name: "Editor" });
    expect(result.data.createdBy).toEqual({ first_name: "Olive", last_name: "Owner" });
    expect(result.data.suppressions.map((s) => s.reason)).toEqual(["bounce"]);
    expect(result.data.emailStatus).toBe("Bounced");
  });

  test("4.15 getContactById: no creating profile for a contact that was not created manually; system edits show no modifier", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await insertContact(db.sql, ws.id, { source: "form", created_by: ws.owner.id });
    await withService((tx) => tx`update contacts set first_name = 'Sys' where id = ${c.id}`);
    const result = await withUser(ws.owner.claims, (tx) =>
      getContactById(tx, { workspaceId: ws.id, contactId: c.id }),
    );
    if (!("data" in result)) throw result.error;
    expect(result.data.createdBy).toBeNull();
    expect(result.data.lastModifiedBy).toBeNull();
  });

  test("5.4 getContactById: another workspace's contact is not found", async () => {
    const mine = await createWorkspace(db.sql);
    const theirs = await createWorkspace(db.sql);
    const c = await insertContact(db.sql, theirs.id);
    const result = await withUser(mine.owner.claims, (tx) =>
      getContactById(tx, { workspaceId: theirs.id, contactId: c.id }),
    );
    expect(result).toEqual({ error: new AppError("not_found", "Contact not found.") });
  });
});

describe("2.4.2 deleting a contact", () => {
  test("2.4.2: dependents cascade or keep their row with contact_id null, as the table says", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await insertContact(db.sql, ws.id);
    const w = ws.id;
    const [tag] = await db.sql`insert into tags (workspace_id, name) values (${w}, 'T') returning id`;
    await db.sql`insert into contact_tags (contact_id, tag_id) values (${c.id}, ${tag.id})`;
    await db.sql`insert into notes (contact_id, content, content_text) values (${c.id}, '<p>n</p>', 'n')`;
    const [co] = await db.sql`insert into companies (workspace_id, name) values (${w}, 'Co') returning id`;
    await db.sql`insert into company_contacts (company_id, contact_id) values (${co.id}, ${c.id})`;
    await db.sql`insert into deals (workspace_id, contact_id, title) values (${w}, ${c.id}, 'Deal')`;
    await db.sql`insert into tasks (workspace_id, contact_id, title) values (${w}, ${c.id}, 'Task')`;
    const [ap] =
      await db.sql`insert into appointments (workspace_id, title) values (${w}, 'Ap') returning id`;
    await db.sql`insert into appointment_external_attendees (appointment_id, contact_id) values (${ap.id}, ${c.id})`;
    const [cp] = await db.sql`insert into campaigns (workspace_id, name) values (${w}, 'Camp') returning id`;
    await db.sql`insert into campaign_enrollments (campaign_id, contact_id) values (${cp.id}, ${c.id})`;
    const [ev] = await db.sql`insert into events (workspace_id, name) values (${w}, 'Ev') returning id`;
    await db.sql`insert into event_registrations (workspace_id, event_id, contact_id) values (${w}, ${ev.id}, ${c.id})`;
    await db.sql`insert into transactions (workspace_id, contact_id, amount_paid) values (${w}, ${c.id}, 10)`;
    await db.sql`insert into email_sends (workspace_id, contact_id, to_email, kind) values (${w}, ${c.id}, ${c.email}, 'marketing')`;
    await db.sql`insert into contact_suppressions (contact_id, reason) values (${c.id}, 'complaint'), (${c.id}, 'bounce')`;
    const [ag] = await db.sql`insert into agreements (workspace_id, title) values (${w}, 'Ag') returning id`;
    await db.sql`insert into agreement_contacts (agreement_id, contact_id) values (${ag.id}, ${c.id})`;

    const result = await withUser(ws.owner.claims, (tx) =>
      deleteContact(tx, { workspaceId: w, contactId: c.id }),
    );
    expect(result).toEqual({ success: true });

    const cascaded = [
      "contact_tags",
      "notes",
      "company_contacts",
      "appointment_external_attendees",
      "campaign_enrollments",
      "event_registrations",
      "contact_suppressions",
      "agreement_contacts",
    ];
    for (const table of cascaded) {
      const [{ n }] = await db.sql`select count(*)::int as n from ${db.sql(table)} where workspace_id = ${w}`;
      expect({ table, n }).toEqual({ table, n: 0 });
    }
    for (const table of ["deals", "tasks", "transactions", "email_sends"]) {
      const rows = await db.sql`select contact_id from ${db.sql(table)} where workspace_id = ${w}`;
      expect({ table, rows }).toEqual({ table, rows: [{ contact_id: null }] });
    }
    expect(await countContacts(w)).toBe(0);
  });

  test("2.4.2: deleting another workspace's contact is refused", async () => {
    const mine = await createWorkspace(db.sql);
    const theirs = await createWorkspace(db.sql);
    const c = await insertContact(db.sql, theirs.id);
    const result = await withUser(mine.owner.claims, (tx) =>
      deleteContact(tx, { workspaceId: theirs.id, contactId: c.id }),
    );
    expect(result).toEqual({ error: new AppError("not_found", "Contact not found.") });
    expect(await countContacts(theirs.id)).toBe(1);
  });
});
