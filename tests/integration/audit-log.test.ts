import { describe, expect, test } from "vitest";
import { z } from "zod";
import { auditLogFilter, parseAuditLogQuery } from "@/lib/audit/audit-log-query";
import { listAuditLog, type AuditLogFilter } from "@/lib/audit/list-audit-log";
import { withService, withUser, type Claims, type Db } from "@/lib/db/doors";
import { AppError, unwrap } from "@/lib/errors/app-error";
import { createTag } from "@/lib/tags/create-tag";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createUser, createWorkspace, type TestWorkspace } from "../helpers/factories";
import { signIn } from "../helpers/member-session";
import { attempt } from "../helpers/rls";

// after member-session: the adapter and the route read the mocked session and headers
const { memberAction } = await import("@/lib/adapters/member-action");
const exportRoute = await import("@/app/api/audit/export/route");
const { default: AuditLogPage } = await import("@/app/(dashboard)/settings/audit/page");

const db = setupTestDatabase();

/** A test-only action through the real adapter: creates a tag, then refuses when asked to. */
const tagThenMaybeRefuse = memberAction(
  z.object({
    name: z.string(),
    refuse: z.boolean().optional(),
    password: z.string().optional(),
    email: z.string().optional(),
  }),
  async (tx, input, ctx) => {
    const tag = unwrap(await createTag(tx, { workspaceId: ctx.workspaceId, name: input.name }));
    ctx.audit.target("tag", tag.id);
    if (input.refuse) throw new AppError("conflict", "Refused after writing the tag.");
    return { data: tag };
  },
  { audit: "tag.created" },
);

/** Rows arranged as the superuser (created_at given, so order and days are known). */
async function logRows(ws: TestWorkspace, rows: Record<string, unknown>[]) {
  for (const row of rows)
    await db.sql`insert into audit_log ${db.sql({
      workspace_id: ws.id,
      actor_id: ws.owner.id,
      actor_email: ws.owner.email,
      action: "tag.created",
      ...row,
    } as never)}`;
}

const auditRows = (workspaceId: string) =>
  db.sql`select id::text, actor_id, actor_email, action, target_type, target_id, before, after,
                host(ip) as ip, created_at
         from audit_log where workspace_id = ${workspaceId} order by id`;

const exportAs = (claims: Claims, query = "") => {
  signIn(claims);
  return exportRoute.GET(new Request(`http://localhost/api/audit/export${query}`), {
    params: Promise.resolve({}),
  });
};

