import { describe, expect, test } from "vitest";
import { asUser, withService, withUser } from "@/lib/db/doors";
import { applyConsent } from "@/lib/consent/apply-consent";
import { decideConsent } from "@/lib/consent/consent-rules";
import { createContact as createContactFlow } from "@/lib/contacts/create-contact";
import { manualSubscribe } from "@/lib/consent/manual-subscribe";
import { removeSuppression } from "@/lib/consent/suppressions";
import { unsubscribeContact } from "@/lib/consent/unsubscribe-contact";
import { setupTestDatabase } from "../helpers/db";
import { createContact, unique } from "../helpers/factories";
import { as, attempt, createTenants, userOf, type Caller, type Tenants } from "../helpers/rls";

// docs/decisions.md, "The database is the boundary": a member reaching public.contacts and
// public.contact_suppressions through Supabase's REST API with their own JWT (role authenticated,
// exactly what `as` does) cannot change a contact's consent (spec 3.3, 4.9) without the consent
// rules and a consent_events entry: only the app's consent door writes it.
const db = setupTestDatabase();
const CALLERS: Caller[] = ["owner", "admin", "member"];

async function unsubscribed(t: Tenants) {
  return createContact(db.sql, t.a.id, {
    is_subscribed: false,
    opt_in_timestamp: new Date("2026-01-01"),
    opt_in_source: "Form",
    unsubscribed_at: new Date("2026-02-01"),
  });
}

const consentOf = async (id: string) =>
  (
    await db.sql`
      select is_subscribed, opt_in_timestamp, opt_in_source, opt_in_ip, unsubscribed_at, email_suppressed,
             portal_token, created_by
      from public.contacts where id = ${id}`
  )[0];
const ledger = (id: string) =>
  db.sql`select action, flow from public.consent_events where contact_id = ${id}`;
const suppressions = async (id: string) =>
  (await db.sql`select reason from public.contact_suppressions where contact_id = ${id} order by reason`).map(
    (r) => r.reason,
  );

describe("spec 3.3: a member's direct UPDATE of a contact's consent is refused", () => {
  for (const caller of CALLERS)
    test(`${caller}: setting is_subscribed on an unsubscribed contact is refused; the row is unchanged and the ledger empty`, async () => {
      const t = await createTenants(db.sql);
      const c = await unsubscribed(t);
      const before = await consentOf(c.id);
      const patched = await attempt(() =>
        as(
          t,
          caller,
          (q) =>
            q`update public.contacts set is_subscribed = true, unsubscribed_at = null where id = ${c.id}`,
        ),
      );
      expect(patched).toEqual({ ok: false, code: "42501" });
      expect(await consentOf(c.id)).toEqual(before);
      expect(await ledger(c.id)).toEqual([]);
    });

  test("opt_in fields, unsubscribed_at, email_suppressed, portal_token and created_by are refused one by one", async () => {
    const t = await createTenants(db.sql);
    const c = await unsubscribed(t);
    await db.sql`insert into public.contact_suppressions (workspace_id, contact_id, reason)
                 values (${t.a.id}, ${c.id}, 'bounce')`;
    const before = await consentOf(c.id);
    expect(before.email_suppressed).toBe(true);
    for (const change of [
      db.sql`opt_in_timestamp = now()`,
      db.sql`opt_in_source = 'Forged'`,
      db.sql`opt_in_ip = '203.0.113.9'`,
      db.sql`unsubscribed_at = null`,
      db.sql`email_suppressed = false`,
      db.sql`portal_token = gen_random_uuid()`,
      db.sql`created_by = ${t.member.id}`,
    ])
      for (const caller of CALLERS)
        expect(
          await attempt(() =>
            as(t, caller, (q) => q`update public.contacts set ${change} where id = ${c.id}`),
          ),
        ).toEqual({ ok: false, code: "42501" });
    expect(await consentOf(c.id)).toEqual(before);
    expect(await ledger(c.id)).toEqual([]);
  });

  test("the other fields still change as before (spec 4.15 updateContact)", async () => {
    const t = await createTenants(db.sql);
    const c = await unsubscribed(t);
    const before = await consentOf(c.id);
    await as(t, "member", (q) => q`update public.contacts set first_name = 'Renamed' where id = ${c.id}`);
    expect((await db.sql`select first_name from public.contacts where id = ${c.id}`)[0].first_name).toBe(
      "Renamed",
    );
    expect(await consentOf(c.id)).toEqual(before);
  });
});

