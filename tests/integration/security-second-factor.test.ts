import { describe, expect, test } from "vitest";
import { withUser, type Claims, type Db } from "@/lib/db/doors";
import { rotateWebhookSecret } from "@/lib/webhooks/outbound/rotate-webhook-secret";
import { changeMemberRole } from "@/lib/workspaces/change-member-role";
import { inviteMember } from "@/lib/workspaces/invite-member";
import { resendInvitation, revokeInvitation } from "@/lib/workspaces/manage-invitation";
import { setupTestDatabase } from "../helpers/db";
import { addMember, auditRowsOf, createContact, createWorkspace } from "../helpers/factories";
import { attempt } from "../helpers/rls";

/**
 * The second factor holds at the database (docs/decisions.md, "The second factor holds at the
 * database"; "Members' writes to transactions are audited, not revoked"). Each test acts as PostgREST
 * would: role authenticated with the member's JWT claims (withUser), and reads the outcome back from
 * the database.
 */
const db = setupTestDatabase();

const at = (claims: Claims, aal: "aal1" | "aal2" | undefined): Claims => ({ ...claims, aal });

async function requiringWorkspace() {
  const ws = await createWorkspace(db.sql);
  await db.sql`insert into workspace_security (workspace_id, require_two_factor) values (${ws.id}, true)`;
  return ws;
}

describe("an aal1 token in a workspace that requires two-factor", () => {
  test("reads and writes nothing of that workspace, keeps another workspace of theirs that does not require it, and works at aal2", async () => {
    const strict = await requiringWorkspace();
    const relaxed = await createWorkspace(db.sql);
    const member = await addMember(db.sql, strict.id, "admin");
    await addMember(db.sql, relaxed.id, "member", member);
    const strictContact = await createContact(db.sql, strict.id);
    const relaxedContact = await createContact(db.sql, relaxed.id);

    for (const aal of ["aal1", undefined] as const) {
      const claims = at(member.claims, aal);
      const label = aal ?? "no aal";
      const seen = await withUser(
        claims,
        (q) => q`select id from contacts where workspace_id = ${strict.id}`,
      );
      expect(seen, label).toHaveLength(0);
      const ws = await withUser(claims, (q) => q`select id from workspaces where id = ${strict.id}`);
      expect(ws, label).toHaveLength(0);
      const members = await withUser(
        claims,
        (q) => q`select 1 from workspace_members where workspace_id = ${strict.id}`,
      );
      expect(members, label).toHaveLength(0);
      const insert = await attempt(() =>
        withUser(
          claims,
          (q) => q`insert into contacts (workspace_id, email) values (${strict.id}, 'aal1@example.test')`,
        ),
      );
      expect(insert, label).toEqual({ ok: false, code: "42501" });
      const update = await withUser(
        claims,
        (q) => q`update contacts set first_name = 'Mallory' where id = ${strictContact.id} returning id`,
      );
      expect(update, label).toHaveLength(0);
      const removed = await withUser(
        claims,
        (q) => q`delete from contacts where id = ${strictContact.id} returning id`,
      );
      expect(removed, label).toHaveLength(0);

      // their other workspace, which does not require two-factor, is theirs as before
      const other = await withUser(
        claims,
        (q) => q`select id from contacts where workspace_id = ${relaxed.id}`,
      );
      expect(
        other.map((r) => r.id),
        label,
      ).toEqual([relaxedContact.id]);
    }
    expect(await db.sql`select first_name from contacts where id = ${strictContact.id}`).toEqual([
      { first_name: null },
    ]);
    expect(await db.sql`select 1 from contacts where workspace_id = ${strict.id}`).toHaveLength(1);
    await withUser(
      at(member.claims, "aal1"),
      (q) => q`insert into contacts (workspace_id, email) values (${relaxed.id}, 'aal1-ok@example.test')`,
    );
    expect(await db.sql`select 1 from contacts where email = 'aal1-ok@example.test'`).toHaveLength(1);

    // the same member at aal2 reaches the requiring workspace
    const strong = at(member.claims, "aal2");
    const seen = await withUser(strong, (q) => q`select id from contacts where workspace_id = ${strict.id}`);
    expect(seen.map((r) => r.id)).toEqual([strictContact.id]);
    await withUser(
      strong,
      (q) => q`insert into contacts (workspace_id, email) values (${strict.id}, 'aal2@example.test')`,
    );
    expect(await db.sql`select 1 from contacts where email = 'aal2@example.test'`).toHaveLength(1);
  });

  test("every RLS-enabled workspace table is closed at aal1 by a policy: the restrictive second-factor one, or member policies that all decide by user_workspace_ids() (a new table with neither fails here)", async () => {
    const tables = await db.sql<{ table: string; restrictive: boolean; by_membership: boolean }[]>`
      select c.relname as table,
        exists (select 1 from pg_policy p
                where p.polrelid = c.oid and p.polname = c.relname || '_second_factor'
                  and not p.polpermissive and p.polcmd = '*'
                  and p.polroles = array[(select oid from pg_roles where rolname = 'authenticated')]::oid[]) as restrictive,
        exists (select 1 from pg_policies o where o.schemaname = 'public' and o.tablename = c.relname
                  and o.permissive = 'PERMISSIVE')
        and not exists (
          select 1 from pg_policies o
          where o.schemaname = 'public' and o.tablename = c.relname and o.permissive = 'PERMISSIVE'
            and 'authenticated' = any (o.roles)
            and (coalesce(o.qual, '') !~ ${MEMBERSHIP_QUAL}
                 or coalesce(o.with_check, o.qual) !~ ${MEMBERSHIP_QUAL})) as by_membership
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and c.relrowsecurity
        and (c.relname = 'workspaces' or exists (
          select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'workspace_id' and not a.attisdropped))
      order by 1`;
    expect(tables.length).toBeGreaterThan(20);
    expect(tables.filter((t) => !t.restrictive && !t.by_membership).map((t) => t.table)).toEqual([]);
    // the hot tables decide by membership alone: a second barrier qual cost their lists 2-4× (docs/performance.md)
    expect(tables.filter((t) => ["contacts", "contact_tags"].includes(t.table))).toMatchObject([
      { table: "contact_tags", restrictive: false, by_membership: true },
      { table: "contacts", restrictive: false, by_membership: true },
    ]);
  });
});

