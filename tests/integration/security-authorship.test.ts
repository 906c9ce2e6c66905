import { describe, expect, test } from "vitest";
import { withUser } from "@/lib/db/doors";
import { addNote } from "@/lib/notes/add-note";
import { closeReviewTasks } from "@/lib/tasks/close-review-tasks";
import { setupTestDatabase } from "../helpers/db";
import { createContact } from "../helpers/factories";
import { as, attempt, createTenants, type Tenants } from "../helpers/rls";

// docs/decisions.md, "The database is the boundary": who wrote a row is the signed-in member.
// Each attack is what a POST or PATCH to /rest/v1/<table> with the member's own JWT would do
// (withUser is PostgREST's role and claims); nothing it tried may be stored.
const db = setupTestDatabase();

const refused = { ok: false, code: "42501" };

async function noteOf(t: Tenants) {
  const contact = await createContact(db.sql, t.a.id);
  const [note] = await db.sql`
    insert into notes (workspace_id, contact_id, type, content, content_text, created_by)
    values (${t.a.id}, ${contact.id}, 'contact', '<p>x</p>', 'x', ${t.admin.id}) returning id`;
  return { contact, noteId: note.id as string };
}

describe("notes: a note names the member who wrote it (spec 2.10)", () => {
  test("a member POSTing a note in the admin's name is refused, and no note is stored", async () => {
    const t = await createTenants(db.sql);
    const contact = await createContact(db.sql, t.a.id);
    const posted = await attempt(() =>
      as(
        t,
        "member",
        (q) => q`insert into notes (workspace_id, contact_id, type, content, content_text, created_by)
                 values (${t.a.id}, ${contact.id}, 'contact', '<p>Approved</p>', 'Approved', ${t.admin.id})`,
      ),
    );
    expect(posted).toEqual(refused);
    expect(await db.sql`select 1 from notes where contact_id = ${contact.id}`).toEqual([]);
  });

  test("a member POSTing a note without an author gets their own note, not one the timeline shows as 'System'", async () => {
    const t = await createTenants(db.sql);
    const contact = await createContact(db.sql, t.a.id);
    await as(
      t,
      "member",
      (q) => q`insert into notes (workspace_id, contact_id, type, content, content_text, created_by)
               values (${t.a.id}, ${contact.id}, 'contact', '<p>Details updated by form</p>', 'x', null)`,
    );
    const notes = await db.sql`select created_by from notes where contact_id = ${contact.id}`;
    expect(notes).toEqual([{ created_by: t.member.id }]);
  });

  test("a member PATCHing an admin's note to their own name, to another's or to 'System' is refused, and the note is unchanged", async () => {
    const t = await createTenants(db.sql);
    const { noteId } = await noteOf(t);
    for (const author of [t.member.id, t.a.owner.id, null])
      expect(
        await attempt(() =>
          as(t, "member", (q) => q`update notes set created_by = ${author} where id = ${noteId}`),
        ),
      ).toEqual(refused);
    const [note] = await db.sql`select created_by from notes where id = ${noteId}`;
    expect(note.created_by).toBe(t.admin.id);
    // editing the text of a note stays as it was
    await as(t, "member", (q) => q`update notes set content_text = 'edited' where id = ${noteId}`);
    expect((await db.sql`select content_text, created_by from notes where id = ${noteId}`)[0]).toEqual({
      content_text: "edited",
      created_by: t.admin.id,
    });
  });

  test("the system still writes its notes in a member's transaction: a system note is created_by null, a member's note names them", async () => {
    const t = await createTenants(db.sql);
    const contact = await createContact(db.sql, t.a.id);
    await withUser(t.member.claims, async (tx) => {
      await addNote(tx, { workspaceId: t.a.id, contactId: contact.id, text: "merged", createdBy: null });
      await addNote(tx, { workspaceId: t.a.id, contactId: contact.id, text: "mine", createdBy: t.member.id });
      // the member's identity is back after the system note: RLS and auth.uid() apply again
      const [who] = await tx`select auth.uid() as uid, current_user as role`;
      expect(who).toEqual({ uid: t.member.id, role: "authenticated" });
    });
    const notes = await db.sql`select content_text, created_by from notes where contact_id = ${contact.id}
                                order by content_text`;
    expect(notes).toEqual([
      { content_text: "merged", created_by: null },
      { content_text: "mine", created_by: t.member.id },
    ]);
  });

  test("spec 3.6: a member's refund closes a review task with a system note", async () => {
    const t = await createTenants(db.sql);
    const contact = await createContact(db.sql, t.a.id);
    const [task] = await db.sql`
      insert into tasks (workspace_id, contact_id, title, kind, status, payproc_payment_intent_id)
      values (${t.a.id}, ${contact.id}, 'Review refund', 'refund_review', 'open', 'pi_authorship') returning id`;
    const closed = await withUser(t.member.claims, (tx) =>
      closeReviewTasks(tx, { workspaceId: t.a.id, paymentIntentId: "pi_authorship", reason: "Refunded" }),
    );
    expect(closed).toEqual([task.id]);
    expect(await db.sql`select created_by, type from notes where task_id = ${task.id}`).toEqual([
      { created_by: null, type: "task" },
    ]);
  });
});

