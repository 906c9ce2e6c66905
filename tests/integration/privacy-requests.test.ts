import { strFromU8, unzipSync } from "fflate";
import { describe, expect, test } from "vitest";
import { importContactsCsv } from "@/lib/contacts/import-contacts-csv";
import { withService, withUser } from "@/lib/db/doors";
import { eraseContact } from "@/lib/privacy/erase-contact";
import { exportArchive } from "@/lib/privacy/export-archive";
import { exportContactData } from "@/lib/privacy/export-contact-data";
import { checkoutSessionCompleted } from "@/lib/payments/checkout-session-completed";
import { bytesOf } from "../helpers/csv";
import { setupTestDatabase } from "../helpers/db";
import { createWorkspace } from "../helpers/factories";
import { CONTACT_CREDENTIALS } from "@/lib/contacts/merge/merge-dependents";
import { contactReferences, createPersonEverywhere, rowsMentioning } from "../helpers/person";

const db = setupTestDatabase();

// the tables spec 2.4.2 names as a contact's dependents
const SPEC_2_4_2 = [
  "contact_tags",
  "notes",
  "company_contacts",
  "deals",
  "tasks",
  "appointment_external_attendees",
  "campaign_enrollments",
  "event_registrations",
  "transactions",
  "email_sends",
  "contact_suppressions",
  "agreement_contacts",
];

async function scene() {
  const ws = await createWorkspace(db.sql);
  const other = await createWorkspace(db.sql);
  const person = await createPersonEverywhere(db.sql, ws.id);
  const neighbour = await createPersonEverywhere(db.sql, ws.id);
  // the same address in another workspace is another, independent contact
  const twin = await createPersonEverywhere(db.sql, other.id, person.email);
  return { ws, other, person, neighbour, twin };
}

describe("privacy export (GDPR art. 15)", () => {
  test("the export holds every table that references the contact (all of spec 2.4.2) with exactly its rows, and nothing of another contact or workspace", async () => {
    const { ws, person, neighbour, twin } = await scene();
    const result = await withUser(ws.owner.claims, (tx) =>
      exportContactData(tx, { workspaceId: ws.id, contactId: person.id }),
    );
    if ("error" in result) throw result.error;
    const { data } = result;
    expect(data.contact).toMatchObject({ id: person.id, email: person.email, first_name: "Pia" });
    expect(data.tags).toHaveLength(1);

    const references = await contactReferences(db.sql);
    for (const table of SPEC_2_4_2) expect(references.map((r) => r.table)).toContain(table);
    for (const { table, column } of references) {
      // never exported: the contact's portal credentials (docs/decisions.md, "Portal sessions")
      if (table in CONTACT_CREDENTIALS) {
        expect(data.tables[table], table).toBeUndefined();
        continue;
      }
      const expected = await db.sql`
        select id from ${db.sql(table)} where ${db.sql(column)} = ${person.id} and workspace_id = ${ws.id}`.catch(
        () => null, // tables keyed by (x, contact_id) have no id column
      );
      expect(data.tables[table], table).toBeDefined();
      expect(data.tables[table].length, table).toBeGreaterThan(0);
      // a table referencing contacts twice (a pair) holds rows naming the person in either column
      const columns = references.filter((r) => r.table === table).map((r) => r.column);
      for (const row of data.tables[table])
        expect(
          columns.map((c) => row[c]),
          table,
        ).toContain(person.id);
      expect(
        data.tables[table].some((row) => row[column] === person.id),
        `${table}.${column}`,
      ).toBe(true);
      if (expected)
        expect(data.tables[table].map((r) => r.id).sort(), table).toEqual(expected.map((r) => r.id).sort());
    }
    expect(data.tables.pending_form_submissions.map((r) => r.email)).toEqual([person.email]);

    const json = JSON.stringify(data);
    for (const foreign of [neighbour.id, neighbour.email, twin.id, twin.id.slice(0, 8)])
      expect(json).not.toContain(foreign);
    expect(json).not.toContain(`"workspace_id":"${twin.id}"`);
  });

  test("the archive is a ZIP of contact.json and one CSV per table with rows; a member of another workspace gets nothing", async () => {
    const { ws, other, person } = await scene();
    const result = await withService((tx) =>
      exportContactData(tx, { workspaceId: ws.id, contactId: person.id }),
    );
    if ("error" in result) throw result.error;
    const files = unzipSync(exportArchive(result.data));
    expect(JSON.parse(strFromU8(files["contact.json"])).contact.id).toBe(person.id);
    for (const table of SPEC_2_4_2) expect(Object.keys(files)).toContain(`${table}.csv`);
    expect(strFromU8(files["notes.csv"])).toContain(person.email);

    const outsider = await withUser(other.owner.claims, (tx) =>
      exportContactData(tx, { workspaceId: ws.id, contactId: person.id }),
    );
    expect(outsider).toEqual({
      error: expect.objectContaining({ code: "not_found", message: "Contact not found." }),
    });
  });
});

