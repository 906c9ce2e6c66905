import { describe, expect, test } from "vitest";
import { importContactsCsv, type ImportContactsCsvInput } from "@/lib/contacts/import-contacts-csv";
import type { ImportReport } from "@/lib/contacts/import/import-report";
import { withService, withUser } from "@/lib/db/doors";
import { setupTestDatabase } from "../helpers/db";
import { bytesOf } from "../helpers/csv";
import { createContact, createWorkspace, type TestWorkspace } from "../helpers/factories";

const db = setupTestDatabase();

async function runImport(
  ws: TestWorkspace,
  csv: string,
  options: Partial<ImportContactsCsvInput> = {},
): Promise<ImportReport> {
  const result = await withUser(ws.owner.claims, (tx) =>
    importContactsCsv(tx, {
      workspaceId: ws.id,
      file: bytesOf(csv, 7),
      markSubscribed: false,
      uploaderIp: "198.51.100.4",
      actorUserId: ws.owner.id,
      ...options,
    }),
  );
  if ("error" in result) throw result.error;
  return result.data;
}

const contactByEmail = async (wsId: string, email: string) =>
  (
    await db.sql`select *, host(opt_in_ip) as ip from contacts where workspace_id = ${wsId} and email = ${email}`
  )[0];

describe("4.15 CSV import: rows", () => {
  test("4.15 CSV import: a new email inserts every provided field, source 'import'; headers match by alias", async () => {
    const ws = await createWorkspace(db.sql);
    const csv = [
      "E-mail,First Name,LAST_NAME,Phone Number,Address,Address Line 2,City,State,Zip,Country,Birth Month,Birth Day,Tags,Notes,Favourite colour",
      'New@Example.com ,Ada,Lovelace,2025550143,1 Way,Flat 2,London,LDN,N1,UK,12,10,"vip; Press","Met at <fair>\n\nSecond para"',
    ].join("\n");
    const report = await runImport(ws, csv);
    expect(report).toMatchObject({
      rowsRead: 1,
      valid: 1,
      skipped: 0,
      created: 1,
      updated: 0,
      notesAdded: 1,
    });
    expect(report.columns.at(-1)).toEqual({ header: "Favourite colour", field: null });
    const c = await contactByEmail(ws.id, "new@example.com");
    expect(c).toMatchObject({
      first_name: "Ada",
      last_name: "Lovelace",
      phone: "2025550143",
      address_line1: "1 Way",
      address_line2: "Flat 2",
      city: "London",
      state: "LDN",
      postal_code: "N1",
      country: "UK",
      birth_month: 12,
      birth_day: 10,
      source: "import",
      is_subscribed: false,
      opt_in_source: null,
      created_by: ws.owner.id,
    });
    const tags = await db.sql`select t.name from contact_tags ct join tags t on t.id = ct.tag_id
      where ct.contact_id = ${c.id} order by t.name`;
    expect(tags.map((t) => t.name)).toEqual(["Press", "vip"]);
    const notes =
      await db.sql`select type, content, content_text, created_by from notes where contact_id = ${c.id}`;
    expect(notes).toEqual([
      {
        type: "contact",
        content: "<p>Met at &lt;fair&gt;</p><p>Second para</p>",
        content_text: "Met at <fair>\n\nSecond para",
        created_by: ws.owner.id,
      },
    ]);
  });

  test("4.15 CSV import: an existing email updates only the non-empty CSV columns (source kept)", async () => {
    const ws = await createWorkspace(db.sql);
    await createContact(db.sql, ws.id, {
      email: "old@example.com",
      first_name: "Keep",
      last_name: "Replace",
      phone: "111",
      city: "Paris",
      birth_month: 1,
      birth_day: 2,
      source: "form",
    });
    const report = await runImport(
      ws,
      "email,first_name,last_name,phone,city,birth_month,birth_day\nOLD@example.com,,Newlast,  ,Rome,,\n",
    );
    expect(report).toMatchObject({ created: 0, updated: 1, unchanged: 0 });
    expect(await contactByEmail(ws.id, "old@example.com")).toMatchObject({
      first_name: "Keep",
      last_name: "Newlast",
      phone: "111",
      city: "Rome",
      birth_month: 1,
      birth_day: 2,
      source: "form",
    });
  });

  test("4.15 CSV import: a row identical to the stored contact leaves it untouched", async () => {
    const ws = await createWorkspace(db.sql);
    await createContact(db.sql, ws.id, { email: "same@example.com", first_name: "Same" });
    const [before] = await db.sql`select updated_at from contacts where workspace_id = ${ws.id}`;
    const report = await runImport(ws, "email,first name\nsame@example.com,Same\n");
    expect(report).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
    const [after] = await db.sql`select updated_at from contacts where workspace_id = ${ws.id}`;
    expect(after.updated_at).toEqual(before.updated_at);
  });

  test("4.15/8.1 CSV import: every row-error kind is skipped and reported with row and reason; valid rows still go in", async () => {
    const ws = await createWorkspace(db.sql);
    const csv = [
      "email,first_name,birth_month,birth_day",
      "ok1@example.com,One,,",
      ",NoEmail,,",
      "not-an-email,Bad,,",
      "month@example.com,Month,5,",
      "day@example.com,Day,,7",
      "range@example.com,Range,13,32",
      "words@example.com,Words,May,1st",
      "",
      'quote@example.com,"Stray "quote" here",,',
      "ok2@example.com,Two,2,29",
    ].join("\n");
    const report = await runImport(ws, csv);
    expect(report.errors).toEqual([
      { row: 3, email: "", reason: "Email is required." },
      { row: 4, email: "not-an-email", reason: "Email is not a valid address." },
      { row: 5, email: "month@example.com", reason: "Birth month and birth day must be given together." },
      { row: 6, email: "day@example.com", reason: "Birth month and birth day must be given together." },
      {
        row: 7,
        email: "range@example.com",
        reason:
          "Birth month must be a whole number from 1 to 12. Birth day must be a whole number from 1 to 31.",
      },
      {
        row: 8,
        email: "words@example.com",
        reason:
          "Birth month must be a whole number from 1 to 12. Birth day must be a whole number from 1 to 31.",
      },
      { row: 10, email: "quote@example.com", reason: "A quoted value has a stray quote." },
    ]);
    expect(report).toMatchObject({ rowsRead: 9, valid: 2, skipped: 7, created: 2 });
    const emails = await db.sql`select email from contacts where workspace_id = ${ws.id} order by email`;
    expect(emails.map((r) => r.email)).toEqual(["ok1@example.com", "ok2@example.com"]);
  });

  test("4.15 CSV import: the same email twice is applied in file order, a later non-empty value winning", async () => {
    const ws = await createWorkspace(db.sql);
    const report = await runImport(
      ws,
      "email,first_name,last_name,city,tags\ntwice@example.com,First,Lastname,,a\nTWICE@example.com,Second,,Oslo,b\n",
    );
    expect(report).toMatchObject({ valid: 2, created: 1, updated: 0 });
    expect(await contactByEmail(ws.id, "twice@example.com")).toMatchObject({
      first_name: "Second",
      last_name: "Lastname",
      city: "Oslo",
    });
    const [{ n }] = await db.sql`select count(*)::int as n from contact_tags where workspace_id = ${ws.id}`;
    expect(n).toBe(2);
  });

  test("4.15 CSV import: missing tags are created (matched case-insensitively) and attachments already there are ignored", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { email: "tagged@example.com" });
    const [vip] = await db.sql`insert into tags (workspace_id, name) values (${ws.id}, 'VIP') returning id`;
    await db.sql`insert into contact_tags (contact_id, tag_id) values (${c.id}, ${vip.id})`;
    const report = await runImport(
      ws,
      'email,tags\ntagged@example.com,"vip,Newsletter"\nother@example.com,"NEWSLETTER; vip;vip"\n',
    );
    expect(report).toMatchObject({ tagsCreated: 1, tagsAttached: 3 });
    const tags = await db.sql`select name from tags where workspace_id = ${ws.id} order by name`;
    expect(tags.map((t) => t.name)).toEqual(["Newsletter", "VIP"]);
    const pairs = await db.sql`select c.email, t.name from contact_tags ct
      join contacts c on c.id = ct.contact_id join tags t on t.id = ct.tag_id
      where ct.workspace_id = ${ws.id} order by c.email, t.name`;
    expect(pairs.map((p) => `${p.email}:${p.name}`)).toEqual([
      "other@example.com:Newsletter",
      "other@example.com:VIP",
      "tagged@example.com:Newsletter",
      "tagged@example.com:VIP",
    ]);
  });

  test("4.15 CSV import: streamed in tiny chunks; quoted commas, newlines, multi-byte text, BOM, CRLF and ';'", async () => {
    const ws = await createWorkspace(db.sql);
    const rows = Array.from(
      { length: 3000 },
      (_, i) => `r${i}@example.com;"Zoë ${i}; ""the"" one";"line\r\nbreak"`,
    );
    const csv = `\uFEFFEmail;First Name;Notes\r\n${rows.join("\r\n")}\r\n`;
    const result = await withUser(ws.owner.claims, (tx) =>
      importContactsCsv(tx, {
        workspaceId: ws.id,
        file: bytesOf(csv, 5),
        markSubscribed: false,
        uploaderIp: null,
        actorUserId: ws.owner.id,
      }),
    );
    if ("error" in result) throw result.error;
    expect(result.data).toMatchObject({ rowsRead: 3000, created: 3000, notesAdded: 3000, skipped: 0 });
    expect(await contactByEmail(ws.id, "r2999@example.com")).toMatchObject({
      first_name: 'Zoë 2999; "the" one',
    });
    const [note] = await db.sql`select content_text from notes where workspace_id = ${ws.id} limit 1`;
    expect(note.content_text).toBe("line\nbreak");
  });

  test("4.15 CSV import: the command line's service identity imports with no member (created_by null)", async () => {
    const ws = await createWorkspace(db.sql);
    const result = await withService((tx) =>
      importContactsCsv(tx, {
        workspaceId: ws.id,
        file: bytesOf("email,notes\ncli@example.com,From the CLI\n"),
        markSubscribed: true,
        uploaderIp: null,
        actorUserId: null,
      }),
    );
    expect("data" in result && result.data.created).toBe(1);
    const c = await contactByEmail(ws.id, "cli@example.com");
    expect(c).toMatchObject({ created_by: null, is_subscribed: true, opt_in_source: "CSV Import", ip: null });
    const [note] = await db.sql`select created_by from notes where contact_id = ${c.id}`;
    expect(note.created_by).toBeNull();
  });
});
