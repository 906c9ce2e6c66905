import { AppError } from "@/lib/errors/app-error";
import { describe, expect, test } from "vitest";
import { withService, withUser } from "@/lib/db/doors";
import { consentLedgerCsv } from "@/lib/consent/consent-ledger";
import { getContactConsent } from "@/lib/consent/get-contact-consent";
import { manualSubscribe } from "@/lib/consent/manual-subscribe";
import { recordDeliverySuppression } from "@/lib/consent/record-delivery-suppression";
import { addManualSuppression, removeSuppression, COMPLAINT_IS_PERMANENT } from "@/lib/consent/suppressions";
import { unsubscribeContact } from "@/lib/consent/unsubscribe-contact";
import { countUnreadNotifications, listNotifications } from "@/lib/notifications/list-notifications";
import { markNotificationsRead } from "@/lib/notifications/mark-notifications-read";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createContact, createWorkspace } from "../helpers/factories";

const db = setupTestDatabase();

async function reasons(contactId: string) {
  const rows =
    await db.sql`select reason from contact_suppressions where contact_id = ${contactId} order by reason`;
  return rows.map((r) => r.reason);
}

describe("2.6 suppressions in the dashboard", () => {
  test("2.6: a member adds a 'manual' block and removes a non-complaint suppression, each in the ledger", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await addMember(db.sql, ws.id, "member");
    const c = await createContact(db.sql, ws.id, { is_subscribed: true });
    await db.sql`insert into contact_suppressions (contact_id, reason) values (${c.id}, 'bounce')`;
    const input = { workspaceId: ws.id, contactId: c.id, actorUserId: member.id };
    expect(await withUser(member.claims, (tx) => addManualSuppression(tx, input))).toEqual({
      data: { created: true },
    });
    expect(await reasons(c.id)).toEqual(["bounce", "manual"]);
    expect(
      await withUser(member.claims, (tx) => removeSuppression(tx, { ...input, reason: "bounce" })),
    ).toEqual({
      data: { removed: true },
    });
    expect(await reasons(c.id)).toEqual(["manual"]);
    const ledger =
      await db.sql`select action, flow, reason from consent_events where contact_id = ${c.id} order by created_at`;
    expect(ledger).toEqual([
      { action: "suppressed", flow: "manual_block", reason: "manual" },
      { action: "unsuppressed", flow: "suppression_removed", reason: "bounce" },
    ]);
  });

  test("3.3: removing a complaint suppression is refused with the permanence message", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    await db.sql`insert into contact_suppressions (contact_id, reason) values (${c.id}, 'complaint')`;
    const result = await withUser(ws.owner.claims, (tx) =>
      removeSuppression(tx, {
        workspaceId: ws.id,
        contactId: c.id,
        reason: "complaint",
        actorUserId: ws.owner.id,
      }),
    );
    expect(result).toEqual({ error: new AppError("forbidden", COMPLAINT_IS_PERMANENT) });
    expect(await reasons(c.id)).toEqual(["complaint"]);
  });

  test("3.4: the consent view derives the badge from the stored state", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { is_subscribed: true, unsubscribed_at: new Date() });
    const view = () =>
      withUser(ws.owner.claims, (tx) => getContactConsent(tx, { workspaceId: ws.id, contactId: c.id }));
    expect((await view())!.status).toBe("Unsubscribed");
    await db.sql`insert into contact_suppressions (contact_id, reason) values (${c.id}, 'bounce')`;
    expect((await view())!.status).toBe("Bounced");
    await db.sql`insert into contact_suppressions (contact_id, reason) values (${c.id}, 'complaint')`;
    expect((await view())!.status).toBe("Spam");
  });
});

describe("5.4 a tenant cannot unsubscribe, read or suppress another workspace's contact", () => {
  test("5.4: every dashboard consent operation on another workspace's contact finds nothing and changes nothing", async () => {
    const mine = await createWorkspace(db.sql);
    const theirs = await createWorkspace(db.sql);
    const victim = await createContact(db.sql, theirs.id, { is_subscribed: true });
    await db.sql`insert into contact_suppressions (contact_id, reason) values (${victim.id}, 'bounce')`;
    const me = mine.owner;
    // the server passes the member's own workspace; a forged one is tried too (RLS is the second wall)
    for (const workspaceId of [mine.id, theirs.id]) {
      const base = { workspaceId, contactId: victim.id, actorUserId: me.id };
      await withUser(me.claims, async (tx) => {
        expect(await unsubscribeContact(tx, { ...base, flow: "manual_unsubscribe" })).toEqual({
          error: new AppError("not_found", "Unknown contact."),
        });
        expect(await addManualSuppression(tx, base)).toEqual({
          error: new AppError("not_found", "Contact not found."),
        });
        expect(await removeSuppression(tx, { ...base, reason: "bounce" })).toEqual({
          error: new AppError("not_found", "Contact not found."),
        });
        expect(
          await manualSubscribe(tx, { ...base, legalBasis: "Verbal Consent", attested: true, ip: null }),
        ).toEqual({ error: new AppError("not_found", "Contact not found.") });
        expect(await getContactConsent(tx, base)).toBeNull();
      });
    }
    const [row] = await db.sql`select is_subscribed, unsubscribed_at from contacts where id = ${victim.id}`;
    expect(row).toEqual({ is_subscribed: true, unsubscribed_at: null });
    expect(await reasons(victim.id)).toEqual(["bounce"]);
    const [{ n }] =
      await db.sql`select count(*)::int as n from consent_events where contact_id = ${victim.id}`;
    expect(n).toBe(0);
  });
});