describe("audit log", () => {
  test("audit rows are append-only", async () => {
    const ws = await createWorkspace(db.sql);
    await logRows(ws, [{ target_id: "a" }, { target_id: "b" }]);
    const before = await auditRows(ws.id);
    const attempts = {
      update: `update public.audit_log set action = 'tag.deleted', actor_email = 'someone@else.test' where workspace_id = '${ws.id}'`,
      delete: `delete from public.audit_log where workspace_id = '${ws.id}'`,
      truncate: `truncate public.audit_log`,
    };
    const doors: Record<string, (fn: (tx: Db) => Promise<unknown>) => Promise<unknown>> = {
      authenticated: (fn) => withUser(ws.owner.claims, fn),
      service_role: (fn) => withService(fn),
      // the table owner and superuser: privileges do not apply, the trigger does
      superuser: (fn) => db.sql.begin((tx) => fn(tx as unknown as Db)),
    };
    for (const [door, run] of Object.entries(doors))
      for (const [op, statement] of Object.entries(attempts)) {
        const outcome = await attempt(() => run((tx) => tx.unsafe(statement)));
        expect(outcome, `${op} as ${door}`).toEqual({ ok: false, code: "42501" });
      }
    expect(await auditRows(ws.id)).toEqual(before);

    // the one delete allowed: the workspace goes, and its log with it
    const other = await createWorkspace(db.sql);
    await logRows(other, [{ target_id: "kept" }]);
    await db.sql`delete from workspaces where id = ${ws.id}`;
    expect(await auditRows(ws.id)).toEqual([]);
    expect(await auditRows(other.id)).toHaveLength(1);
  });

  test("only owners read the audit log", async () => {
    const ws = await createWorkspace(db.sql);
    const admin = await addMember(db.sql, ws.id, "admin");
    const member = await addMember(db.sql, ws.id, "member");
    const elsewhere = await createWorkspace(db.sql);
    await logRows(ws, [{ target_id: "1" }, { target_id: "2" }]);
    const visible = (claims: Claims) =>
      withUser(claims, async (tx) => {
        const [{ n }] = await tx`select count(*)::int as n from audit_log where workspace_id = ${ws.id}`;
        const page = await listAuditLog(tx, { workspaceId: ws.id });
        return [n, page.rows.length];
      });
    expect(await visible(ws.owner.claims)).toEqual([2, 2]);
    expect(await visible(admin.claims)).toEqual([0, 0]);
    expect(await visible(member.claims)).toEqual([0, 0]);
    expect(await visible(elsewhere.owner.claims)).toEqual([0, 0]);

    // the page: the same not-found as any page that is not theirs
    const openPage = (claims: Claims) => {
      signIn(claims);
      return AuditLogPage({ searchParams: Promise.resolve({}) });
    };
    await expect(openPage(ws.owner.claims)).resolves.toBeTruthy();
    for (const refused of [admin, member])
      await expect(openPage(refused.claims)).rejects.toMatchObject({
        digest: "NEXT_HTTP_ERROR_FALLBACK;404",
      });

    // the export route: owners only; a refusal exports nothing and audits nothing
    for (const refused of [admin, member]) {
      const res = await exportAs(refused.claims);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({
        success: false,
        error: "Only owners can see the audit log.",
        code: "forbidden",
      });
    }
    signIn(null);
    expect(
      (
        await exportRoute.GET(new Request("http://localhost/api/audit/export"), {
          params: Promise.resolve({}),
        })
      ).status,
    ).toBe(401);
    expect((await auditRows(ws.id)).map((r) => r.action)).toEqual(["tag.created", "tag.created"]);
    // an owner of another workspace exports their own (empty) log, never this one
    const theirs = await exportAs(elsewhere.owner.claims);
    expect(theirs.status).toBe(200);
    expect((await theirs.text()).trimEnd().split("\r\n")).toHaveLength(1);
  });

  test("a member cannot forge an audit row for someone else or another workspace", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await addMember(db.sql, ws.id, "member");
    const other = await createWorkspace(db.sql);
    const row = (fields: Record<string, unknown>) => ({
      workspace_id: ws.id,
      actor_id: member.id,
      actor_email: member.email,
      action: "contact.deleted",
      ...fields,
    });
    const insert = (fields: Record<string, unknown>) =>
      attempt(() => withUser(member.claims, (tx) => tx`insert into audit_log ${tx(row(fields) as never)}`));
    const count = async () => (await db.sql`select count(*)::int as n from audit_log`)[0].n;
    const start = await count();
    // a row about themselves, in their workspace, at the time of writing: what the adapter writes
    expect((await insert({})).ok).toBe(true);
    expect(await insert({ actor_id: ws.owner.id })).toEqual({ ok: false, code: "42501" });
    expect(await insert({ actor_id: null })).toEqual({ ok: false, code: "42501" });
    expect(await insert({ actor_email: ws.owner.email })).toEqual({ ok: false, code: "42501" });
    expect(await insert({ workspace_id: other.id })).toEqual({ ok: false, code: "42501" });
    expect(await insert({ created_at: new Date("2020-01-01T00:00:00Z") })).toEqual({
      ok: false,
      code: "42501",
    });
    expect(await count()).toBe(start + 1);
  });

  test("the adapter writes the row in the change's transaction", async () => {
    const ws = await createWorkspace(db.sql);
    const tags = async () =>
      (await db.sql`select name from tags where workspace_id = ${ws.id}`).map((r) => r.name);

    signIn(ws.owner.claims, { "x-forwarded-for": "203.0.113.7" });
    expect(await tagThenMaybeRefuse({ name: "Rolled back", refuse: true })).toEqual({
      message: "Refused after writing the tag.",
      code: "conflict",
    });
    expect(await tags()).toEqual([]);
    expect(await auditRows(ws.id)).toEqual([]);

    const done = await tagThenMaybeRefuse({ name: "Kept", password: "hunter2", email: "ada@example.test" });
    if (!("data" in done)) throw new Error(JSON.stringify(done));
    expect(await tags()).toEqual(["Kept"]);
    const rows = await auditRows(ws.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actor_id: ws.owner.id,
      actor_email: ws.owner.email,
      action: "tag.created",
      target_type: "tag",
      target_id: done.data.id,
      before: null,
      after: { name: "Kept", password: "[redacted]", email: "[changed]" },
      ip: "203.0.113.7",
    });
    expect(JSON.stringify(rows[0])).not.toMatch(/hunter2|ada@example/);
  });
});