describe("spec 3.3: a member's direct INSERT of a subscribed contact is refused", () => {
  for (const caller of CALLERS)
    test(`${caller}: a contact with is_subscribed, opt_in proof or someone else as creator is refused`, async () => {
      const t = await createTenants(db.sql);
      const other = caller === "member" ? t.admin.id : t.member.id;
      for (const fields of [
        { is_subscribed: true, opt_in_timestamp: new Date(), opt_in_source: "Forged" },
        { opt_in_source: "Forged" },
        { unsubscribed_at: null, email_suppressed: true },
        { created_by: other },
      ]) {
        const email = `${unique("c")}@example.test`;
        const row = { workspace_id: t.a.id, email, ...fields };
        expect(await attempt(() => as(t, caller, (q) => q`insert into public.contacts ${q(row)}`))).toEqual({
          ok: false,
          code: "42501",
        });
        expect(await db.sql`select 1 from public.contacts where email = ${email}`).toEqual([]);
      }
    });

  test("a plain contact is stored unsubscribed, created by the caller, with a portal token they did not choose", async () => {
    const t = await createTenants(db.sql);
    const chosen = crypto.randomUUID();
    const [row] = await as(
      t,
      "member",
      (q) => q`insert into public.contacts (workspace_id, email, portal_token)
               values (${t.a.id}, ${`${unique("c")}@example.test`}, ${chosen}) returning id`,
    );
    const stored = await consentOf(row.id);
    expect(stored).toMatchObject({ is_subscribed: false, opt_in_timestamp: null, created_by: t.member.id });
    expect(stored.portal_token).not.toBe(chosen);
  });
});

describe("spec 3.3: a member's direct DELETE of an 'unsubscribe' or 'bounce' suppression removes nothing", () => {
  for (const caller of CALLERS)
    test(`${caller}: deleting the unsubscribe and bounce suppressions keeps both; a 'manual' one still goes`, async () => {
      const t = await createTenants(db.sql);
      const c = await unsubscribed(t);
      await db.sql`insert into public.contact_suppressions (workspace_id, contact_id, reason)
                   values (${t.a.id}, ${c.id}, 'unsubscribe'), (${t.a.id}, ${c.id}, 'bounce'),
                          (${t.a.id}, ${c.id}, 'manual')`;
      const deleted = await as(
        t,
        caller,
        (q) => q`delete from public.contact_suppressions where contact_id = ${c.id} returning reason`,
      );
      expect(deleted.map((r) => r.reason)).toEqual(["manual"]);
      expect(await suppressions(c.id)).toEqual(["bounce", "unsubscribe"]);
      expect((await consentOf(c.id)).email_suppressed).toBe(true);
    });
});

describe("spec 3.3: a member's direct INSERT into the consent ledger is refused", () => {
  for (const caller of CALLERS)
    test(`${caller}: a fabricated 'subscribed' entry with made-up proof in their own name is refused; no row is stored`, async () => {
      const t = await createTenants(db.sql);
      const c = await unsubscribed(t);
      const forged = {
        workspace_id: t.a.id,
        contact_id: c.id,
        action: "subscribed",
        flow: "manual",
        source: "Forged",
        legal_basis: "Written Consent",
        ip: "203.0.113.9",
        actor_user_id: userOf(t, caller)!.id,
      };
      expect(
        await attempt(() => as(t, caller, (q) => q`insert into public.consent_events ${q(forged)}`)),
      ).toEqual({
        ok: false,
        code: "42501",
      });
      expect(await ledger(c.id)).toEqual([]);
    });
});

// The door switches the transaction to service_role with set_config('role'), which the session
// user may do: so may PostgREST's authenticator, a member of service_role in Supabase. Members
// reach only the tables and the functions of schema public (/rpc), never pg_catalog.set_config:
// no function they may call may switch the role for them.
describe("the consent door's switch to service_role is the app's alone", () => {
  test("no function of schema public a member or anonymous caller may execute calls set_config or SET ROLE", async () => {
    const switching = await db.sql`
      select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public'
        and (has_function_privilege('authenticated', p.oid, 'execute')
             or has_function_privilege('anon', p.oid, 'execute'))
        and p.prosrc ~* '(set_config|set[[:space:]]+(local[[:space:]]+|session[[:space:]]+)?role)'`;
    expect(switching).toEqual([]);
  });
});

