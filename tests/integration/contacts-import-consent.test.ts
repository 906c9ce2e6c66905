import { describe, expect, test } from "vitest";
import { importContactsCsv, type ImportContactsCsvInput } from "@/lib/contacts/import-contacts-csv";
import { withUser } from "@/lib/db/doors";
import { setupTestDatabase } from "../helpers/db";
import { bytesOf, IMPORT_TABLES } from "../helpers/csv";
import { createContact, createWorkspace, type TestWorkspace } from "../helpers/factories";

const db = setupTestDatabase();

const run = (ws: TestWorkspace, csv: string, options: Partial<ImportContactsCsvInput> = {}) =>
  withUser(ws.owner.claims, (tx) =>
    importContactsCsv(tx, {
      workspaceId: ws.id,
      file: bytesOf(csv, 997),
      markSubscribed: true,
      uploaderIp: "198.51.100.4",
      actorUserId: ws.owner.id,
      ...options,
    }),
  );

const consentOf = async (wsId: string, email: string) =>
  (
    await db.sql`select is_subscribed, opt_in_source, host(opt_in_ip) as ip, opt_in_timestamp, unsubscribed_at
      from contacts where workspace_id = ${wsId} and email = ${email}`
  )[0];

/** Every row of the tables an import writes, for every workspace. */
async function snapshot() {
  const out: Record<string, unknown> = {};
  for (const table of IMPORT_TABLES)
    out[table] = (
      await db.sql`select coalesce(json_agg(t order by t::text), '[]') as rows from ${db.sql(table)} t`
    )[0].rows;
  return out;
}

describe("4.15 CSV import: Mark as Subscribed", () => {
  test("4.15 CSV import: Mark as Subscribed records consent ('CSV Import', uploader IP, time) for new and unsubscribed contacts", async () => {
    const ws = await createWorkspace(db.sql);
    const gone = await createContact(db.sql, ws.id, {
      email: "gone@example.com",
      unsubscribed_at: new Date("2025-01-01"),
      opt_in_source: "old-form",
    });
    await db.sql`insert into contact_suppressions (contact_id, reason) values (${gone.id}, 'unsubscribe'), (${gone.id}, 'bounce')`;
    const before = new Date();
    const result = await run(ws, "email\nnew@example.com\ngone@example.com\n");
    expect("data" in result && result.data).toMatchObject({
      created: 1,
      updated: 1,
      subscribed: 2,
      consentKept: 0,
    });
    for (const email of ["new@example.com", "gone@example.com"]) {
      const c = await consentOf(ws.id, email);
      expect(c).toMatchObject({
        is_subscribed: true,
        opt_in_source: "CSV Import",
        ip: "198.51.100.4",
        unsubscribed_at: null,
      });
      expect(c.opt_in_timestamp.getTime()).toBeGreaterThanOrEqual(before.getTime() - 5_000);
    }
    // the unsubscribe is superseded; the hard 'bounce' suppression stays
    const reasons = await db.sql`select reason from contact_suppressions where contact_id = ${gone.id}`;
    expect(reasons.map((r) => r.reason)).toEqual(["bounce"]);
    const events =
      await db.sql`select flow, source, host(ip) as ip, actor_user_id from consent_events where workspace_id = ${ws.id}`;
    expect(events).toEqual([
      { flow: "csv_import", source: "CSV Import", ip: "198.51.100.4", actor_user_id: ws.owner.id },
      { flow: "csv_import", source: "CSV Import", ip: "198.51.100.4", actor_user_id: ws.owner.id },
    ]);
  });

  test("4.15 CSV import: Mark as Subscribed keeps the existing consent of contacts already subscribed", async () => {
    const ws = await createWorkspace(db.sql);
    const when = new Date("2024-05-06T07:08:09Z");
    await createContact(db.sql, ws.id, {
      email: "loyal@example.com",
      first_name: "Old",
      is_subscribed: true,
      opt_in_source: "form-123",
      opt_in_timestamp: when,
      opt_in_ip: "203.0.113.5",
    });
    const result = await run(ws, "email,first_name\nloyal@example.com,New\n");
    expect("data" in result && result.data).toMatchObject({ updated: 1, subscribed: 0, consentKept: 1 });
    expect(await consentOf(ws.id, "loyal@example.com")).toEqual({
      is_subscribed: true,
      opt_in_source: "form-123",
      ip: "203.0.113.5",
      opt_in_timestamp: when,
      unsubscribed_at: null,
    });
    const [{ n }] = await db.sql`select count(*)::int as n from consent_events where workspace_id = ${ws.id}`;
    expect(n).toBe(0);
  });

  test("3.3 CSV import: Mark as Subscribed never subscribes a contact with a complaint suppression", async () => {
    const ws = await createWorkspace(db.sql);
    const spam = await createContact(db.sql, ws.id, { email: "spam@example.com" });
    await db.sql`insert into contact_suppressions (contact_id, reason) values (${spam.id}, 'complaint')`;
    const result = await run(ws, "email,city\nspam@example.com,Oslo\n");
    expect("data" in result && result.data).toMatchObject({
      updated: 1,
      subscribed: 0,
      consentSkippedComplaint: 1,
    });
    expect(await consentOf(ws.id, "spam@example.com")).toMatchObject({
      is_subscribed: false,
      opt_in_source: null,
    });
  });

  test("4.15 CSV import: without Mark as Subscribed no consent is recorded or changed", async () => {
    const ws = await createWorkspace(db.sql);
    await createContact(db.sql, ws.id, {
      email: "gone@example.com",
      unsubscribed_at: new Date("2025-01-01"),
    });
    const result = await run(ws, "email\nnew@example.com\ngone@example.com\n", { markSubscribed: false });
    expect("data" in result && result.data.subscribed).toBe(0);
    expect(await consentOf(ws.id, "new@example.com")).toMatchObject({
      is_subscribed: false,
      opt_in_source: null,
    });
    expect(await consentOf(ws.id, "gone@example.com")).toMatchObject({
      is_subscribed: false,
      unsubscribed_at: new Date("2025-01-01"),
    });
  });
});

