import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { POST as requestLink } from "@/app/api/portal/[workspaceId]/link/route";
import { withService, withUser } from "@/lib/db/doors";
import { translator } from "@/lib/i18n/translator";
import { confirmEmailChange, correctDetails } from "@/lib/portal/correct-details";
import { requestPortalLinkFlow } from "@/lib/portal/flows/portal-flows";
import { portalExport } from "@/lib/portal/portal-export";
import { portalLocale } from "@/lib/portal/portal-locale";
import { billingCustomer, openBillingPortal, portalMemberships } from "@/lib/portal/memberships";
import { requestPortalLink } from "@/lib/portal/request-portal-link";
import {
  endPortalSession,
  enterPortal,
  findPortalSession,
  type PortalSession,
} from "@/lib/portal/portal-session";
import { savePortalTopics } from "@/lib/portal/portal-topics";
import { portalReceipt } from "@/lib/portal/purchases";
import { cancelPortalRsvp } from "@/lib/portal/registrations";
import { requestErasure } from "@/lib/portal/request-erasure";
import { unzipSync, strFromU8 } from "fflate";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createContact, createWorkspace, unique } from "../helpers/factories";
import { connectPayproc, setupStripeFake } from "../helpers/payments";
import { addPlan, deliverAll, eventsSince } from "../helpers/recurring";

// DESIGN.md section 9, "Portal and languages", and docs/decisions.md, "Portal sessions": the contact's
// own door. The attacker here holds a link or a portal session, or is a member with their own JWT.
const db = setupTestDatabase();
const stripe = setupStripeFake();
const en = translator("en");
let ipCounter = 0;
/** each test asks from an IP of its own, so the per-IP limit is the rate-limit test's alone */
const freshIp = () => `198.51.100.${(ipCounter += 1)}`;

const digest = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

function linkRequest(workspaceId: string, email: string, ip = freshIp()) {
  return requestLink(
    new Request(`http://localhost/api/portal/${workspaceId}/link`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": ip },
      body: JSON.stringify({ email }),
    }),
    { params: Promise.resolve({ workspaceId }) },
  );
}

/** The token of the newest link emailed to `to` (the readable copy members never see). */
async function emailedToken(to: string, path: "enter" | "confirm-email" = "enter"): Promise<string> {
  const [row] = await db.sql<{ text_body: string }[]>`
    select x.text_body from public.email_send_secrets x join public.email_sends s on s.id = x.email_send_id
    where s.to_email = ${to} order by s.created_at desc limit 1`;
  const match = row?.text_body.match(new RegExp(`/${path}\\?token=([A-Za-z0-9_-]{43})`));
  if (!match) throw new Error(`no ${path} link emailed to ${to}`);
  return match[1];
}

async function signedIn(
  workspaceId: string,
  email: string,
): Promise<{ token: string; session: PortalSession }> {
  expect((await linkRequest(workspaceId, email)).status).toBe(202);
  const link = await emailedToken(email);
  const entered = await withService((tx) => enterPortal(tx, { workspaceId, token: link, ip: null }));
  if (!("data" in entered)) throw new Error("the link did not open");
  const session = await withService((tx) =>
    findPortalSession(tx, { workspaceId, token: entered.data.token }),
  );
  return { token: entered.data.token, session: session! };
}

async function world() {
  const a = await createWorkspace(db.sql);
  const b = await createWorkspace(db.sql);
  const a1 = await createContact(db.sql, a.id, { postal_code: "10115" });
  const a2 = await createContact(db.sql, a.id);
  const b1 = await createContact(db.sql, b.id);
  return { a, b, a1, a2, b1 };
}

