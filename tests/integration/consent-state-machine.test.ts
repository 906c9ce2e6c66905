import { AppError } from "@/lib/errors/app-error";
import { describe, expect, test } from "vitest";
import { withService, withUser } from "@/lib/db/doors";
import { applyConsent } from "@/lib/consent/apply-consent";
import { decideConsent, type ConsentFlow } from "@/lib/consent/consent-rules";
import { loadConsentState } from "@/lib/consent/load-consent-state";
import { manualSubscribe } from "@/lib/consent/manual-subscribe";
import { RESUBSCRIBE_ERROR_MESSAGES, resubscribeContact } from "@/lib/consent/resubscribe-contact";
import { unsubscribeContact } from "@/lib/consent/unsubscribe-contact";
import { signLink } from "@/lib/crypto/signed-link";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace } from "../helpers/factories";

const db = setupTestDatabase();

async function contactState(id: string) {
  const [c] = await db.sql`
    select is_subscribed, unsubscribed_at, opt_in_timestamp, opt_in_source, host(opt_in_ip) as opt_in_ip,
           array(select reason from contact_suppressions s where s.contact_id = contacts.id order by reason) as suppressions
    from contacts where id = ${id}`;
  return c;
}

async function suppress(contactId: string, ...reasons: string[]) {
  for (const reason of reasons)
    await db.sql`insert into contact_suppressions (contact_id, reason) values (${contactId}, ${reason})`;
}

/** Runs one flow of decideConsent through applyConsent, as the flows of other issues do. */
function runFlow(flow: ConsentFlow, contactId: string) {
  return withService(async (tx) => {
    const state = (await loadConsentState(tx, { contactId }))!;
    const decision = decideConsent(flow, {
      contact: state,
      suppressions: state.suppressions,
      ip: "203.0.113.5",
      source: "form-1",
      legalBasis: "Written Consent",
    });
    if (!("skip" in decision))
      await applyConsent(tx, {
        workspaceId: state.workspace_id,
        contactId,
        change: decision,
        writeColumns: true,
      });
    return decision;
  });
}

