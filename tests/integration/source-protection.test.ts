import { describe, expect, test } from "vitest";
import { setupTestDatabase } from "../helpers/db";
import { createContact } from "../helpers/factories";
import { as, createTenants, type Caller } from "../helpers/rls";

const db = setupTestDatabase();

// Spec 4.15, last paragraph: "A database rule protects contacts.source: when an update is made
// without a signed-in user (webhooks, form endpoints, sync jobs) and the old source is set, the
// new source is forced back to the old one. A signed-in owner or admin may change it."
// A plain member cannot either: forced back too (docs/decisions.md).
describe("4.15 contacts.source is protected", () => {
  test.each([
    ["service", "without a signed-in user the old source is kept", "form"],
    ["owner", "a signed-in owner may change it", "import"],
    ["admin", "a signed-in admin may change it", "import"],
    ["member", "a plain member cannot (forced back)", "form"],
  ] as const)("4.15 by %s: %s", async (caller: Caller, _rule, source) => {
    const t = await createTenants(db.sql);
    const contact = await createContact(db.sql, t.a.id, { source: "form", first_name: "Old" });
    const updated = await as(
      t,
      caller,
      async (q) =>
        (await q`update contacts set source = 'import', first_name = 'New' where id = ${contact.id}`).count,
    );
    // the update itself goes through: only the source is held back
    expect(updated).toBe(1);
    const [row] = await db.sql`select source, first_name from contacts where id = ${contact.id}`;
    expect(row).toEqual({ source, first_name: "New" });
  });

  test("4.15: the system sets the source of the contacts it creates", async () => {
    const t = await createTenants(db.sql);
    const [row] = await as(
      t,
      "service",
      (q) =>
        q`insert into contacts (workspace_id, email, source) values (${t.a.id}, 'new@example.test', 'ticketing') returning source`,
    );
    expect(row.source).toBe("ticketing");
  });

  test("4.15: an owner of another workspace cannot change the source", async () => {
    const t = await createTenants(db.sql);
    const contact = await createContact(db.sql, t.a.id, { source: "form" });
    const updated = await as(
      t,
      "outsider",
      async (q) => (await q`update contacts set source = 'import' where id = ${contact.id}`).count,
    );
    expect(updated).toBe(0);
    expect((await db.sql`select source from contacts where id = ${contact.id}`)[0].source).toBe("form");
  });
});