describe("sign-in by emailed link (DESIGN.md section 9)", () => {
  test("answers 202 for a known, an unknown and another workspace's address; only the known one gets a link, stored as its digest, audited", async () => {
    const { a, a1, b1 } = await world();
    for (const email of [a1.email, `${unique("nobody")}@example.test`, b1.email, "not an address"])
      expect((await linkRequest(a.id, email)).status).toBe(202);
    const links =
      await db.sql`select contact_id, token_hash from public.portal_links where workspace_id = ${a.id}`;
    expect(links.map((l) => l.contact_id)).toEqual([a1.id]);
    const token = await emailedToken(a1.email);
    expect(links[0].token_hash).toBe(digest(token));
    const [ttl] =
      await db.sql`select extract(epoch from expires_at - created_at)::int as s from public.portal_links
                               where workspace_id = ${a.id}`;
    expect(ttl.s).toBe(15 * 60);
    // the copy members read has no usable link
    const sends =
      await db.sql`select to_email, text_body from public.email_sends where workspace_id = ${a.id}`;
    expect(sends.map((s) => s.to_email)).toEqual([a1.email]);
    expect(sends[0].text_body).not.toContain(token);
    const audit = await db.sql`select action, target_id from public.audit_log where workspace_id = ${a.id}`;
    expect(audit).toEqual([{ action: "contact.portal_link_sent", target_id: a1.id }]);
  });

  test("a link used twice fails the second time: one session only", async () => {
    const { a, a1 } = await world();
    await linkRequest(a.id, a1.email);
    const token = await emailedToken(a1.email);
    const first = await withService((tx) => enterPortal(tx, { workspaceId: a.id, token, ip: null }));
    const second = await withService((tx) => enterPortal(tx, { workspaceId: a.id, token, ip: null }));
    expect("data" in first).toBe(true);
    expect("error" in second && second.error.code).toBe("not_found");
    const [{ n }] =
      await db.sql`select count(*)::int as n from public.portal_sessions where contact_id = ${a1.id}`;
    expect(n).toBe(1);
  });

  test("an expired link, a link of another workspace and a link a newer one replaced do not open", async () => {
    const { a, b, a1 } = await world();
    await linkRequest(a.id, a1.email);
    const older = await emailedToken(a1.email);
    await linkRequest(a.id, a1.email);
    const newer = await emailedToken(a1.email);
    expect(newer).not.toBe(older);
    const enter = (workspaceId: string, token: string) =>
      withService((tx) => enterPortal(tx, { workspaceId, token, ip: null }));
    expect("error" in (await enter(a.id, older))).toBe(true); // portal_token rotated
    expect("error" in (await enter(b.id, newer))).toBe(true); // foreign workspace
    await db.sql`update public.portal_links set expires_at = now() - interval '1 second'
                 where token_hash = ${digest(newer)}`;
    expect("error" in (await enter(a.id, newer))).toBe(true); // expired
    const [{ n }] =
      await db.sql`select count(*)::int as n from public.portal_sessions where contact_id = ${a1.id}`;
    expect(n).toBe(0);
  });

  test("rate limits: an IP past 20 a minute is refused (429); an address past 5 an hour is answered 202 and gets no link", async () => {
    const { a, a1, a2 } = await world();
    const ip = freshIp();
    for (let i = 0; i < 5; i += 1) expect((await linkRequest(a.id, a1.email, freshIp())).status).toBe(202);
    expect((await linkRequest(a.id, a1.email, freshIp())).status).toBe(202);
    const [{ n }] =
      await db.sql`select count(*)::int as n from public.portal_links where contact_id = ${a1.id}`;
    expect(n).toBe(5);
    for (let i = 0; i < 20; i += 1)
      await requestPortalLinkFlow({
        workspaceId: a.id,
        email: `${unique("x")}@example.test`,
        ip,
        locale: {},
      });
    expect((await linkRequest(a.id, a2.email, ip)).status).toBe(429);
    const [{ m }] =
      await db.sql`select count(*)::int as m from public.portal_links where contact_id = ${a2.id}`;
    expect(m).toBe(0);
  });

  test("a flood of link requests from one IP: once refused, the process refuses it again without the database until its window frees, and a refused request counts against no address", async () => {
    const { a, a2 } = await world();
    const ip = freshIp();
    for (let i = 0; i < 20; i += 1)
      await requestPortalLinkFlow({
        workspaceId: a.id,
        email: `${unique("y")}@example.test`,
        ip,
        locale: {},
      });
    expect((await linkRequest(a.id, a2.email, ip)).status).toBe(429);
    // the window emptied behind the process's back: the database would let the next request in
    await db.sql`delete from public.rate_limit_hits where key = ${`portal:link:ip:${ip}`}`;
    const again = await linkRequest(a.id, a2.email, ip);
    expect(again.status).toBe(429);
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0);
    const hits = await db.sql`
      select key from public.rate_limit_hits where key in (${`portal:link:ip:${ip}`}, ${`portal:link:address:${a.id}:${a2.email}`})`;
    expect(hits).toEqual([]);
    const [{ m }] =
      await db.sql`select count(*)::int as m from public.portal_links where contact_id = ${a2.id}`;
    expect(m).toBe(0);
  });
});