describe("3.3 contact subscription state", () => {
  test("3.3 row 1: any state, form with truthy is_subscribed -> subscribed, soft and bounce suppressions cleared", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { unsubscribed_at: new Date() });
    await suppress(c.id, "unsubscribe", "bounce", "manual");
    await runFlow("form", c.id);
    const s = await contactState(c.id);
    expect(s).toMatchObject({ is_subscribed: true, unsubscribed_at: null, opt_in_source: "form-1" });
    expect(s.opt_in_ip).toBe("203.0.113.5");
    expect(s.suppressions).toEqual([]);
  });

  test("3.3 row 2: subscribed, unsubscribe link opened -> unsubscribed, unsubscribed_at now, 'unsubscribe' suppression", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { is_subscribed: true });
    const before = Date.now();
    const result = await withService((tx) =>
      unsubscribeContact(tx, { contactId: c.id, flow: "unsubscribe_link", ip: "198.51.100.7" }),
    );
    expect(result).toMatchObject({ data: { contactId: c.id, workspaceId: ws.id, changed: true } });
    const s = await contactState(c.id);
    expect(s.is_subscribed).toBe(false);
    expect(s.unsubscribed_at.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(s.suppressions).toEqual(["unsubscribe"]);
    const [ledger] =
      await db.sql`select action, flow, host(ip) as ip from consent_events where contact_id = ${c.id}`;
    expect(ledger).toEqual({ action: "unsubscribed", flow: "unsubscribe_link", ip: "198.51.100.7" });
  });

  test("3.3 row 2: opening the link again keeps the first unsubscribed_at and writes no second ledger entry", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { is_subscribed: true });
    await withService((tx) => unsubscribeContact(tx, { contactId: c.id, flow: "unsubscribe_link" }));
    const first = (await contactState(c.id)).unsubscribed_at;
    const again = await withService((tx) =>
      unsubscribeContact(tx, { contactId: c.id, flow: "unsubscribe_link" }),
    );
    expect(again).toMatchObject({ data: { changed: false } });
    expect((await contactState(c.id)).unsubscribed_at).toEqual(first);
    const [{ n }] = await db.sql`select count(*)::int as n from consent_events where contact_id = ${c.id}`;
    expect(n).toBe(1);
  });

  test("3.3 row 3: unsubscribed, manual subscribe flow -> subscribed with legal basis, admin IP, non-complaint suppressions deleted", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { unsubscribed_at: new Date() });
    await suppress(c.id, "unsubscribe", "manual", "bounce");
    const result = await withUser(ws.owner.claims, (tx) =>
      manualSubscribe(tx, {
        workspaceId: ws.id,
        contactId: c.id,
        legalBasis: "Verbal Consent",
        attested: true,
        ip: "192.0.2.44",
        actorUserId: ws.owner.id,
      }),
    );
    expect(result).toEqual({ data: { contactId: c.id } });
    const s = await contactState(c.id);
    expect(s).toMatchObject({
      is_subscribed: true,
      unsubscribed_at: null,
      opt_in_source: "Admin Manual Entry: Verbal Consent",
      opt_in_ip: "192.0.2.44",
      suppressions: [],
    });
    expect(s.opt_in_timestamp).toBeInstanceOf(Date);
    const [ledger] =
      await db.sql`select action, flow, legal_basis, actor_user_id from consent_events where contact_id = ${c.id}`;
    expect(ledger).toEqual({
      action: "subscribed",
      flow: "manual",
      legal_basis: "Verbal Consent",
      actor_user_id: ws.owner.id,
    });
  });

  test("4.9: manual subscribe refuses without a legal basis of the three, without attestation, and for a subscribed contact", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    const subscribed = await createContact(db.sql, ws.id, { is_subscribed: true });
    const attempt = (contactId: string, legalBasis: unknown, attested: unknown) =>
      withUser(ws.owner.claims, (tx) =>
        manualSubscribe(tx, {
          workspaceId: ws.id,
          contactId,
          legalBasis,
          attested,
          ip: null,
          actorUserId: ws.owner.id,
        }),
      );
    expect(await attempt(c.id, "", true)).toMatchObject({ error: { code: "invalid", field: "legalBasis" } });
    expect(await attempt(c.id, "Implied Consent", true)).toMatchObject({
      error: { code: "invalid", field: "legalBasis" },
    });
    expect(await attempt(c.id, "Written Consent", false)).toMatchObject({
      error: { code: "invalid", field: "attested" },
    });
    expect(await attempt(subscribed.id, "Written Consent", true)).toEqual({
      error: new AppError("conflict", "This contact is already subscribed."),
    });
    expect(await contactState(c.id)).toMatchObject({ is_subscribed: false, opt_in_source: null });
    const [{ n }] = await db.sql`select count(*)::int as n from consent_events where workspace_id = ${ws.id}`;
    expect(n).toBe(0);
  });

  test("3.3 row 4 / 4.6: unsubscribed, re-subscribe by the signed link with no bounce or complaint -> subscribed, 'unsubscribe' and 'manual' deleted, opt-in IP and time", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { unsubscribed_at: new Date() });
    await suppress(c.id, "unsubscribe", "manual");
    // a manual block is cleared only by a link we signed (docs/decisions.md, "Signed recipient links")
    const signature = signLink("subscribe", { workspaceId: ws.id, contactId: c.id });
    const result = await withService((tx) =>
      resubscribeContact(tx, { contactId: c.id, ip: "203.0.113.9", signature }),
    );
    expect(result).toEqual({ data: { changed: true } });
    const s = await contactState(c.id);
    expect(s).toMatchObject({
      is_subscribed: true,
      unsubscribed_at: null,
      opt_in_ip: "203.0.113.9",
      suppressions: [],
    });
    expect(s.opt_in_timestamp).toBeInstanceOf(Date);
  });

  test.each([
    ["bounce", "bounce"],
    ["complaint", "complaint"],
  ] as const)(
    "4.6 step 1: a contact with a %s suppression is refused and nothing changes",
    async (reason, code) => {
      const ws = await createWorkspace(db.sql);
      const c = await createContact(db.sql, ws.id, { unsubscribed_at: new Date() });
      await suppress(c.id, reason, "unsubscribe");
      const result = await withService((tx) => resubscribeContact(tx, { contactId: c.id, ip: null }));
      expect(result).toEqual({
        error: new AppError("suppressed", RESUBSCRIBE_ERROR_MESSAGES[code]),
        reason: code,
      });
      expect(await contactState(c.id)).toMatchObject({
        is_subscribed: false,
        suppressions: [reason, "unsubscribe"].sort(),
      });
    },
  );

  test("4.6 step 3: already subscribed with a stale unsubscribed_at and leftover soft suppressions has them cleaned, consent proof kept", async () => {
    const ws = await createWorkspace(db.sql);
    const optIn = new Date("2026-01-02T03:04:05Z");
    const c = await createContact(db.sql, ws.id, {
      is_subscribed: true,
      unsubscribed_at: new Date(),
      opt_in_timestamp: optIn,
      opt_in_source: "form-9",
    });
    await suppress(c.id, "unsubscribe", "manual");
    const signature = signLink("subscribe", { workspaceId: ws.id, contactId: c.id });
    await withService((tx) => resubscribeContact(tx, { contactId: c.id, ip: "203.0.113.1", signature }));
    expect(await contactState(c.id)).toMatchObject({
      is_subscribed: true,
      unsubscribed_at: null,
      opt_in_timestamp: optIn,
      opt_in_source: "form-9",
      suppressions: [],
    });
  });

  test("4.6: an unknown or malformed contact id is 'not_found'", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid", "'; drop table contacts; --"])
      expect(await withService((tx) => resubscribeContact(tx, { contactId: id }))).toEqual({
        error: new AppError("not_found", RESUBSCRIBE_ERROR_MESSAGES.not_found),
        reason: "not_found",
      });
  });

  test("3.3 row 5: not subscribed, ticketing or payment auto-subscribe with no complaint -> subscribed", async () => {
    const ws = await createWorkspace(db.sql);
    for (const flow of ["ticketing_auto_subscribe", "payproc_auto_subscribe"] as const) {
      const c = await createContact(db.sql, ws.id);
      await runFlow(flow, c.id);
      expect(await contactState(c.id)).toMatchObject({ is_subscribed: true, opt_in_source: flow });
    }
  });

  test("3.3 row 5: the payment path is also stopped by a manual suppression; ticketing is not", async () => {
    const ws = await createWorkspace(db.sql);
    const pay = await createContact(db.sql, ws.id);
    const ticket = await createContact(db.sql, ws.id);
    await suppress(pay.id, "manual");
    await suppress(ticket.id, "manual");
    expect(await runFlow("payproc_auto_subscribe", pay.id)).toEqual({ skip: "manual suppression" });
    await runFlow("ticketing_auto_subscribe", ticket.id);
    expect(await contactState(pay.id)).toMatchObject({ is_subscribed: false, suppressions: ["manual"] });
    expect(await contactState(ticket.id)).toMatchObject({ is_subscribed: true, suppressions: [] });
  });
});