describe("erasure (GDPR art. 17)", () => {
  test("erasure leaves no row with the contact's id or address except the salted hash; set-null rows stay, anonymous; the neighbour and the twin are untouched", async () => {
    const { ws, other, person, neighbour, twin } = await scene();
    const before = await rowsMentioning(db.sql, [neighbour.id, neighbour.email]);
    const twinBefore = await rowsMentioning(db.sql, [twin.id]);

    const result = await withService((tx) =>
      eraseContact(tx, {
        workspaceId: ws.id,
        contactId: person.id,
        confirmation: ` ${person.email.toUpperCase()} `,
        actorUserId: ws.owner.id,
      }),
    );
    expect(result).toMatchObject({ data: { erasedAt: expect.any(Date) } });

    const left = await rowsMentioning(db.sql, [person.id, person.email]);
    // the twin in the other workspace has the same address: only that workspace's rows may mention it
    expect(left.filter((r) => !r.row.includes(other.id) && !r.row.includes(twin.id))).toEqual([]);
    expect(await rowsMentioning(db.sql, [person.id])).toEqual([]);
    const [inbox] =
      await db.sql`select payload from webhook_inbox where workspace_id = ${ws.id} and payload ? 'erased'`;
    expect(inbox.payload).toEqual({ erased: true });

    // set-null rows stay, without the contact
    const [kept] = await db.sql`
      select (select count(*)::int from transactions where workspace_id = ${ws.id} and contact_id is null) as transactions,
             (select count(*)::int from tasks where workspace_id = ${ws.id} and contact_id is null) as tasks,
             (select count(*)::int from email_sends where workspace_id = ${ws.id} and contact_id is null) as email_sends,
             (select count(*)::int from deals where workspace_id = ${ws.id} and contact_id is null) as deals`;
    expect(kept).toEqual({ transactions: 1, tasks: 1, email_sends: 1, deals: 1 });
    const [hash] = await db.sql`select address_hash from erased_addresses where workspace_id = ${ws.id}`;
    expect(hash.address_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(
      await db.sql`select kind, contact_id, address_hash from privacy_requests where workspace_id = ${ws.id}`,
    ).toEqual([{ kind: "erase", contact_id: null, address_hash: hash.address_hash }]);

    expect(await rowsMentioning(db.sql, [neighbour.id, neighbour.email])).toEqual(before);
    expect(await rowsMentioning(db.sql, [twin.id])).toEqual(twinBefore);
  });

  test("a wrong typed confirmation erases nothing", async () => {
    const ws = await createWorkspace(db.sql);
    const person = await createPersonEverywhere(db.sql, ws.id);
    const before = await rowsMentioning(db.sql, [person.id]);
    const result = await withService((tx) =>
      eraseContact(tx, { workspaceId: ws.id, contactId: person.id, confirmation: "yes", actorUserId: null }),
    );
    expect(result).toEqual({
      error: expect.objectContaining({
        code: "invalid",
        message: "Type the contact's email address exactly to confirm the erasure.",
      }),
    });
    expect(await rowsMentioning(db.sql, [person.id])).toEqual(before);
  });

  test("a re-import of an erased address is reported ('this address was erased on …') and creates nothing; once the person comes back themself, imports update them again", async () => {
    const ws = await createWorkspace(db.sql);
    const person = await createPersonEverywhere(db.sql, ws.id);
    await withService((tx) =>
      eraseContact(tx, {
        workspaceId: ws.id,
        contactId: person.id,
        confirmation: person.email,
        actorUserId: null,
      }),
    );
    const csv = `email,first_name\nnew@example.test,New\n${person.email.toUpperCase()},Pia\n`;
    const run = () =>
      withUser(ws.owner.claims, (tx) =>
        importContactsCsv(tx, {
          workspaceId: ws.id,
          file: bytesOf(csv),
          markSubscribed: true,
          uploaderIp: "203.0.113.1",
          actorUserId: ws.owner.id,
        }),
      );
    const first = await run();
    if ("error" in first) throw first.error;
    const today = new Date().toISOString().slice(0, 10);
    expect(first.data).toMatchObject({ created: 1, skipped: 1, valid: 1 });
    expect(first.data.errors).toEqual([
      {
        row: 3,
        email: person.email,
        reason: `This address was erased on ${today} at the person's request; it is not re-created from a list or a purchase.`,
      },
    ]);
    expect(
      await db.sql`select 1 from contacts where workspace_id = ${ws.id} and email = ${person.email}`,
    ).toHaveLength(0);

    // the person signs up again themself (a form): the contact exists, and imports update it
    await db.sql`insert into contacts (workspace_id, email, source) values (${ws.id}, ${person.email}, 'form')`;
    const second = await run();
    if ("error" in second) throw second.error;
    expect(second.data.errors).toEqual([]);
  });

  test("a checkout by an erased address records the purchase but does not auto-subscribe the new contact, and notes why", async () => {
    const ws = await createWorkspace(db.sql);
    const person = await createPersonEverywhere(db.sql, ws.id);
    await withService((tx) =>
      eraseContact(tx, {
        workspaceId: ws.id,
        contactId: person.id,
        confirmation: person.email,
        actorUserId: null,
      }),
    );
    const [connection] = await db.sql`
      insert into payproc_connections (workspace_id, payproc_account_id, auto_subscribe_purchasers)
      values (${ws.id}, ${`acct_${ws.id.slice(0, 8)}`}, true) returning *`;
    const buy = (email: string, session: string) =>
      withService((tx) =>
        checkoutSessionCompleted(tx, {
          connection: connection as never,
          sessionId: session,
          paymentIntentId: `pi_${session}`,
          purchaser: { email, fields: { first_name: "Pia", last_name: null, phone: null } },
          products: [
            { payprocProductId: `prod_${session}`, name: "Mug", amountCents: 1200, currency: "usd" },
          ],
          purchasedAt: new Date(),
        }),
      );
    const erased = await buy(person.email, `cs_test_${ws.id.slice(0, 8)}a`);
    expect(erased).toMatchObject({ status: "recorded", subscribed: false });
    const [c] =
      await db.sql`select id, is_subscribed from contacts where workspace_id = ${ws.id} and email = ${person.email}`;
    expect(c.is_subscribed).toBe(false);
    const [note] = await db.sql`select content_text from notes where contact_id = ${c.id}`;
    expect(note.content_text).toMatch(/^This address was erased on \d{4}-\d{2}-\d{2}/);
    // anyone else is auto-subscribed as before
    expect(await buy("fresh@example.test", `cs_test_${ws.id.slice(0, 8)}b`)).toMatchObject({
      subscribed: true,
    });
  });
});