describe("the portal speaks the contact's language (DESIGN.md section 9, 'Portal and languages')", () => {
  const subjectTo = async (to: string) =>
    (
      await db.sql<{ subject: string }[]>`
        select subject from public.email_sends where to_email = ${to} order by created_at desc limit 1`
    )[0]?.subject;

  test("the sign-in link goes out in the contact's language, else the workspace's; ?lang= wins over both", async () => {
    const ws = await createWorkspace(db.sql, { name: "Théâtre" });
    await db.sql`update public.workspaces set default_locale = 'de' where id = ${ws.id}`;
    const french = await createContact(db.sql, ws.id);
    await db.sql`update public.contacts set locale = 'fr-CA' where id = ${french.id}`;
    const unknown = await createContact(db.sql, ws.id);
    expect((await linkRequest(ws.id, french.email)).status).toBe(202);
    expect(await subjectTo(french.email)).toBe("Votre lien de connexion pour Théâtre");
    expect((await linkRequest(ws.id, unknown.email)).status).toBe(202);
    expect(await subjectTo(unknown.email)).toBe("Ihr Anmeldelink für Théâtre");
    await withService((tx) =>
      requestPortalLink(tx, { workspaceId: ws.id, email: french.email, ip: null, locale: { lang: "en" } }),
    );
    expect(await subjectTo(french.email)).toBe("Your sign-in link for Théâtre");
  });

  test("a session carries the contact's and the workspace's languages, read where it is found", async () => {
    const ws = await createWorkspace(db.sql);
    await db.sql`update public.workspaces set default_locale = 'es' where id = ${ws.id}`;
    const c = await createContact(db.sql, ws.id);
    await db.sql`update public.contacts set locale = 'fr' where id = ${c.id}`;
    const { session } = await signedIn(ws.id, c.email);
    expect(session).toMatchObject({ contactLocale: "fr", workspaceDefault: "es" });
    expect(portalLocale({ acceptLanguage: "de", ...session })).toBe("fr");
    expect(portalLocale({ acceptLanguage: "de", workspaceDefault: session.workspaceDefault })).toBe("de");
    expect(portalLocale({ workspaceDefault: session.workspaceDefault })).toBe("es");
  });
});

