import { describe, expect, test } from "vitest";
import { signValue } from "@/lib/auth/tokens";
import { withService, withUser } from "@/lib/db/doors";
import { sendEmail } from "@/lib/email/send-email";
import { completeStripeConnection } from "@/lib/payments/flows/complete-stripe-connection";
import { STRIPE_CONNECT_PURPOSE } from "@/lib/payments/stripe-connect";
import { changeMemberRole } from "@/lib/workspaces/change-member-role";
import { setupTestDatabase } from "../helpers/db";
import { refusal } from "../helpers/refusal";
import { createContact, createUser, createWorkspace, unique } from "../helpers/factories";
import { setupStripeFake } from "../helpers/payments";
import { as, attempt, createTenants } from "../helpers/rls";

// The README's threat model: a member may skip the dashboard and reach the database through
// Supabase's REST API with their own JWT. PostgREST runs each request as `set local role
// authenticated` with the JWT's claims, which is exactly what withUser (and `as`) does, so each
// attack below is what a PATCH or POST to /rest/v1/<table> would do.
const db = setupTestDatabase();
const stripe = setupStripeFake();

const hex64 = () =>
  unique("")
    .replace(/[^0-9a-f]/g, "")
    .padEnd(64, "a")
    .slice(0, 64);

describe("workspace_members: only the role of a membership changes", () => {
  const membership = (workspaceId: string, userId: string) =>
    db.sql`select user_id, role, created_at from workspace_members
           where workspace_id = ${workspaceId} and user_id = ${userId}`;

  test("an admin PATCHing their second account's membership to a victim's user_id and the year 2000 is refused, and the row is unchanged", async () => {
    const t = await createTenants(db.sql);
    const second = t.member; // the admin's own second account, a member of A
    const victim = await createUser(db.sql);
    const before = await membership(t.a.id, second.id);
    const patched = await attempt(() =>
      as(
        t,
        "admin",
        (q) => q`update workspace_members set user_id = ${victim.id}, created_at = '2000-01-01'
                 where workspace_id = ${t.a.id} and user_id = ${second.id} returning 1`,
      ),
    );
    expect(patched).toEqual({ ok: false, code: "42501" });
    expect(await membership(t.a.id, second.id)).toEqual(before);
    expect(await db.sql`select 1 from workspace_members where user_id = ${victim.id}`).toEqual([]);
  });

  test("an owner PATCHing a membership's created_at (to become the default workspace) or its workspace_id is refused", async () => {
    const t = await createTenants(db.sql);
    const before = await membership(t.a.id, t.member.id);
    for (const change of [
      db.sql`created_at = '2000-01-01'`,
      db.sql`workspace_id = ${t.b.id}`,
      db.sql`user_id = ${t.admin.id}`,
    ])
      expect(
        await attempt(() =>
          as(t, "owner", (q) => q`update workspace_members set ${change} where user_id = ${t.member.id}`),
        ),
      ).toEqual({ ok: false, code: "42501" });
    expect(await membership(t.a.id, t.member.id)).toEqual(before);
  });

  test("not even the service door moves a membership to another user (a bug there cannot hand one over)", async () => {
    const t = await createTenants(db.sql);
    const victim = await createUser(db.sql);
    const moved = await attempt(() =>
      withService(
        (q) => q`update workspace_members set user_id = ${victim.id}
                 where workspace_id = ${t.a.id} and user_id = ${t.member.id}`,
      ),
    );
    expect(moved).toEqual({ ok: false, code: "42501" });
    expect(await db.sql`select 1 from workspace_members where user_id = ${victim.id}`).toEqual([]);
  });

  test("the role changes only through the service door: a direct update is refused, changeMemberRole promotes, and only an owner makes an owner", async () => {
    const t = await createTenants(db.sql);
    // docs/decisions.md, "The second factor holds at the database": no member holds UPDATE of the role
    for (const caller of ["admin", "owner"] as const)
      expect(
        await attempt(() =>
          as(t, caller, (q) => q`update workspace_members set role = 'admin' where user_id = ${t.member.id}`),
        ),
      ).toEqual({ ok: false, code: "42501" });
    const admin = t.admin.claims;
    expect(
      await withUser(admin, (tx) =>
        changeMemberRole(tx, { workspaceId: t.a.id, userId: t.member.id, role: "admin" }),
      ),
    ).toMatchObject({ data: { role: "admin" } });
    expect(
      await withUser(admin, (tx) =>
        changeMemberRole(tx, { workspaceId: t.a.id, userId: t.member.id, role: "owner" }),
      ),
    ).toMatchObject({ error: { code: "forbidden" } });
    expect((await membership(t.a.id, t.member.id))[0].role).toBe("admin");
  });
});