describe("the app's consent flows still write consent, through the consent door", () => {
  test("manual subscribe (spec 4.9) by an admin clears the unsubscribe suppression and writes the ledger", async () => {
    const t = await createTenants(db.sql);
    const c = await unsubscribed(t);
    await db.sql`insert into public.contact_suppressions (workspace_id, contact_id, reason)
                 values (${t.a.id}, ${c.id}, 'unsubscribe')`;
    const result = await withUser(t.admin.claims, (q) =>
      manualSubscribe(q, {
        workspaceId: t.a.id,
        contactId: c.id,
        legalBasis: "Written Consent",
        attested: true,
        ip: "203.0.113.5",
        actorUserId: t.admin.id,
      }),
    );
    expect(result).toEqual({ data: { contactId: c.id } });
    expect(await consentOf(c.id)).toMatchObject({ is_subscribed: true, unsubscribed_at: null });
    expect(await suppressions(c.id)).toEqual([]);
    expect(await ledger(c.id)).toEqual([{ action: "subscribed", flow: "manual" }]);
  });

  test("createContact with consent, unsubscribe and removing a bounce suppression work for a member", async () => {
    const t = await createTenants(db.sql);
    const claims = userOf(t, "member")!.claims;
    const created = await withUser(claims, (q) =>
      createContactFlow(q, { workspaceId: t.a.id, email: `${unique("c")}@example.test`, isSubscribed: true }),
    );
    if (!("data" in created)) throw new Error("not created");
    const id = created.data.id;
    expect(await consentOf(id)).toMatchObject({ is_subscribed: true, created_by: t.member.id });
    await withUser(claims, (q) =>
      unsubscribeContact(q, {
        workspaceId: t.a.id,
        contactId: id,
        flow: "manual_unsubscribe",
        actorUserId: t.member.id,
      }),
    );
    expect(await consentOf(id)).toMatchObject({ is_subscribed: false });
    expect(await suppressions(id)).toEqual(["unsubscribe"]);
    await db.sql`insert into public.contact_suppressions (workspace_id, contact_id, reason) values (${t.a.id}, ${id}, 'bounce')`;
    const removed = await withUser(claims, (q) =>
      removeSuppression(q, {
        workspaceId: t.a.id,
        contactId: id,
        reason: "bounce",
        actorUserId: t.member.id,
      }),
    );
    expect(removed).toEqual({ data: { removed: true } });
    expect(await suppressions(id)).toEqual(["unsubscribe"]);
  });

  test("the door refuses a caller who is not a member of the workspace (the service writes nothing for them)", async () => {
    const t = await createTenants(db.sql);
    const c = await unsubscribed(t);
    await db.sql`insert into public.contact_suppressions (workspace_id, contact_id, reason)
                 values (${t.a.id}, ${c.id}, 'bounce')`;
    const outsider = await attempt(() =>
      withUser(userOf(t, "outsider")!.claims, (q) =>
        removeSuppression(q, {
          workspaceId: t.a.id,
          contactId: c.id,
          reason: "bounce",
          actorUserId: t.b.owner.id,
        }),
      ),
    );
    expect(outsider).toEqual({ ok: true, value: { error: expect.objectContaining({ code: "not_found" }) } });
    expect(await suppressions(c.id)).toEqual(["bounce"]);
  });
});

describe('the consent door inside a service transaction (docs/decisions.md, "The database is the boundary")', () => {
  const formConsent = () => {
    const decision = decideConsent("form", {
      contact: null,
      suppressions: [],
      ip: "203.0.113.9",
      source: "x",
    });
    if ("skip" in decision) throw new Error("a form's consent is never skipped");
    return decision;
  };

  test("a member's identity switched in with asUser is checked again: an outsider's consent write is refused, nothing is written", async () => {
    const t = await createTenants(db.sql);
    const c = await unsubscribed(t);
    const before = await consentOf(c.id);
    const outsider = userOf(t, "outsider")!;
    const result = await attempt(() =>
      withService((tx) =>
        asUser(tx, outsider.claims, () =>
          applyConsent(tx, {
            workspaceId: t.a.id,
            contactId: c.id,
            change: formConsent(),
            writeColumns: true,
          }),
        ),
      ),
    );
    expect(result).toEqual({ ok: false, code: "not_found" });
    expect(await consentOf(c.id)).toEqual(before);
    expect(await ledger(c.id)).toEqual([]);
  });

  test("back as the service after a member's work, the service writes consent: one ledger entry", async () => {
    const t = await createTenants(db.sql);
    const c = await unsubscribed(t);
    await withService(async (tx) => {
      await asUser(tx, t.member.claims, async () => {});
      await applyConsent(tx, {
        workspaceId: t.a.id,
        contactId: c.id,
        change: formConsent(),
        writeColumns: true,
      });
    });
    expect((await consentOf(c.id)).is_subscribed).toBe(true);
    expect(await ledger(c.id)).toEqual([{ action: "subscribed", flow: "form" }]);
  });
});