describe("memberships and regular gifts in the portal, and Stripe's customer portal", () => {
  test("the session's contact sees their memberships only; the customer portal opens for their customer on the workspace's account", async () => {
    const ws = await createWorkspace(db.sql, { name: "Friends of the Park" });
    const conn = await connectPayproc(db.sql, ws.id);
    const plan = await addPlan(db.sql, stripe.fake, conn);
    const member = await createContact(db.sql, ws.id);
    const neighbour = await createContact(db.sql, ws.id);
    const other = await createWorkspace(db.sql);
    const otherConn = await connectPayproc(db.sql, other.id);
    const otherPlan = await addPlan(db.sql, stripe.fake, otherConn);
    const subscribe = (account: string | null, email: string, priceId: string) =>
      stripe.fake.billing.createSubscription({ account, email, priceId, checkout: true });
    const mark = stripe.fake.billing.events.length;
    const { customer } = subscribe(conn.account, member.email, plan.priceId);
    subscribe(conn.account, neighbour.email, plan.priceId);
    subscribe(otherConn.account, member.email, otherPlan.priceId); // the same address elsewhere
    await deliverAll(eventsSince(stripe.fake, mark));

    const { session } = await signedIn(ws.id, member.email);
    const memberships = await withService((tx) => portalMemberships(tx, session));
    expect(memberships).toHaveLength(1);
    expect(memberships[0]).toMatchObject({
      plan: "Monthly membership",
      kind: "membership",
      status: "active",
      ending: false,
    });
    const [own] = await db.sql`select id from memberships where contact_id = ${member.id}`;
    expect(memberships[0].id).toBe(own.id);

    const billing = await withService((tx) => billingCustomer(tx, session, "203.0.113.7"));
    expect(billing).toEqual({ customer: customer.id, account: conn.account });
    const url = await openBillingPortal(billing!, "http://crm.test/portal/back");
    const opened = stripe.fake.billing.portalSessions.at(-1)!;
    expect(opened.account).toBe(conn.account);
    expect(opened.obj).toMatchObject({
      customer: customer.id,
      return_url: "http://crm.test/portal/back",
      url,
    });
    const [audit] = await db.sql`
      select actor_id, target_id from audit_log where workspace_id = ${ws.id} and action = 'contact.portal_billing_opened'`;
    expect(audit).toEqual({ actor_id: null, target_id: member.id });

    // a contact with no subscription has nothing to manage, and no audit row
    const { session: plain } = await signedIn(ws.id, (await createContact(db.sql, ws.id)).email);
    expect(await withService((tx) => portalMemberships(tx, plain))).toEqual([]);
    expect(await withService((tx) => billingCustomer(tx, plain, null))).toBeNull();
  });
});

