import { AppError } from "@/lib/errors/app-error";
import { describe, expect, test } from "vitest";
import { getContactTimeline } from "@/lib/contacts/get-contact-timeline";
import type { TimelinePosition } from "@/lib/contacts/timeline/types";
import { getDistinctSources } from "@/lib/contacts/get-distinct-sources";
import { updateContactSource } from "@/lib/contacts/update-contact-source";
import { withService, withUser } from "@/lib/db/doors";
import { addNote } from "@/lib/notes/add-note";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createContact, createWorkspace } from "../helpers/factories";

const db = setupTestDatabase();

describe("4.15 updateContactSource", () => {
  test.each(["owner", "admin"] as const)(
    "4.15 updateContactSource: an %s changes it; a system note records old, new, user and reason",
    async (role) => {
      const ws = await createWorkspace(db.sql);
      const actor = role === "owner" ? ws.owner : await addMember(db.sql, ws.id, role);
      await db.sql`update user_profiles set first_name = 'Ann', last_name = 'Admin' where id = ${actor.id}`;
      const c = await createContact(db.sql, ws.id, { source: "form" });
      const result = await withUser(actor.claims, (tx) =>
        updateContactSource(tx, {
          contactId: c.id,
          workspaceId: ws.id,
          newSource: "import",
          reason: "Came from the <spring> list",
        }),
      );
      expect(result).toEqual({ success: true });
      const [row] = await db.sql`select source from contacts where id = ${c.id}`;
      expect(row.source).toBe("import");
      const notes =
        await db.sql`select type, created_by, content, content_text from notes where contact_id = ${c.id}`;
      expect(notes).toHaveLength(1);
      expect(notes[0].type).toBe("contact");
      expect(notes[0].created_by).toBeNull();
      expect(notes[0].content_text).toBe(
        `Source changed from 'form' to 'import' by Ann Admin <${actor.email}>. Reason: Came from the <spring> list`,
      );
      expect(notes[0].content).toContain("Came from the &lt;spring&gt; list");
      expect(notes[0].content).not.toContain("<spring>");
    },
  );

  test("4.15/7 updateContactSource: a member gets 'Insufficient permissions' and nothing changes", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await addMember(db.sql, ws.id, "member");
    const c = await createContact(db.sql, ws.id, { source: "form" });
    const result = await withUser(member.claims, (tx) =>
      updateContactSource(tx, {
        contactId: c.id,
        workspaceId: ws.id,
        newSource: "manual",
        reason: "because",
      }),
    );
    expect(result).toEqual({ error: new AppError("forbidden", "Insufficient permissions") });
    const [row] = await db.sql`select source from contacts where id = ${c.id}`;
    expect(row.source).toBe("form");
    const [{ n }] = await db.sql`select count(*)::int as n from notes where contact_id = ${c.id}`;
    expect(n).toBe(0);
  });

  test("4.15 updateContactSource: an owner of another workspace gets 'Insufficient permissions'", async () => {
    const ws = await createWorkspace(db.sql);
    const other = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { source: "form" });
    const result = await withUser(other.owner.claims, (tx) =>
      updateContactSource(tx, { contactId: c.id, workspaceId: ws.id, newSource: "manual", reason: "x" }),
    );
    expect(result).toEqual({ error: new AppError("forbidden", "Insufficient permissions") });
  });

  test("4.15 updateContactSource: an unknown source or a blank reason is refused", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { source: "form" });
    const run = (newSource: string, reason: string) =>
      withUser(ws.owner.claims, (tx) =>
        updateContactSource(tx, { contactId: c.id, workspaceId: ws.id, newSource, reason }),
      );
    expect(await run("twitter", "x")).toEqual({
      error: new AppError("invalid", "Choose one of: manual, form, import, ticketing, payproc, event, api."),
    });
    expect(await run("manual", "   ")).toEqual({
      error: new AppError("invalid", "Give a reason for the change."),
    });
    const [row] = await db.sql`select source from contacts where id = ${c.id}`;
    expect(row.source).toBe("form");
  });

  test("4.15 source protection: without a signed-in user an existing source is forced back", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { source: "form" });
    await withService(
      (tx) => tx`update contacts set source = 'payproc', first_name = 'Changed' where id = ${c.id}`,
    );
    const [row] = await db.sql`select source, first_name from contacts where id = ${c.id}`;
    expect(row).toEqual({ source: "form", first_name: "Changed" });
  });
});

describe("4.15 getDistinctSources", () => {
  test("4.15 getDistinctSources: non-blank values, de-duplicated, sorted, this workspace only", async () => {
    const ws = await createWorkspace(db.sql);
    const other = await createWorkspace(db.sql);
    for (const source of ["manual", "import", "form", "import", "event", "form"])
      await createContact(db.sql, ws.id, { source });
    await createContact(db.sql, other.id, { source: "payproc" });
    const result = await withUser(ws.owner.claims, (tx) => getDistinctSources(tx, { workspaceId: ws.id }));
    expect(result).toEqual({ data: ["event", "form", "import", "manual"] });
  });

  test("4.15 getDistinctSources: an empty workspace has none", async () => {
    const ws = await createWorkspace(db.sql);
    expect(await withUser(ws.owner.claims, (tx) => getDistinctSources(tx, { workspaceId: ws.id }))).toEqual({
      data: [],
    });
  });
});