describe("consent ledger export", () => {
  test("ledger CSV: one row per change, oldest first, formula-like cells neutralised", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    await withUser(ws.owner.claims, (tx) =>
      manualSubscribe(tx, {
        workspaceId: ws.id,
        contactId: c.id,
        legalBasis: "Written Consent",
        attested: true,
        ip: "192.0.2.1",
        actorUserId: ws.owner.id,
      }),
    );
    await withService((tx) => unsubscribeContact(tx, { contactId: c.id, flow: "unsubscribe_link" }));
    const data = await withUser(ws.owner.claims, (tx) =>
      getContactConsent(tx, { workspaceId: ws.id, contactId: c.id }),
    );
    const lines = consentLedgerCsv("=cmd@example.test", data!.ledger).trim().split("\r\n");
    expect(lines[0]).toBe("timestamp,email,action,flow,source,legal_basis,reason,ip,actor,topic");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(
      `,"'=cmd@example.test",subscribed,manual,Admin Manual Entry: Written Consent,Written Consent,,192.0.2.1,Test User`,
    );
    expect(lines[2]).toContain(",unsubscribed,unsubscribe_link,,,,,Contact");
  });
});

describe("6.3 notifications", () => {
  test("6.3: per-member unread count, mark one read, mark all read; another member's state is their own", async () => {
    const ws = await createWorkspace(db.sql);
    const other = await addMember(db.sql, ws.id, "member");
    const a = await createContact(db.sql, ws.id);
    const b = await createContact(db.sql, ws.id);
    await withService(async (tx) => {
      await recordDeliverySuppression(tx, { workspaceId: ws.id, contactId: a.id, reason: "bounce" });
      await recordDeliverySuppression(tx, { workspaceId: ws.id, contactId: b.id, reason: "complaint" });
    });
    const owner = { workspaceId: ws.id, userId: ws.owner.id };
    expect(await withUser(ws.owner.claims, (tx) => countUnreadNotifications(tx, owner))).toBe(2);
    const list = await withUser(ws.owner.claims, (tx) => listNotifications(tx, owner));
    expect(list.map((n) => n.action_label)).toEqual(["View Contact", "View Contact"]);
    await withUser(ws.owner.claims, (tx) => markNotificationsRead(tx, { ...owner, ids: [list[0].id] }));
    expect(await withUser(ws.owner.claims, (tx) => countUnreadNotifications(tx, owner))).toBe(1);
    await withUser(ws.owner.claims, (tx) => markNotificationsRead(tx, owner));
    expect(await withUser(ws.owner.claims, (tx) => countUnreadNotifications(tx, owner))).toBe(0);
    const otherCount = await withUser(other.claims, (tx) =>
      countUnreadNotifications(tx, { workspaceId: ws.id, userId: other.id }),
    );
    expect(otherCount).toBe(2);
  });

  test("5.4: a member cannot see or mark another workspace's notifications", async () => {
    const mine = await createWorkspace(db.sql);
    const theirs = await createWorkspace(db.sql);
    const c = await createContact(db.sql, theirs.id);
    await withService((tx) =>
      recordDeliverySuppression(tx, { workspaceId: theirs.id, contactId: c.id, reason: "bounce" }),
    );
    const [n] = await db.sql`select id from notifications where workspace_id = ${theirs.id}`;
    const me = { workspaceId: theirs.id, userId: mine.owner.id };
    expect(await withUser(mine.owner.claims, (tx) => listNotifications(tx, me))).toEqual([]);
    expect(
      await withUser(mine.owner.claims, (tx) => markNotificationsRead(tx, { ...me, ids: [n.id] })),
    ).toEqual({ marked: 0 });
  });
});

describe("4.8 email settings", () => {
  test("4.8: an admin saves footer, tracking URL and engagement tracking; a plain member cannot (RLS), and nothing changes", async () => {
    const { updateEmailSettings, getEmailSettings } = await import("@/lib/email/email-settings");
    const ws = await createWorkspace(db.sql);
    const admin = await addMember(db.sql, ws.id, "admin");
    const member = await addMember(db.sql, ws.id, "member");
    const input = {
      subscribeFooterEnabled: false,
      subscribeFooterMessage: "Miss us?",
      subscribeFooterLinkText: "Join",
      trackingUrl: "https://t.example.com",
      emailTrackingEnabled: true,
    };
    expect(await withUser(member.claims, (tx) => updateEmailSettings(tx, ws.id, input))).toEqual({
      error: new AppError("forbidden", "Only owners and admins can change the email settings."),
    });
    expect(await withUser(member.claims, (tx) => getEmailSettings(tx, ws.id))).toMatchObject({
      subscribe_footer_enabled: true,
      tracking_url: null,
      email_tracking_enabled: false,
    });
    expect(await withUser(admin.claims, (tx) => updateEmailSettings(tx, ws.id, input))).toEqual({
      data: {
        subscribe_footer_enabled: false,
        subscribe_footer_message: "Miss us?",
        subscribe_footer_link_text: "Join",
        tracking_url: "https://t.example.com",
        email_tracking_enabled: true,
        email_reply_to: null,
      },
    });
  });
});