describe("payproc_connections: the account id and live mode come only from Stripe's OAuth answer", () => {
  const connectionOf = (workspaceId: string) =>
    db.sql`select payproc_account_id, livemode from payproc_connections where workspace_id = ${workspaceId}`;

  test("an admin planting a merchant's acct_ id directly (insert, or update of the row) is refused and nothing is stored", async () => {
    const t = await createTenants(db.sql);
    const planted = await attempt(() =>
      as(
        t,
        "admin",
        (q) => q`insert into payproc_connections (workspace_id, payproc_account_id, livemode)
                 values (${t.a.id}, 'acct_merchant1', true)`,
      ),
    );
    expect(planted).toEqual({ ok: false, code: "42501" });
    expect(await connectionOf(t.a.id)).toEqual([]);

    await db.sql`insert into payproc_connections (workspace_id, payproc_account_id) values (${t.a.id}, 'acct_own1')`;
    for (const change of [db.sql`payproc_account_id = 'acct_merchant1'`, db.sql`livemode = true`])
      expect(
        await attempt(() =>
          as(t, "owner", (q) => q`update payproc_connections set ${change} where workspace_id = ${t.a.id}`),
        ),
      ).toEqual({ ok: false, code: "42501" });
    expect(await connectionOf(t.a.id)).toEqual([{ payproc_account_id: "acct_own1", livemode: false }]);
    // the one setting a member chooses still saves
    await as(
      t,
      "admin",
      (q) =>
        q`update payproc_connections set auto_subscribe_purchasers = true where workspace_id = ${t.a.id}`,
    );
    expect(
      (
        await db.sql`select auto_subscribe_purchasers from payproc_connections where workspace_id = ${t.a.id}`
      )[0],
    ).toEqual({ auto_subscribe_purchasers: true });
  });

  test("a connect whose save fails (the account is another workspace's) deauthorises the fresh grant and stores nothing", async () => {
    const t = await createTenants(db.sql);
    const account = `acct_taken${Date.now()}`;
    await db.sql`insert into payproc_connections (workspace_id, payproc_account_id) values (${t.b.id}, ${account})`;
    const { code } = stripe.fake.issueConnectCode({ account });
    const state = await signValue(STRIPE_CONNECT_PURPOSE, { workspaceId: t.a.id, userId: t.a.owner.id });
    const result = await completeStripeConnection({
      claims: t.a.owner.claims,
      workspaceId: t.a.id,
      code,
      state,
    });
    expect(refusal(result)?.code).toBe("conflict");
    expect(stripe.fake.deauthorized).toContainEqual({ clientId: "ca_fake_connect_client", account });
    expect(await connectionOf(t.a.id)).toEqual([]);
    expect(await connectionOf(t.b.id)).toEqual([{ payproc_account_id: account, livemode: false }]);
  });

  test("a connect by someone no longer an owner or admin when the answer is saved deauthorises the grant and stores nothing", async () => {
    const t = await createTenants(db.sql);
    const { code, account } = stripe.fake.issueConnectCode();
    const state = await signValue(STRIPE_CONNECT_PURPOSE, { workspaceId: t.a.id, userId: t.member.id });
    const result = await completeStripeConnection({
      claims: t.member.claims,
      workspaceId: t.a.id,
      code,
      state,
    });
    expect(refusal(result)?.code).toBe("conflict");
    expect(stripe.fake.deauthorized).toContainEqual({ clientId: "ca_fake_connect_client", account });
    expect(await connectionOf(t.a.id)).toEqual([]);
  });
});