describe("a portal session reaches its own contact and workspace only", () => {
  test("contact A1's session is no session in workspace B, and sign-out revokes it", async () => {
    const { a, b, a1 } = await world();
    const { token, session } = await signedIn(a.id, a1.email);
    expect(session.contactId).toBe(a1.id);
    expect(await withService((tx) => findPortalSession(tx, { workspaceId: b.id, token }))).toBeNull();
    await withService((tx) => endPortalSession(tx, session, null));
    expect(await withService((tx) => findPortalSession(tx, { workspaceId: a.id, token }))).toBeNull();
    const [row] = await db.sql`select revoked_at from public.portal_sessions where id = ${session.sessionId}`;
    expect(row.revoked_at).not.toBeNull();
  });

  test("A1's session cannot cancel, or read the receipt of, A2's or B1's registration and purchase", async () => {
    const { a, b, a1, a2, b1 } = await world();
    const { session } = await signedIn(a.id, a1.email);
    const future = new Date(Date.now() + 86_400_000);
    const [eventA] =
      await db.sql`insert into public.events (workspace_id, name, start_time) values (${a.id}, 'A night', ${future}) returning id`;
    const [eventB] =
      await db.sql`insert into public.events (workspace_id, name, start_time) values (${b.id}, 'B night', ${future}) returning id`;
    const [mine] =
      await db.sql`insert into public.event_registrations (workspace_id, event_id, contact_id) values (${a.id}, ${eventA.id}, ${a1.id}) returning id`;
    const [other] =
      await db.sql`insert into public.event_registrations (workspace_id, event_id, contact_id) values (${a.id}, ${eventA.id}, ${a2.id}) returning id`;
    const [foreign] =
      await db.sql`insert into public.event_registrations (workspace_id, event_id, contact_id) values (${b.id}, ${eventB.id}, ${b1.id}) returning id`;
    for (const id of [other.id, foreign.id, "not-an-id"]) {
      const result = await withService((tx) =>
        cancelPortalRsvp(tx, session, { registrationId: id, ip: null }),
      );
      expect("error" in result && result.error.code).toBe("not_found");
    }
    const statuses =
      await db.sql`select id, status from public.event_registrations where id in (${other.id}, ${foreign.id})`;
    expect(statuses.every((r) => r.status === "registered")).toBe(true);
    const cancelled = await withService((tx) =>
      cancelPortalRsvp(tx, session, { registrationId: mine.id, ip: null }),
    );
    expect("data" in cancelled).toBe(true);
    const [own] = await db.sql`select status from public.event_registrations where id = ${mine.id}`;
    expect(own.status).toBe("cancelled");

    const [paidOther] =
      await db.sql`insert into public.transactions (workspace_id, contact_id, amount_paid) values (${a.id}, ${a2.id}, 10) returning id`;
    const [paidForeign] =
      await db.sql`insert into public.transactions (workspace_id, contact_id, amount_paid) values (${b.id}, ${b1.id}, 10) returning id`;
    const [paidMine] =
      await db.sql`insert into public.transactions (workspace_id, contact_id, amount_paid, currency) values (${a.id}, ${a1.id}, 12.5, 'eur') returning id`;
    for (const id of [paidOther.id, paidForeign.id]) {
      const receipt = await withService((tx) =>
        portalReceipt(tx, session, { transactionId: id, ip: null, t: en }),
      );
      expect("error" in receipt && receipt.error.code).toBe("not_found");
    }
    const receipt = await withService((tx) =>
      portalReceipt(tx, session, { transactionId: paidMine.id, ip: null, t: translator("de") }),
    );
    expect("data" in receipt && receipt.data.text).toMatch(/Bezahlt: 12,50\s€/);

    const audit = await db.sql`select action from public.audit_log where target_id = ${a1.id} order by id`;
    expect(audit.map((r) => r.action)).toEqual([
      "contact.portal_link_sent",
      "contact.portal_signed_in",
      "contact.portal_rsvp_cancelled",
      "contact.portal_receipt_downloaded",
    ]);
  });

  test("the export holds A1 alone; corrections change A1 alone, with the 4.10 note and the audit row", async () => {
    const { a, a1, a2 } = await world();
    const { session } = await signedIn(a.id, a1.email);
    const file = await withService((tx) => portalExport(tx, session, null));
    const json = JSON.parse(strFromU8(unzipSync(file.zip)["contact.json"]));
    expect(json.contact.id).toBe(a1.id);
    expect(json.contact).not.toHaveProperty("portal_token");
    expect(JSON.stringify(json)).not.toContain(a2.email);
    expect(Object.keys(json.tables)).not.toContain("portal_sessions");

    const details = { email: a1.email, postal_code: "10117", first_name: "Ada" } as never;
    await withService((tx) => correctDetails(tx, session, { details, ip: null, t: en }));
    const rows =
      await db.sql`select id, postal_code, first_name from public.contacts where id in (${a1.id}, ${a2.id}) order by id = ${a1.id} desc`;
    expect(rows[0]).toMatchObject({ postal_code: "10117", first_name: "Ada" });
    expect(rows[1]).toMatchObject({ postal_code: null, first_name: null });
    const [note] = await db.sql`select content_text from public.notes where contact_id = ${a1.id}`;
    expect(note.content_text).toContain('Postal code: "10115" → "10117"');
    const [audit] = await db.sql`select actor_id, after from public.audit_log
                                 where target_id = ${a1.id} and action = 'contact.portal_details_corrected'`;
    expect(audit.actor_id).toBeNull();
    expect(audit.after).toMatchObject({ via: "portal", fields: ["first_name", "postal_code"] });
    const [{ n }] =
      await db.sql`select count(*)::int as n from public.privacy_requests where contact_id = ${a1.id} and kind = 'export'`;
    expect(n).toBe(1);
  });

  test("a new email address is written only once its emailed confirmation is opened, once", async () => {
    const { a, a1 } = await world();
    const { session } = await signedIn(a.id, a1.email);
    const next = `${unique("new")}@example.test`;
    const result = await withService((tx) =>
      correctDetails(tx, session, { details: { email: next } as never, ip: null, t: en }),
    );
    expect(result.emailConfirmationSent).toBe(true);
    const [before] = await db.sql`select email from public.contacts where id = ${a1.id}`;
    expect(before.email).toBe(a1.email);
    const token = await emailedToken(next, "confirm-email");
    const confirm = () => withService((tx) => confirmEmailChange(tx, { workspaceId: a.id, token, ip: null }));
    expect("data" in (await confirm())).toBe(true);
    expect("error" in (await confirm())).toBe(true);
    const [after] = await db.sql`select email from public.contacts where id = ${a1.id}`;
    expect(after.email).toBe(next);
  });

  test("leaving a topic writes the ledger; an erasure request is a task for the workspace and rotates the portal token", async () => {
    const { a, a1 } = await world();
    const { session } = await signedIn(a.id, a1.email);
    const [news] =
      await db.sql`insert into public.email_topics (workspace_id, key, name) values (${a.id}, 'news', 'News') returning id`;
    const [events] =
      await db.sql`insert into public.email_topics (workspace_id, key, name) values (${a.id}, 'events', 'Events') returning id`;
    await db.sql`update public.contacts set is_subscribed = true, opt_in_timestamp = now(), opt_in_source = 'Form' where id = ${a1.id}`;
    await db.sql`insert into public.contact_topics (workspace_id, contact_id, topic_id, subscribed)
                 values (${a.id}, ${a1.id}, ${news.id}, true), (${a.id}, ${a1.id}, ${events.id}, true)
                 on conflict on constraint contact_topics_pkey do update set subscribed = true`;
    const saved = await withService((tx) => savePortalTopics(tx, session, { topicIds: [news.id], ip: null }));
    expect(saved).toEqual({ data: { joined: 0, left: 1 } });
    const ledger =
      await db.sql`select action, topic_id from public.consent_events where contact_id = ${a1.id}`;
    expect(ledger).toEqual([{ action: "unsubscribed", topic_id: events.id }]);

    const [{ portal_token: before }] =
      await db.sql`select portal_token from public.contacts where id = ${a1.id}`;
    await withService((tx) => requestErasure(tx, session, null));
    await withService((tx) => requestErasure(tx, session, null));
    const tasks = await db.sql`select title, status from public.tasks where contact_id = ${a1.id}`;
    expect(tasks).toEqual([{ title: "Erasure requested by the contact", status: "open" }]);
    const [{ portal_token: after }] =
      await db.sql`select portal_token from public.contacts where id = ${a1.id}`;
    expect(after).not.toBe(before);
    const [contact] = await db.sql`select 1 from public.contacts where id = ${a1.id}`;
    expect(contact).toBeTruthy(); // erasure stays a member's act
  });
});

describe("contacts.portal_token is never shown to a member (docs/decisions.md, 'Portal sessions')", () => {
  test("an owner and a member with their own JWT cannot select it, and read every other column", async () => {
    const { a, a1 } = await world();
    const member = await addMember(db.sql, a.id, "member");
    for (const claims of [a.owner.claims, member.claims]) {
      await expect(
        withUser(claims, (tx) => tx`select portal_token from public.contacts where id = ${a1.id}`),
      ).rejects.toThrow(/permission denied/);
      const [row] = await withUser(
        claims,
        (tx) => tx`select email, postal_code from public.contacts where id = ${a1.id}`,
      );
      expect(row.email).toBe(a1.email);
    }
  });
});