/** A member policy that decides by membership: user_workspace_ids() leaves out the workspaces the token lacks the second factor for. */
const MEMBERSHIP_QUAL = String.raw`^\(workspace_id IN \( SELECT (public\.)?user_workspace_ids\(\) AS user_workspace_ids\)\)$`;

describe("admin writes only the service door makes", () => {
  async function openInvitation(workspaceId: string, invitedBy: string) {
    const [inv] = await db.sql`
      insert into workspace_invitations (workspace_id, email, role, token_hash, invited_by, expires_at, revoked_at)
      values (${workspaceId}, ${`inv-${Math.random().toString(36).slice(2)}@example.test`}, 'member',
              ${"b".repeat(64)}, ${invitedBy}, now() + interval '7 days', now())
      returning id, token_hash, expires_at, revoked_at`;
    return inv;
  }

  test("an admin's direct update of an invitation's revoked_at, expires_at or token_hash, or direct insert of one, is refused", async () => {
    const ws = await createWorkspace(db.sql);
    const admin = await addMember(db.sql, ws.id, "admin");
    const inv = await openInvitation(ws.id, ws.owner.id);
    const writes: [string, (q: Db) => Promise<unknown>][] = [
      ["un-revoke", (q) => q`update workspace_invitations set revoked_at = null where id = ${inv.id}`],
      [
        "never expire",
        (q) => q`update workspace_invitations set expires_at = 'infinity' where id = ${inv.id}`,
      ],
      [
        "chosen token",
        (q) => q`update workspace_invitations set token_hash = ${"c".repeat(64)} where id = ${inv.id}`,
      ],
      [
        "insert",
        (
          q,
        ) => q`insert into workspace_invitations (workspace_id, email, role, token_hash, invited_by, expires_at)
                 values (${ws.id}, 'direct@example.test', 'admin', ${"d".repeat(64)}, ${admin.id}, 'infinity')`,
      ],
    ];
    for (const [label, write] of writes)
      for (const who of [admin, ws.owner])
        expect(await attempt(() => withUser(at(who.claims, "aal2"), write)), label).toEqual({
          ok: false,
          code: "42501",
        });
    const [after] =
      await db.sql`select token_hash, expires_at, revoked_at from workspace_invitations where id = ${inv.id}`;
    expect(after).toEqual({
      token_hash: inv.token_hash,
      expires_at: inv.expires_at,
      revoked_at: inv.revoked_at,
    });
    expect(
      await db.sql`select 1 from workspace_invitations where email = 'direct@example.test'`,
    ).toHaveLength(0);
  });

  test("an admin's or owner's direct update of workspace_members.role is refused", async () => {
    const ws = await createWorkspace(db.sql);
    const admin = await addMember(db.sql, ws.id, "admin");
    const member = await addMember(db.sql, ws.id, "member");
    for (const who of [admin, ws.owner]) {
      const r = await attempt(() =>
        withUser(
          at(who.claims, "aal2"),
          (q) =>
            q`update workspace_members set role = 'admin' where workspace_id = ${ws.id} and user_id = ${member.id}`,
        ),
      );
      expect(r).toEqual({ ok: false, code: "42501" });
    }
    expect(await db.sql`select role from workspace_members where user_id = ${member.id}`).toEqual([
      { role: "member" },
    ]);
  });

  test("the app's own flows still invite, resend, revoke and change roles through the service door, with the role rules", async () => {
    const ws = await createWorkspace(db.sql);
    const admin = await addMember(db.sql, ws.id, "admin");
    const member = await addMember(db.sql, ws.id, "member");
    const asAdmin = <T>(fn: (tx: Db) => Promise<T>) => withUser(at(admin.claims, "aal2"), fn);

    const invited = await asAdmin((tx) =>
      inviteMember(tx, { workspaceId: ws.id, email: "new@example.test", role: "member" }),
    );
    expect(invited).toMatchObject({ data: { email: "new@example.test", role: "member" } });
    const [row] =
      await db.sql`select id, invited_by, token_hash from workspace_invitations where email = 'new@example.test'`;
    expect(row.invited_by).toBe(admin.id);
    // an admin invites no owner, and cannot turn an open owner invitation into another
    expect(
      await asAdmin((tx) =>
        inviteMember(tx, { workspaceId: ws.id, email: "boss@example.test", role: "owner" }),
      ),
    ).toMatchObject({ error: { code: "forbidden" } });

    expect(
      await asAdmin((tx) => resendInvitation(tx, { workspaceId: ws.id, invitationId: row.id })),
    ).toMatchObject({
      data: { email: "new@example.test" },
    });
    const [resent] = await db.sql`select token_hash from workspace_invitations where id = ${row.id}`;
    expect(resent.token_hash).not.toBe(row.token_hash);
    expect(
      await asAdmin((tx) => revokeInvitation(tx, { workspaceId: ws.id, invitationId: row.id })),
    ).toMatchObject({
      data: { email: "new@example.test" },
    });
    const [revoked] = await db.sql`select revoked_at from workspace_invitations where id = ${row.id}`;
    expect(revoked.revoked_at).not.toBeNull();

    expect(
      await asAdmin((tx) => changeMemberRole(tx, { workspaceId: ws.id, userId: member.id, role: "admin" })),
    ).toMatchObject({ data: { role: "admin" } });
    expect(
      await asAdmin((tx) => changeMemberRole(tx, { workspaceId: ws.id, userId: member.id, role: "owner" })),
    ).toMatchObject({ error: { code: "forbidden" } });
    expect(await db.sql`select role from workspace_members where user_id = ${member.id}`).toEqual([
      { role: "admin" },
    ]);
    // the caller's role stays whatever the door switched: the transaction is the member's again
    expect(await asAdmin(async (tx) => (await tx`select current_user as u`)[0].u)).toBe("authenticated");
  });
});