describe("email_sends: no member writes outgoing email", () => {
  const queuedRow = async (workspaceId: string) => {
    const [row] = await db.sql`
      insert into email_sends (workspace_id, to_email, kind, subject, html, headers, status, provider)
      values (${workspaceId}, 'customer@example.test', 'transactional', 'Your receipt', '<p>Thanks</p>',
              '{}', 'queued', 'resend')
      returning id, to_email, subject, html, text_body, headers, status`;
    return row;
  };

  test("a member inserting a row into email_sends (mail from the platform's sender, no consent check) is refused and nothing is stored", async () => {
    const t = await createTenants(db.sql);
    for (const caller of ["member", "admin", "owner"] as const) {
      const sent = await attempt(() =>
        as(
          t,
          caller,
          (q) => q`insert into email_sends (workspace_id, to_email, kind, subject, html, status, provider)
                   values (${t.a.id}, 'victim@example.test', 'transactional', 'Reset your bank password',
                           '<a href="https://phish.example">here</a>', 'queued', 'resend')`,
        ),
      );
      expect(sent).toEqual({ ok: false, code: "42501" });
    }
    expect(await db.sql`select 1 from email_sends where workspace_id = ${t.a.id}`).toEqual([]);
  });

  test("a member updating a queued row's to_address, subject, html or headers before the worker reads it is refused and the row is unchanged", async () => {
    const t = await createTenants(db.sql);
    const row = await queuedRow(t.a.id);
    for (const change of [
      db.sql`to_email = 'victim@example.test'`,
      db.sql`subject = 'Urgent'`,
      db.sql`html = '<a href="https://phish.example">here</a>'`,
      db.sql`headers = '{"Reply-To":"attacker@example.test"}'`,
    ])
      expect(
        await attempt(() => as(t, "member", (q) => q`update email_sends set ${change} where id = ${row.id}`)),
      ).toEqual({ ok: false, code: "42501" });
    expect(
      await attempt(() => as(t, "admin", (q) => q`delete from email_sends where id = ${row.id}`)),
    ).toEqual({ ok: false, code: "42501" });
    expect(
      (
        await db.sql`select id, to_email, subject, html, text_body, headers, status from email_sends where id = ${row.id}`
      )[0],
    ).toEqual(row);
  });

  test("members still read their workspace's email log (the outbox page's columns), not another workspace's", async () => {
    const t = await createTenants(db.sql);
    const row = await queuedRow(t.a.id);
    await queuedRow(t.b.id);
    const seen = await as(
      t,
      "member",
      (q) => q`select id, to_email, subject, html, headers, status from email_sends`,
    );
    expect(seen.map((r) => r.id)).toEqual([row.id]);
  });

  test("the send path still records a member's email, through the service door, and refuses another workspace", async () => {
    const t = await createTenants(db.sql);
    const contact = await createContact(db.sql, t.a.id, { is_subscribed: true });
    const sent = await withUser(t.member.claims, (q) =>
      sendEmail(q, {
        workspaceId: t.a.id,
        contactId: contact.id,
        to: contact.email,
        kind: "transactional",
        subject: "Hello",
        html: "<p>Hello</p>",
      }),
    );
    expect(sent.status).toBe("outbox");
    expect(await db.sql`select to_email from email_sends where id = ${sent.id}`).toEqual([
      { to_email: contact.email },
    ]);
    const elsewhere = await withUser(t.member.claims, (q) =>
      sendEmail(q, {
        workspaceId: t.b.id,
        contactId: null,
        to: "someone@example.test",
        kind: "transactional",
        subject: "Hello",
        html: "<p>Hello</p>",
      }),
    ).catch((e: Error) => e.constructor.name);
    expect(elsewhere).toBe("UnknownWorkspace");
    expect(await db.sql`select 1 from email_sends where workspace_id = ${t.b.id}`).toEqual([]);
  });
});