describe("timeline and notes", () => {
  test("2.10 addNote: a member's text is stored escaped in <p> paragraphs, and as plain text", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    const result = await withUser(ws.owner.claims, (tx) =>
      addNote(tx, {
        workspaceId: ws.id,
        contactId: c.id,
        type: "contact",
        text: "Hi <b>there</b> & co\nsecond line\n\n\nNew <script>alert(1)</script> para",
        createdBy: ws.owner.id,
      }),
    );
    expect("data" in result).toBe(true);
    const [note] =
      await db.sql`select content, content_text, created_by, type from notes where contact_id = ${c.id}`;
    expect(note).toEqual({
      type: "contact",
      created_by: ws.owner.id,
      content:
        "<p>Hi &lt;b&gt;there&lt;/b&gt; &amp; co<br>second line</p><p>New &lt;script&gt;alert(1)&lt;/script&gt; para</p>",
      content_text: "Hi <b>there</b> & co\nsecond line\n\n\nNew <script>alert(1)</script> para",
    });
  });

  test("2.10 addNote: an empty note is refused and nothing is stored", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    const result = await withUser(ws.owner.claims, (tx) =>
      addNote(tx, {
        workspaceId: ws.id,
        contactId: c.id,
        type: "contact",
        text: "  \n ",
        createdBy: ws.owner.id,
      }),
    );
    expect(result).toEqual({ error: new AppError("invalid", "Write something in the note.") });
    const [{ n }] = await db.sql`select count(*)::int as n from notes where contact_id = ${c.id}`;
    expect(n).toBe(0);
  });

  test("2.10 timeline: member notes, system notes ('System') and consent entries, newest first", async () => {
    const ws = await createWorkspace(db.sql);
    await db.sql`update user_profiles set first_name = 'Olive', last_name = 'Owner' where id = ${ws.owner.id}`;
    const c = await createContact(db.sql, ws.id);
    const other = await createContact(db.sql, ws.id);
    const t = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 12, minutes));
    await db.sql`insert into notes (contact_id, content, content_text, created_by, created_at) values
      (${c.id}, '<p>member</p>', 'member', ${ws.owner.id}, ${t(1)}),
      (${c.id}, '<p>system</p>', 'system', null, ${t(3)}),
      (${other.id}, '<p>other contact</p>', 'other contact', null, ${t(4)})`;
    await db.sql`insert into notes (contact_id, type, content, content_text, created_at)
      values (${c.id}, 'task', '<p>task note</p>', 'task note', ${t(5)})`;
    await db.sql`insert into consent_events (contact_id, action, flow, source, ip, created_at) values
      (${c.id}, 'subscribed', 'csv_import', 'CSV Import', '203.0.113.1', ${t(2)}),
      (${c.id}, 'unsubscribed', 'unsubscribe_link', null, null, ${t(4)})`;
    const result = await withUser(ws.owner.claims, (tx) =>
      getContactTimeline(tx, { workspaceId: ws.id, contactId: c.id }),
    );
    expect(result.data.map((e) => [e.kind, e.author, e.text])).toEqual([
      ["consent", "System", "Unsubscribed from marketing email"],
      ["note", "System", "system"],
      ["consent", "System", "Subscribed to marketing email. Source: CSV Import. IP: 203.0.113.1"],
      ["note", "Olive Owner", "member"],
    ]);
    expect(result.next).toBeNull();
  });

  test("timeline paging: pages of 2 return every entry once, in order, even with equal times", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    const same = new Date(Date.UTC(2026, 0, 1, 12, 0));
    await db.sql`insert into notes (contact_id, content, content_text, created_at)
      select ${c.id}, '<p>n' || i || '</p>', 'n' || i, ${same}::timestamptz + (i % 2) * interval '1 microsecond'
      from generate_series(1, 5) i`;
    await db.sql`insert into consent_events (contact_id, action, flow, created_at)
      select ${c.id}, 'subscribed', 'test', ${same} from generate_series(1, 2)`;
    const seen: string[] = [];
    let before: TimelinePosition | null = null;
    for (let guard = 0; guard < 10; guard++) {
      const page: Awaited<ReturnType<typeof getContactTimeline>> = await withUser(ws.owner.claims, (tx) =>
        getContactTimeline(tx, { workspaceId: ws.id, contactId: c.id, before, limit: 2 }),
      );
      seen.push(...page.data.map((e) => e.id));
      if (!page.next) break;
      before = page.next;
    }
    const all = await withUser(ws.owner.claims, (tx) =>
      getContactTimeline(tx, { workspaceId: ws.id, contactId: c.id, limit: 100 }),
    );
    expect(all.data).toHaveLength(7);
    expect(seen).toEqual(all.data.map((e) => e.id));
  });
});