describe("contacts, tasks, webhook endpoints, import mappings, invitations: the caller's name only", () => {
  test("a member POSTing a contact created and last changed by the owner is refused, and no contact is stored", async () => {
    const t = await createTenants(db.sql);
    for (const names of [
      db.sql`${t.a.owner.id}::uuid, null`,
      db.sql`null, ${t.a.owner.id}::uuid`,
      db.sql`${t.member.id}::uuid, ${t.a.owner.id}::uuid`,
    ])
      expect(
        await attempt(() =>
          as(
            t,
            "member",
            (q) => q`insert into contacts (workspace_id, email, created_by, updated_by)
                     values (${t.a.id}, 'posed@example.test', ${names})`,
          ),
        ),
      ).toEqual(refused);
    expect(await db.sql`select 1 from contacts where email = 'posed@example.test'`).toEqual([]);
    // without names, or in their own, the contact is theirs
    await as(
      t,
      "member",
      (q) => q`insert into contacts (workspace_id, email) values (${t.a.id}, 'mine@example.test')`,
    );
    expect(
      await db.sql`select created_by, updated_by from contacts where email = 'mine@example.test'`,
    ).toEqual([{ created_by: t.member.id, updated_by: t.member.id }]);
  });

  test("a member PATCHing a contact's creator is refused; its last modifier is always the caller", async () => {
    const t = await createTenants(db.sql);
    const contact = await createContact(db.sql, t.a.id);
    const [before] = await db.sql`select created_by from contacts where id = ${contact.id}`;
    expect(
      await attempt(() =>
        as(t, "member", (q) => q`update contacts set created_by = ${t.member.id} where id = ${contact.id}`),
      ),
    ).toEqual(refused);
    await as(
      t,
      "member",
      (q) => q`update contacts set first_name = 'Ada', updated_by = ${t.a.owner.id} where id = ${contact.id}`,
    );
    expect(
      (await db.sql`select created_by, updated_by, first_name from contacts where id = ${contact.id}`)[0],
    ).toEqual({ created_by: before.created_by, updated_by: t.member.id, first_name: "Ada" });
  });

  test("a member POSTing a task in the admin's name, or PATCHing a task's author, is refused", async () => {
    const t = await createTenants(db.sql);
    const posted = await attempt(() =>
      as(
        t,
        "member",
        (q) =>
          q`insert into tasks (workspace_id, title, created_by) values (${t.a.id}, 'Posed', ${t.admin.id})`,
      ),
    );
    expect(posted).toEqual(refused);
    expect(await db.sql`select 1 from tasks where title = 'Posed'`).toEqual([]);
    const [own] = await as(
      t,
      "member",
      (q) => q`insert into tasks (workspace_id, title, created_by) values (${t.a.id}, 'Mine', ${t.member.id})
               returning id`,
    );
    expect(
      await attempt(() =>
        as(t, "member", (q) => q`update tasks set created_by = ${t.admin.id} where id = ${own.id}`),
      ),
    ).toEqual(refused);
    expect((await db.sql`select created_by from tasks where id = ${own.id}`)[0].created_by).toBe(t.member.id);
  });

  test("an admin PATCHing a webhook endpoint's creator, or an invitation's inviter, to the owner is refused", async () => {
    const t = await createTenants(db.sql);
    const [endpoint] = await db.sql`
      insert into webhook_endpoints (workspace_id, url, event_types, secret_ciphertext, created_by)
      values (${t.a.id}, 'https://hooks.example.test/a', '{contact.created}', 'x', ${t.admin.id}) returning id`;
    expect(
      await attempt(() =>
        as(
          t,
          "admin",
          (q) => q`update webhook_endpoints set created_by = ${t.a.owner.id} where id = ${endpoint.id}`,
        ),
      ),
    ).toEqual(refused);
    expect(
      (await db.sql`select created_by from webhook_endpoints where id = ${endpoint.id}`)[0].created_by,
    ).toBe(t.admin.id);

    // invitations are written by the service door only (docs/decisions.md, "The second factor holds at
    // the database"): the admin's invitation is the door's row
    const [invitation] = await db.sql`
      insert into workspace_invitations (workspace_id, email, role, token_hash, invited_by, expires_at)
      values (${t.a.id}, 'new@example.test', 'member', ${"f".repeat(64)}, ${t.admin.id}, now() + interval '7 days')
      returning id`;
    expect(
      await attempt(() =>
        as(
          t,
          "admin",
          (q) => q`update workspace_invitations set invited_by = ${t.a.owner.id} where id = ${invitation.id}`,
        ),
      ),
    ).toEqual(refused);
    expect(
      (await db.sql`select invited_by from workspace_invitations where id = ${invitation.id}`)[0],
    ).toEqual({
      invited_by: t.admin.id,
    });
  });

  test("a member saving an import mapping in the owner's name is refused; saving it again names the caller", async () => {
    const t = await createTenants(db.sql);
    const save = (by: string) =>
      attempt(() =>
        as(
          t,
          "member",
          (q) => q`insert into import_mappings (workspace_id, header_digest, headers, mapping, updated_by)
                   values (${t.a.id}, ${"a".repeat(64)}, '{Email}', '{"Email": "email"}', ${by})
                   on conflict (workspace_id, header_digest) do update set updated_by = excluded.updated_by`,
        ),
      );
    expect(await save(t.a.owner.id)).toEqual(refused);
    expect(await db.sql`select 1 from import_mappings where workspace_id = ${t.a.id}`).toEqual([]);
    expect((await save(t.member.id)).ok).toBe(true);
    expect(
      await attempt(() =>
        as(
          t,
          "admin",
          (q) => q`update import_mappings set updated_by = ${t.a.owner.id} where workspace_id = ${t.a.id}`,
        ),
      ),
    ).toEqual(refused);
    expect((await db.sql`select updated_by from import_mappings where workspace_id = ${t.a.id}`)[0]).toEqual({
      updated_by: t.member.id,
    });
  });
});