describe("4.15 CSV import: one atomic transaction", () => {
  async function arrange() {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { email: "existing@example.com", first_name: "Before" });
    const [tag] = await db.sql`insert into tags (workspace_id, name) values (${ws.id}, 'Old') returning id`;
    await db.sql`insert into contact_tags (contact_id, tag_id) values (${c.id}, ${tag.id})`;
    const rows = Array.from(
      { length: 4000 },
      (_, i) =>
        `bulk${i}@example.com,Name${i},"new tag ${i % 7}, Old",${i === 3999 ? "boom" : i % 10 === 0 ? "note" : ""}`,
    );
    const csv = `email,first_name,tags,notes\nexisting@example.com,After,Old,\n${rows.join("\n")}\n`;
    return { ws, csv };
  }

  test("4.15 CSV import atomicity: a database failure half way (after contacts and tags, at the notes) leaves the database exactly as before", async () => {
    const { ws, csv } = await arrange();
    await db.sql`create or replace function pg_temp_fail_on_boom() returns trigger language plpgsql as $$
      begin if new.content_text = 'boom' then raise exception 'injected failure'; end if; return new; end $$`;
    await db.sql`create trigger fail_on_boom before insert on notes for each row execute function pg_temp_fail_on_boom()`;
    try {
      const before = await snapshot();
      await expect(run(ws, csv)).rejects.toThrow("injected failure");
      expect(await snapshot()).toEqual(before);
    } finally {
      await db.sql`drop trigger fail_on_boom on notes`;
    }
  });

  test("4.15 CSV import atomicity: an error thrown between the statements leaves the database exactly as before", async () => {
    const { ws, csv } = await arrange();
    const before = await snapshot();
    const failAtTags = (p: { phase: string }) => {
      if (p.phase === "tags") throw new Error("stopped half way");
    };
    await expect(run(ws, csv, { onProgress: failAtTags })).rejects.toThrow("stopped half way");
    expect(await snapshot()).toEqual(before);
  });

  test("4.15 CSV import atomicity: an error while the file is still streaming leaves the database exactly as before", async () => {
    const { ws, csv } = await arrange();
    const before = await snapshot();
    let calls = 0;
    const failWhileReading = () => {
      if (++calls === 50) throw new Error("connection to the browser lost");
    };
    await expect(run(ws, csv, { onProgress: failWhileReading })).rejects.toThrow(
      "connection to the browser lost",
    );
    expect(await snapshot()).toEqual(before);
    // and the pool is healthy afterwards
    const ok = await run(ws, "email\nafter@example.com\n");
    expect("data" in ok && ok.data.created).toBe(1);
  });
});