describe("ticketing_connections: a webhook id names one connection", () => {
  const connect = (workspaceId: string, webhookId: string | null) =>
    db.sql`insert into ticketing_connections (workspace_id, access_token, organization_id, webhook_id, webhook_secret_hash)
           values (${workspaceId}, 'token', 'org', ${webhookId}, ${hex64()})`;

  test("an admin of workspace A copying workspace B's webhook_id into A's connection is refused", async () => {
    const t = await createTenants(db.sql);
    const theirs = `wh_${unique("b")}`;
    await connect(t.a.id, `wh_${unique("a")}`);
    await connect(t.b.id, theirs);
    const [before] =
      await db.sql`select webhook_id from ticketing_connections where workspace_id = ${t.a.id}`;
    const copied = await attempt(() =>
      as(
        t,
        "admin",
        (q) => q`update ticketing_connections set webhook_id = ${theirs} where workspace_id = ${t.a.id}`,
      ),
    );
    expect(copied).toEqual({ ok: false, code: "42501" });
    expect(
      (await db.sql`select webhook_id from ticketing_connections where workspace_id = ${t.a.id}`)[0],
    ).toEqual(before);
  });

  test("an admin inserting a connection that carries B's webhook_id is refused, and the database refuses a duplicate id even from the service", async () => {
    const t = await createTenants(db.sql);
    const theirs = `wh_${unique("b")}`;
    await connect(t.b.id, theirs);
    const inserted = await attempt(() =>
      as(
        t,
        "owner",
        (q) => q`insert into ticketing_connections (workspace_id, access_token, webhook_id)
                 values (${t.a.id}, 'token', ${theirs})`,
      ),
    );
    expect(inserted).toEqual({ ok: false, code: "42501" });
    expect(
      await attempt(() =>
        withService(
          (q) => q`insert into ticketing_connections (workspace_id, access_token, webhook_id)
                   values (${t.a.id}, 'token', ${theirs})`,
        ),
      ),
    ).toEqual({ ok: false, code: "23505" });
    expect(await db.sql`select 1 from ticketing_connections where workspace_id = ${t.a.id}`).toEqual([]);
    // connections without a webhook yet do not collide
    await connect(t.a.id, null);
    await connect((await createWorkspace(db.sql)).id, null);
  });
});

describe("api_keys: a key's digest is the server's, and a revoked key stays revoked", () => {
  test("an admin inserting a key with a digest of their choosing, or rewriting a key's digest, is refused", async () => {
    const t = await createTenants(db.sql);
    const chosen = hex64();
    expect(
      await attempt(() =>
        as(
          t,
          "admin",
          (q) => q`insert into api_keys (workspace_id, name, key_hash) values (${t.a.id}, 'Mine', ${chosen})`,
        ),
      ),
    ).toEqual({ ok: false, code: "42501" });
    const [key] = await db.sql`
      insert into api_keys (workspace_id, name, key_hash) values (${t.a.id}, 'Site', ${hex64()}) returning id, key_hash`;
    expect(
      await attempt(() =>
        as(t, "owner", (q) => q`update api_keys set key_hash = ${chosen} where id = ${key.id}`),
      ),
    ).toEqual({ ok: false, code: "42501" });
    expect(await db.sql`select key_hash from api_keys where workspace_id = ${t.a.id}`).toEqual([
      { key_hash: key.key_hash },
    ]);
  });

  test("an owner un-revoking a revoked (leaked) key is refused, and neither can the service", async () => {
    const t = await createTenants(db.sql);
    const [key] = await db.sql`
      insert into api_keys (workspace_id, name, key_hash, revoked_at)
      values (${t.a.id}, 'Leaked', ${hex64()}, now()) returning id, revoked_at`;
    expect(
      await attempt(() =>
        as(t, "owner", (q) => q`update api_keys set revoked_at = null where id = ${key.id}`),
      ),
    ).toEqual({ ok: false, code: "42501" });
    expect(
      await attempt(() => withService((q) => q`update api_keys set revoked_at = null where id = ${key.id}`)),
    ).toEqual({ ok: false, code: "42501" });
    expect(await db.sql`select revoked_at from api_keys where id = ${key.id}`).toEqual([
      { revoked_at: key.revoked_at },
    ]);
  });

  test("members list keys without their digests", async () => {
    const t = await createTenants(db.sql);
    await db.sql`insert into api_keys (workspace_id, name, key_hash) values (${t.a.id}, 'Site', ${hex64()})`;
    expect(await attempt(() => as(t, "admin", (q) => q`select key_hash from api_keys`))).toEqual({
      ok: false,
      code: "42501",
    });
    expect(await as(t, "member", (q) => q`select name from api_keys`)).toEqual([{ name: "Site" }]);
  });
});