describe("listing, filtering and exporting the audit log", () => {
  const list = (ws: TestWorkspace, filter: Omit<AuditLogFilter, "workspaceId"> = {}) =>
    withUser(ws.owner.claims, (tx) => listAuditLog(tx, { workspaceId: ws.id, ...filter }));
  const targets = (rows: { target_id: string | null }[]) => rows.map((r) => r.target_id);

  test("newest first, a keyset page at a time, ties broken by id", async () => {
    const ws = await createWorkspace(db.sql);
    const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 12, minute));
    // two rows share an instant: the cursor must neither skip nor repeat one
    await logRows(ws, [
      { target_id: "t1", created_at: at(1) },
      { target_id: "t2", created_at: at(2) },
      { target_id: "t3", created_at: at(2) },
      { target_id: "t4", created_at: at(3) },
      { target_id: "t5", created_at: at(4) },
    ]);
    const first = await list(ws, { limit: 2 });
    expect(targets(first.rows)).toEqual(["t5", "t4"]);
    const second = await list(ws, { limit: 2, before: first.older! });
    expect(targets(second.rows)).toEqual(["t3", "t2"]);
    const third = await list(ws, { limit: 2, before: second.older! });
    expect(targets(third.rows)).toEqual(["t1"]);
    expect(third.older).toBeNull();
    // a cursor from another workspace's log gives nothing, not that workspace's position
    const other = await createWorkspace(db.sql);
    await logRows(other, [{ target_id: "x" }]);
    const [{ id: foreign }] = await db.sql`select id::text from audit_log where workspace_id = ${other.id}`;
    expect((await list(ws, { before: foreign })).rows).toEqual([]);
  });

  test("filters: an action or a target's prefix, a member, a target id", async () => {
    const ws = await createWorkspace(db.sql);
    const admin = await addMember(db.sql, ws.id, "admin");
    await logRows(ws, [
      { action: "contact.created", target_type: "contact", target_id: "c1" },
      { action: "contact.updated", target_type: "contact", target_id: "c1", actor_id: admin.id },
      { action: "contacts.imported", target_type: "contacts", target_id: null },
      { action: "api_key.created", target_type: "api_key", target_id: "k1" },
      { action: "tag.created", target_type: "tag", target_id: "g1", actor_id: admin.id },
    ]);
    const actions = async (filter: Omit<AuditLogFilter, "workspaceId">) =>
      (await list(ws, filter)).rows.map((r) => r.action).sort();
    expect(await actions({ action: "contact.updated" })).toEqual(["contact.updated"]);
    // "contact." is every contact action, not contacts.imported
    expect(await actions({ action: "contact." })).toEqual(["contact.created", "contact.updated"]);
    // the prefix is literal: "_" in api_key. matches no other character
    expect(await actions({ action: "api_key." })).toEqual(["api_key.created"]);
    expect(await actions({ actorId: admin.id })).toEqual(["contact.updated", "tag.created"]);
    expect(await actions({ targetId: "c1" })).toEqual(["contact.created", "contact.updated"]);
    expect(await actions({ actorId: admin.id, action: "contact." })).toEqual(["contact.updated"]);
  });

  test("a day range is read in the viewer's time zone", async () => {
    const owner = await createUser(db.sql, { timezone: "America/New_York" });
    const ws = await createWorkspace(db.sql, { owner });
    await logRows(ws, [
      { target_id: "28 Feb, 23:30 in New York", created_at: new Date("2026-03-01T04:30:00Z") },
      { target_id: "1 Mar, 00:30 in New York", created_at: new Date("2026-03-01T05:30:00Z") },
      { target_id: "1 Mar, 23:30 in New York", created_at: new Date("2026-03-02T04:30:00Z") },
      { target_id: "2 Mar, 00:30 in New York", created_at: new Date("2026-03-02T05:30:00Z") },
    ]);
    const days = (from?: string, to?: string) =>
      list(
        ws,
        auditLogFilter(parseAuditLogQuery({ from, to }), {
          workspaceId: ws.id,
          timeZone: "America/New_York",
        }),
      );
    expect(targets((await days("2026-03-01", "2026-03-01")).rows)).toEqual([
      "1 Mar, 23:30 in New York",
      "1 Mar, 00:30 in New York",
    ]);
    expect(targets((await days(undefined, "2026-02-28")).rows)).toEqual(["28 Feb, 23:30 in New York"]);
    expect(targets((await days("2026-03-02")).rows)).toEqual(["2 Mar, 00:30 in New York"]);
  });

  test("the CSV export: the filtered rows, every batch, formulae neutralised, and the export audited", async () => {
    const ws = await createWorkspace(db.sql);
    await logRows(ws, [
      ...Array.from({ length: 1_203 }, (_, i) => ({
        action: "contact.updated",
        target_type: "contact",
        target_id: `c${i}`,
        created_at: new Date(Date.UTC(2026, 0, 1) + i * 1_000),
      })),
      {
        action: "tag.renamed",
        target_type: "tag",
        // a target id or a name a spreadsheet would run as a formula
        target_id: '=HYPERLINK("http://evil.example")',
        before: { name: "@SUM(A1)" },
        after: { name: "VIP" },
        ip: "198.51.100.4",
      },
    ]);
    const res = await exportAs(ws.owner.claims, "?action=contact.");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = (await res.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe("time,actor_email,actor_id,action,target_type,target_id,change,before,after,ip");
    expect(lines).toHaveLength(1 + 1_203);
    expect(lines[1]).toContain(",contact.updated,contact,c1202,");
    expect(lines.at(-1)).toContain(",contact.updated,contact,c0,");
    expect(new Set(lines.slice(1).map((l) => l.split(",")[5])).size).toBe(1_203);

    const tagged = (await (await exportAs(ws.owner.claims, "?action=tag.renamed")).text())
      .trimEnd()
      .split("\r\n");
    expect(tagged).toHaveLength(2);
    expect(tagged[1]).toContain(`,tag,"'=HYPERLINK(""http://evil.example"")",name: @SUM(A1) → VIP,`);
    expect(tagged[1]).not.toMatch(/,[=+\-@]/);
    expect(tagged[1].endsWith(",198.51.100.4")).toBe(true);

    // each export is itself a row of the log, with its filters
    const exported = await db.sql`
      select actor_id, target_type, after from audit_log
      where workspace_id = ${ws.id} and action = 'audit.exported' order by id`;
    expect(exported).toEqual([
      { actor_id: ws.owner.id, target_type: "audit_log", after: { action: "contact." } },
      { actor_id: ws.owner.id, target_type: "audit_log", after: { action: "tag.renamed" } },
    ]);
  });
});