describe("3.3: a 'complaint' suppression is never removed by any flow", () => {
  const subscribingFlows: ConsentFlow[] = [
    "form",
    "rsvp",
    "resubscribe_link",
    "manual",
    "ticketing_auto_subscribe",
    "payproc_auto_subscribe",
    "csv_import",
  ];
  test.each(subscribingFlows)("3.3: the complaint suppression survives the %s flow", async (flow) => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { unsubscribed_at: new Date() });
    await suppress(c.id, "complaint", "unsubscribe");
    await runFlow(flow, c.id);
    expect((await contactState(c.id)).suppressions).toContain("complaint");
  });

  test("3.3: the complaint survives the public re-subscribe and the dashboard manual subscribe", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { unsubscribed_at: new Date() });
    await suppress(c.id, "complaint", "unsubscribe");
    await withService((tx) => resubscribeContact(tx, { contactId: c.id }));
    await withUser(ws.owner.claims, (tx) =>
      manualSubscribe(tx, {
        workspaceId: ws.id,
        contactId: c.id,
        legalBasis: "Written Consent",
        attested: true,
        ip: null,
        actorUserId: ws.owner.id,
      }),
    );
    expect((await contactState(c.id)).suppressions).toEqual(["complaint"]);
  });

  test("3.3 second wall: the database refuses to delete or change a complaint, for the system and for members", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    await suppress(c.id, "complaint");
    await expect(
      withService((tx) => tx`delete from contact_suppressions where contact_id = ${c.id}`),
    ).rejects.toThrow("A complaint suppression is permanent.");
    await expect(
      withService((tx) => tx`update contact_suppressions set reason = 'manual' where contact_id = ${c.id}`),
    ).rejects.toThrow("A complaint suppression is permanent.");
    const deleted = await withUser(
      ws.owner.claims,
      (tx) => tx`delete from contact_suppressions where contact_id = ${c.id} returning id`,
    );
    expect(deleted).toHaveLength(0);
    expect((await contactState(c.id)).suppressions).toEqual(["complaint"]);
  });
});

describe("consent ledger", () => {
  test("ledger is append-only: no update or delete while the contact exists; deleting the contact cascades", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { is_subscribed: true });
    await withService((tx) => unsubscribeContact(tx, { contactId: c.id, flow: "unsubscribe_link" }));
    await expect(
      withService((tx) => tx`update consent_events set flow = 'x' where contact_id = ${c.id}`),
    ).rejects.toThrow("append-only");
    await expect(
      withService((tx) => tx`delete from consent_events where contact_id = ${c.id}`),
    ).rejects.toThrow("append-only");
    await db.sql`delete from contacts where id = ${c.id}`;
    const [{ n }] = await db.sql`select count(*)::int as n from consent_events where contact_id = ${c.id}`;
    expect(n).toBe(0);
  });
});