describe("members' direct writes to transactions", () => {
  test("a plain member's direct insert, update and delete of a transaction each write an audit row naming them", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await addMember(db.sql, ws.id, "member");
    const claims = at(member.claims, "aal2");
    const [tx] = await withUser(
      claims,
      (q) =>
        q`insert into transactions (workspace_id, amount_paid, currency) values (${ws.id}, 25, 'usd') returning id`,
    );
    await withUser(
      claims,
      (q) => q`update transactions set status = 'refunded', amount_refunded = 25 where id = ${tx.id}`,
    );
    await withUser(claims, (q) => q`delete from transactions where id = ${tx.id}`);

    const rows = await auditRowsOf(db.sql, tx.id);
    expect(rows.map((r) => [r.action, r.actor_id])).toEqual([
      ["transaction.created", member.id],
      ["transaction.deleted", member.id],
      ["transaction.updated", member.id],
    ]);
    const [updated] = await db.sql`
      select workspace_id, actor_email, target_type, before, after from audit_log
      where target_id = ${tx.id} and action = 'transaction.updated'`;
    expect(updated).toMatchObject({
      workspace_id: ws.id,
      actor_email: member.email,
      target_type: "transaction",
      before: { status: "succeeded", amount_refunded: 0 },
      after: { status: "refunded", amount_refunded: 25 },
    });
  });

  test("the service's writes (payment webhooks, backfills) are not logged as a member's", async () => {
    const ws = await createWorkspace(db.sql);
    const [tx] =
      await db.sql`insert into transactions (workspace_id, amount_paid) values (${ws.id}, 10) returning id`;
    await db.sql`update transactions set status = 'refunded', amount_refunded = 10 where id = ${tx.id}`;
    expect(await auditRowsOf(db.sql, tx.id)).toEqual([]);
  });
});