describe("user_profiles and workspaces: members change what the settings pages change, nothing else", () => {
  test("a member PATCHing their own profile's email to the owner's address (to pose as them in the members list) is refused", async () => {
    const t = await createTenants(db.sql);
    const [before] = await db.sql`select email from user_profiles where id = ${t.member.id}`;
    expect(
      await attempt(() =>
        as(
          t,
          "member",
          (q) => q`update user_profiles set email = ${t.a.owner.email} where id = ${t.member.id}`,
        ),
      ),
    ).toEqual({ ok: false, code: "42501" });
    expect((await db.sql`select email from user_profiles where id = ${t.member.id}`)[0]).toEqual(before);
    // the profile page's own fields still save
    await as(
      t,
      "member",
      (q) =>
        q`update user_profiles set first_name = 'Mia', timezone = 'Europe/Berlin' where id = ${t.member.id}`,
    );
    expect((await db.sql`select first_name from user_profiles where id = ${t.member.id}`)[0]).toEqual({
      first_name: "Mia",
    });
  });

  test("a new account POSTing a profile with an address of its choosing is refused (profiles are written at sign-up)", async () => {
    const t = await createTenants(db.sql);
    const [fresh] =
      await db.sql`insert into auth.users (email) values (${`${unique("fresh")}@example.test`}) returning id`;
    const claims = { sub: fresh.id as string, role: "authenticated" as const };
    expect(
      await attempt(() =>
        withUser(
          claims,
          (q) => q`insert into user_profiles (id, email) values (${fresh.id}, ${t.a.owner.email})`,
        ),
      ),
    ).toEqual({ ok: false, code: "42501" });
    expect(await db.sql`select 1 from user_profiles where id = ${fresh.id}`).toEqual([]);
  });

  test("an admin PATCHing the workspace's created_at is refused; renaming still works", async () => {
    const t = await createTenants(db.sql);
    expect(
      await attempt(() =>
        as(t, "admin", (q) => q`update workspaces set created_at = '2000-01-01' where id = ${t.a.id}`),
      ),
    ).toEqual({ ok: false, code: "42501" });
    await as(t, "admin", (q) => q`update workspaces set name = 'Renamed' where id = ${t.a.id}`);
    const [ws] =
      await db.sql`select name, created_at > '2001-01-01' as recent from workspaces where id = ${t.a.id}`;
    expect(ws).toEqual({ name: "Renamed", recent: true });
  });
});

describe("functions: nobody executes what the dashboard does not call", () => {
  test("anon executes no function of schema public; members only those the dashboard and the policies call", async () => {
    const rows = await db.sql<{ name: string; anon: boolean; member: boolean }[]>`
      select p.proname as name,
             has_function_privilege('anon', p.oid, 'execute') as anon,
             has_function_privilege('authenticated', p.oid, 'execute') as member
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public'`;
    expect(rows.filter((r) => r.anon).map((r) => r.name)).toEqual([]);
    expect(
      rows
        .filter((r) => r.member)
        .map((r) => r.name)
        .sort(),
    ).toEqual([
      // the restrictive _second_factor policies' list (docs/decisions.md, "The second factor holds
      // at the database")
      "aal_blocked_workspaces",
      // pure, invoker-rights functions of their arguments: the keys of the possible-duplicates
      // index on contacts, which a member's insert evaluates (migration …_contact_merge.sql)
      "contact_email_similarity",
      "contact_email_status",
      "contact_name_key",
      "contact_phone_key",
      // the checks the contacts' BEFORE row triggers call, as the writer (migration
      // …_contacts_one_trigger_per_operation.sql): a member's insert or update runs them; called
      // directly they write nothing and read only what the member may read
      "contacts_check_custom_fields",
      "contacts_guard_consent_insert",
      "contacts_guard_consent_update",
      "contacts_protect_source",
      "contacts_stamp_insert",
      "contacts_stamp_update",
      "create_workspace",
      "erased_address_hash",
      "has_workspace_role",
      "is_workspace_member",
      "replay_webhook_delivery",
      "search_contacts",
      "send_webhook_test_event",
      "user_workspace_ids",
    ]);
  });

  test("an anonymous caller's /rpc call to a function is refused", async () => {
    const t = await createTenants(db.sql);
    const called = await attempt(() =>
      as(t, "anon", (q) => q`select public.contact_email_status(true, null, false)`),
    );
    expect(called).toEqual({ ok: false, code: "42501" });
  });
});