describe("an aal1 token beneath the policies: /rpc functions and the service path decide membership at the token's level", () => {
  /** An admin of A (requires two-factor) and of C (does not), with an endpoint and a contact in each. */
  async function adminOfTwo() {
    const a = await requiringWorkspace();
    const c = await createWorkspace(db.sql);
    const admin = await addMember(db.sql, a.id, "admin");
    await addMember(db.sql, c.id, "admin", admin);
    const seed = async (ws: string) => {
      const [endpoint] = await db.sql`
        insert into webhook_endpoints (workspace_id, url, event_types, secret_ciphertext)
        values (${ws}, 'https://hooks.example.test/a', '{contact.created}', 'x') returning id`;
      const [delivery] = await db.sql`
        insert into webhook_deliveries (workspace_id, endpoint_id, event_type, payload)
        values (${ws}, ${endpoint.id}, 'webhook.test', '{}') returning id`;
      await createContact(db.sql, ws, { email: `ada-${ws.slice(0, 8)}@example.test`, first_name: "Ada" });
      return { endpoint: endpoint.id as string, delivery: delivery.id as string };
    };
    return { a, c, admin, inA: await seed(a.id), inC: await seed(c.id) };
  }
  const deliveriesIn = async (ws: string) =>
    (await db.sql`select count(*)::int as n from webhook_deliveries where workspace_id = ${ws}`)[0].n;

  test("search_contacts, send_webhook_test_event and replay_webhook_delivery answer nothing of the workspace that requires two-factor at aal1, and the other workspace's as before", async () => {
    const { a, c, admin, inA, inC } = await adminOfTwo();
    const calls = (aal: "aal1" | "aal2", ws: string, ids: { endpoint: string; delivery: string }) =>
      withUser(at(admin.claims, aal), async (tx) => ({
        found: (await tx`select id from public.search_contacts(${ws}, array['%ada%'])`).length,
        tested: (await tx`select public.send_webhook_test_event(${ids.endpoint}) as id`)[0].id !== null,
        replayed: (await tx`select public.replay_webhook_delivery(${ids.delivery}) as id`)[0].id !== null,
      }));
    const before = await deliveriesIn(a.id);
    expect(await calls("aal1", a.id, inA)).toEqual({ found: 0, tested: false, replayed: false });
    expect(await deliveriesIn(a.id)).toBe(before);
    expect(await calls("aal1", c.id, inC)).toEqual({ found: 1, tested: true, replayed: true });
    expect(await calls("aal2", a.id, inA)).toEqual({ found: 1, tested: true, replayed: true });
    expect(await deliveriesIn(a.id)).toBe(before + 2);
  });

  test("the service path for members (asServiceForMember) refuses an aal1 token in the workspace that requires two-factor: an admin rotates no signing secret there", async () => {
    const { a, admin, inA } = await adminOfTwo();
    const secretOf = async () =>
      (await db.sql`select secret_ciphertext from webhook_endpoints where id = ${inA.endpoint}`)[0]
        .secret_ciphertext;
    const rotate = (aal: "aal1" | "aal2") =>
      attempt(() =>
        withUser(at(admin.claims, aal), (tx) =>
          rotateWebhookSecret(tx, { workspaceId: a.id, endpointId: inA.endpoint }),
        ),
      );
    expect(await rotate("aal1")).toEqual({ ok: false, code: "not_found" });
    expect(await secretOf()).toBe("x");
    expect(await rotate("aal2")).toMatchObject({ ok: true, value: { data: { secret: expect.any(String) } } });
    expect(await secretOf()).not.toBe("x");
  });

  test("every table with a workspace_id has row-level security (so the second-factor policy applies to it)", async () => {
    const open = await db.sql`
      select c.relname from pg_class c
      where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and not c.relrowsecurity
        and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'workspace_id' and not a.attisdropped)`;
    expect(open).toEqual([]);
  });
});
