import { describe, expect, test } from "vitest";
import { withService } from "@/lib/db/doors";
import { consentLedgerCsv, getConsentLedger } from "@/lib/consent/consent-ledger";
import { loadConsentState } from "@/lib/consent/load-consent-state";
import { manualSubscribe } from "@/lib/consent/manual-subscribe";
import { resubscribeContact } from "@/lib/consent/resubscribe-contact";
import { recordDeliverySuppression } from "@/lib/consent/record-delivery-suppression";
import { joinTopics, savePreferences, unsubscribeByLink } from "@/lib/consent/topic-consent";
import { createTopic } from "@/lib/consent/topics";
import { signLink } from "@/lib/crypto/signed-link";
import { unsubscribeContact } from "@/lib/consent/unsubscribe-contact";
import { previewBroadcast } from "@/lib/email/broadcasts";
import { applySubmission } from "@/lib/forms/apply-submission";
import { exportContactData } from "@/lib/privacy/export-contact-data";
import * as topicsRoute from "@/app/api/v1/contacts/[id]/topics/route";
import { apiKey, call } from "../helpers/api-v1";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createUser, createWorkspace } from "../helpers/factories";

const db = setupTestDatabase();

/** A workspace with the topics Newsletter (default) and Events. */
async function workspaceWithTopics() {
  const ws = await createWorkspace(db.sql);
  const topic = async (key: string, name: string, defaultOn: boolean) => {
    const result = await withService((tx) =>
      createTopic(tx, { workspaceId: ws.id, key, name, description: "", defaultOn }),
    );
    if ("error" in result) throw result.error;
    return result.data.id;
  };
  const newsletter = await topic("newsletter", "Newsletter", true);
  const events = await topic("events", "Events", false);
  return { ws, newsletter, events };
}

async function topicsOn(contactId: string): Promise<string[]> {
  const rows = await db.sql`
    select topic_id from contact_topics where contact_id = ${contactId} and subscribed order by topic_id`;
  return rows.map((r) => r.topic_id as string);
}

async function overall(contactId: string) {
  const [c] = await db.sql`
    select is_subscribed, unsubscribed_at is not null as unsubscribed,
           array(select reason from contact_suppressions s where s.contact_id = contacts.id order by reason) as suppressions
    from contacts where id = ${contactId}`;
  return c;
}

function ledger(contactId: string) {
  return db.sql`
    select action, flow, topic_id, source, host(ip) as ip from consent_events
    where contact_id = ${contactId} and action in ('subscribed', 'unsubscribed') order by created_at, id`;
}

/** A contact subscribed to both topics through the preference centre's rules. */
async function subscribedToBoth(t: Awaited<ReturnType<typeof workspaceWithTopics>>) {
  const c = await createContact(db.sql, t.ws.id, { is_subscribed: true });
  await withService(async (tx) => {
    const state = (await loadConsentState(tx, { contactId: c.id }))!;
    await joinTopics(tx, state, { flow: "resubscribe_link", topicIds: [t.events], ip: "203.0.113.9" });
  });
  return c;
}

const sorted = (...ids: string[]) => [...ids].sort();

describe("subscription topics on the consent engine (spec 3.3 rules per topic)", () => {
  test("a workspace's first topic holds every contact already subscribed; is_subscribed = any topic on", async () => {
    const ws = await createWorkspace(db.sql);
    const subscribed = await createContact(db.sql, ws.id, { is_subscribed: true });
    const notOptedIn = await createContact(db.sql, ws.id, { is_subscribed: false });
    const result = await withService((tx) =>
      createTopic(tx, { workspaceId: ws.id, key: "news", name: "News", description: "", defaultOn: false }),
    );
    if ("error" in result) throw result.error;
    expect(await topicsOn(subscribed.id)).toEqual([result.data.id]);
    expect(await topicsOn(notOptedIn.id)).toEqual([]);
  });

  test("a workspace without topics behaves as before: one overall ledger entry, no topic rows", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { is_subscribed: true });
    await withService((tx) => unsubscribeContact(tx, { contactId: c.id, flow: "unsubscribe_link" }));
    expect(await overall(c.id)).toEqual({
      is_subscribed: false,
      unsubscribed: true,
      suppressions: ["unsubscribe"],
    });
    expect(await ledger(c.id)).toEqual([
      { action: "unsubscribed", flow: "unsubscribe_link", topic_id: null, source: null, ip: null },
    ]);
    expect(await db.sql`select 1 from contact_topics where contact_id = ${c.id}`).toHaveLength(0);
  });

  test("a subscribe that chooses no topic (manual, spec 4.9) joins the default topics only", async () => {
    const t = await workspaceWithTopics();
    const admin = await createUser(db.sql);
    const c = await createContact(db.sql, t.ws.id, { is_subscribed: false });
    const result = await withService((tx) =>
      manualSubscribe(tx, {
        workspaceId: t.ws.id,
        contactId: c.id,
        legalBasis: "Written Consent",
        attested: true,
        ip: "198.51.100.1",
        actorUserId: admin.id,
      }),
    );
    expect(result).toEqual({ data: { contactId: c.id } });
    expect(await topicsOn(c.id)).toEqual([t.newsletter]);
    expect(await ledger(c.id)).toHaveLength(1);
  });

  test("a recipient leaves one topic by its link and stays in the other: one ledger entry, no suppression", async () => {
    const t = await workspaceWithTopics();
    const c = await subscribedToBoth(t);
    expect(await topicsOn(c.id)).toEqual(sorted(t.newsletter, t.events));
    const before = (await ledger(c.id)).length;

    const result = await withService((tx) =>
      unsubscribeByLink(tx, { contactId: c.id, topicId: t.events, ip: "198.51.100.7" }),
    );
    expect(result).toMatchObject({ data: { changed: true, topic: { id: t.events, name: "Events" } } });
    expect(await topicsOn(c.id)).toEqual([t.newsletter]);
    expect(await overall(c.id)).toEqual({ is_subscribed: true, unsubscribed: false, suppressions: [] });
    const entries = await ledger(c.id);
    expect(entries.slice(before)).toEqual([
      {
        action: "unsubscribed",
        flow: "unsubscribe_link",
        topic_id: t.events,
        source: null,
        ip: "198.51.100.7",
      },
    ]);

    // the ledger's CSV (a GDPR request) names the topic
    const csv = consentLedgerCsv(
      c.email,
      await withService((tx) => getConsentLedger(tx, { workspaceId: t.ws.id, contactId: c.id })),
    );
    expect(csv).toContain(",unsubscribed,unsubscribe_link,,,,198.51.100.7,Contact,Events\r\n");

    // the one-click POST after the person clicked changes nothing and writes nothing
    await withService((tx) => unsubscribeByLink(tx, { contactId: c.id, topicId: t.events }));
    expect(await ledger(c.id)).toHaveLength(entries.length);
  });

  test("leaving the last topic is the spec's unsubscribe (4.7), recorded once for that topic", async () => {
    const t = await workspaceWithTopics();
    const c = await createContact(db.sql, t.ws.id, { is_subscribed: true });
    expect(await topicsOn(c.id)).toEqual([t.newsletter]);
    await withService((tx) => unsubscribeByLink(tx, { contactId: c.id, topicId: t.newsletter }));
    expect(await overall(c.id)).toEqual({
      is_subscribed: false,
      unsubscribed: true,
      suppressions: ["unsubscribe"],
    });
    expect(await topicsOn(c.id)).toEqual([]);
    expect((await ledger(c.id)).map((e) => [e.action, e.topic_id])).toEqual([["unsubscribed", t.newsletter]]);
  });

  test("unsubscribing from all clears every topic with one ledger entry", async () => {
    const t = await workspaceWithTopics();
    const c = await subscribedToBoth(t);
    const before = (await ledger(c.id)).length;
    await withService((tx) => unsubscribeByLink(tx, { contactId: c.id }));
    expect(await topicsOn(c.id)).toEqual([]);
    expect(await overall(c.id)).toEqual({
      is_subscribed: false,
      unsubscribed: true,
      suppressions: ["unsubscribe"],
    });
    expect((await ledger(c.id)).slice(before)).toEqual([
      { action: "unsubscribed", flow: "unsubscribe_link", topic_id: null, source: null, ip: null },
    ]);
  });

  test("the link's topic is resolved in the contact's workspace: another workspace's topic unsubscribes from everything", async () => {
    const t = await workspaceWithTopics();
    const other = await workspaceWithTopics();
    const c = await subscribedToBoth(t);
    const result = await withService((tx) =>
      unsubscribeByLink(tx, { contactId: c.id, topicId: other.events }),
    );
    expect(result).toMatchObject({ data: { topic: null, changed: true } });
    expect(await topicsOn(c.id)).toEqual([]);
    expect((await ledger(c.id)).at(-1)).toMatchObject({ topic_id: null, action: "unsubscribed" });
  });

  test("a complaint still blocks every topic: no topic can be joined and the topic's audience skips the contact", async () => {
    const t = await workspaceWithTopics();
    const c = await createContact(db.sql, t.ws.id, { is_subscribed: true });
    await withService((tx) =>
      recordDeliverySuppression(tx, { workspaceId: t.ws.id, contactId: c.id, reason: "complaint" }),
    );
    const before = await ledger(c.id);
    const saved = await withService((tx) =>
      savePreferences(tx, {
        contactId: c.id,
        topicIds: [t.newsletter, t.events],
        signature: signLink("preferences", { workspaceId: t.ws.id, contactId: c.id }),
      }),
    );
    expect(saved).toMatchObject({ error: { code: "suppressed" } });
    expect(await topicsOn(c.id)).toEqual([t.newsletter]);
    expect(await ledger(c.id)).toEqual(before);
    const preview = await withService((tx) =>
      previewBroadcast(tx, { workspaceId: t.ws.id, audience: audience(t.newsletter) }),
    );
    expect(preview).toEqual({
      total: 1,
      eligible: 0,
      skipped: [{ reason: "complaint suppression", count: 1 }],
    });
  });

  test("re-subscribing follows today's rules: the subscribe link (4.6) is refused past a bounce and joins no topic", async () => {
    const t = await workspaceWithTopics();
    const c = await createContact(db.sql, t.ws.id, { is_subscribed: true });
    await withService((tx) => unsubscribeByLink(tx, { contactId: c.id }));
    await withService((tx) =>
      recordDeliverySuppression(tx, { workspaceId: t.ws.id, contactId: c.id, reason: "bounce" }),
    );
    const result = await withService((tx) => resubscribeContact(tx, { contactId: c.id }));
    expect(result).toMatchObject({ reason: "bounce" });
    expect(await topicsOn(c.id)).toEqual([]);

    const clean = await createContact(db.sql, t.ws.id, { is_subscribed: true });
    await withService((tx) => unsubscribeByLink(tx, { contactId: clean.id }));
    await withService((tx) => resubscribeContact(tx, { contactId: clean.id }));
    expect(await topicsOn(clean.id)).toEqual([t.newsletter]);
  });

  test("the preference centre joins and leaves topics: one ledger entry per topic changed", async () => {
    const t = await workspaceWithTopics();
    const c = await createContact(db.sql, t.ws.id, { is_subscribed: true });
    const before = (await ledger(c.id)).length;
    const saved = await withService((tx) =>
      // the email link's signature lets the centre join (docs/decisions.md, "Signed recipient links")
      savePreferences(tx, {
        contactId: c.id,
        topicIds: [t.events, "not-a-uuid"],
        ip: "192.0.2.4",
        signature: signLink("preferences", { workspaceId: t.ws.id, contactId: c.id }),
      }),
    );
    expect(saved).toEqual({ data: { joined: 1, left: 1 } });
    expect(await topicsOn(c.id)).toEqual([t.events]);
    expect(await overall(c.id)).toEqual({ is_subscribed: true, unsubscribed: false, suppressions: [] });
    // one transaction, one created_at: ordered by action
    const changes = (await ledger(c.id)).slice(before).map((e) => [e.action, e.topic_id, e.ip]);
    expect(changes.sort()).toEqual([
      ["subscribed", t.events, "192.0.2.4"],
      ["unsubscribed", t.newsletter, "192.0.2.4"],
    ]);
  });

  test("a form's chosen topics get the consent with the form's proof, one entry each; others stay off", async () => {
    const t = await workspaceWithTopics();
    const other = await workspaceWithTopics();
    const [form] = await db.sql<{ id: string; workspace_id: string; name: string; topic_ids: string[] }[]>`
      insert into forms (workspace_id, name, topic_ids, require_verification)
      values (${t.ws.id}, 'Events form', ${[t.events, other.newsletter]}, false) returning *`;
    const applied = await withService((tx) =>
      applySubmission(tx, {
        form,
        fields: { email: "fan@example.test", isSubscribed: true, person: {} } as never,
        payload: { email: "fan@example.test" },
        ip: "203.0.113.20",
        submissionType: "direct",
      }),
    );
    expect(await topicsOn(applied.contactId)).toEqual([t.events]);
    expect(await overall(applied.contactId)).toMatchObject({ is_subscribed: true });
    expect(await ledger(applied.contactId)).toEqual([
      { action: "subscribed", flow: "form", topic_id: t.events, source: form.id, ip: "203.0.113.20" },
    ]);
  });

  test("a broadcast to a topic reaches that topic's subscribers only; no topic: every subscribed contact", async () => {
    const t = await workspaceWithTopics();
    await subscribedToBoth(t);
    await createContact(db.sql, t.ws.id, { is_subscribed: true }); // newsletter only
    const count = (topicId?: string) =>
      withService((tx) => previewBroadcast(tx, { workspaceId: t.ws.id, audience: audience(topicId) }));
    expect((await count(t.events)).eligible).toBe(1);
    expect((await count(t.newsletter)).eligible).toBe(2);
    expect((await count()).eligible).toBe(2);
  });

  test("the privacy export lists consent per topic; erasing the contact removes its topic rows", async () => {
    const t = await workspaceWithTopics();
    const c = await subscribedToBoth(t);
    const exported = await withService((tx) =>
      exportContactData(tx, { workspaceId: t.ws.id, contactId: c.id }),
    );
    if ("error" in exported) throw exported.error;
    expect(exported.data.topics).toEqual([
      expect.objectContaining({ key: "events", name: "Events", subscribed: true }),
      expect.objectContaining({ key: "newsletter", name: "Newsletter", subscribed: true }),
    ]);
    await db.sql`delete from contacts where id = ${c.id}`;
    expect(await db.sql`select 1 from contact_topics where contact_id = ${c.id}`).toHaveLength(0);
  });
});

describe("REST v1 contact topics (docs/api.md)", () => {
  test("GET /api/v1/contacts/{id}/topics answers every topic with the contact's consent; another workspace's contact is 404", async () => {
    const t = await workspaceWithTopics();
    const other = await workspaceWithTopics();
    const c = await createContact(db.sql, t.ws.id, { is_subscribed: true });
    const stranger = await createContact(db.sql, other.ws.id, { is_subscribed: true });
    const key = await apiKey(db.sql, t.ws.id, ["contacts:read"]);
    const res = await call(topicsRoute.GET, {
      key: key.raw,
      path: `/api/v1/contacts/${c.id}/topics`,
      params: { id: c.id },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { id: t.events, key: "events", name: "Events", subscribed: false, changed_at: null },
      {
        id: t.newsletter,
        key: "newsletter",
        name: "Newsletter",
        subscribed: true,
        changed_at: expect.any(String),
      },
    ]);
    const foreign = await call(topicsRoute.GET, {
      key: key.raw,
      path: `/api/v1/contacts/${stranger.id}/topics`,
      params: { id: stranger.id },
    });
    expect(foreign.status).toBe(404);
  });

  test("POST /api/v1/contacts/{id}/topics sets the topics by key with the proof, one ledger entry per change; past a complaint it is 409 and nothing changes", async () => {
    const t = await workspaceWithTopics();
    const c = await createContact(db.sql, t.ws.id, { is_subscribed: true });
    const key = await apiKey(db.sql, t.ws.id, ["consent:write"]);
    const set = (topics: string[], id = c.id) =>
      call(topicsRoute.POST, {
        method: "POST",
        key: key.raw,
        path: `/api/v1/contacts/${id}/topics`,
        params: { id },
        body: { topics, proof: { source: "signup page", ip: "192.0.2.77" } },
      });
    const before = (await ledger(c.id)).length;
    const res = await set(["events"]);
    expect(res.status).toBe(200);
    expect(res.body.data.map((x: { key: string; subscribed: boolean }) => [x.key, x.subscribed])).toEqual([
      ["events", true],
      ["newsletter", false],
    ]);
    expect(await topicsOn(c.id)).toEqual([t.events]);
    const changes = (await ledger(c.id)).slice(before).map((e) => [e.action, e.flow, e.topic_id, e.ip]);
    expect(changes.sort()).toEqual([
      ["subscribed", "api_subscribe", t.events, "192.0.2.77"],
      ["unsubscribed", "api_unsubscribe", t.newsletter, "192.0.2.77"],
    ]);
    expect((await set(["nope"])).status).toBe(400);

    await withService((tx) =>
      recordDeliverySuppression(tx, { workspaceId: t.ws.id, contactId: c.id, reason: "complaint" }),
    );
    const refused = await set(["newsletter", "events"]);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("suppressed");
    expect(await topicsOn(c.id)).toEqual([t.events]);
  });
});

function audience(topicId?: string) {
  return { tagIds: [], tagMode: "any" as const, excludeTagIds: [], source: undefined, topicId };
}

describe("REST v1 contact topics: leaving everything (docs/api.md)", () => {
  test("an empty topic list answers the topics as stored and writes one ledger entry per topic left", async () => {
    const t = await workspaceWithTopics();
    const c = await subscribedToBoth(t);
    const key = await apiKey(db.sql, t.ws.id, ["consent:write"]);
    const before = (await ledger(c.id)).length;
    const res = await call(topicsRoute.POST, {
      method: "POST",
      key: key.raw,
      path: `/api/v1/contacts/${c.id}/topics`,
      params: { id: c.id },
      body: { topics: [], proof: { source: "account page", ip: "192.0.2.78" } },
    });
    expect(res.status).toBe(200);
    const stored = await db.sql`
      select t.key, coalesce(ct.subscribed, false) as subscribed from email_topics t
      left join contact_topics ct on ct.topic_id = t.id and ct.contact_id = ${c.id}
      where t.workspace_id = ${t.ws.id} order by t.key`;
    expect(res.body.data.map((x: { key: string; subscribed: boolean }) => [x.key, x.subscribed])).toEqual(
      stored.map((r) => [r.key, r.subscribed]),
    );
    expect(stored.map((r) => r.subscribed)).toEqual([false, false]);
    expect(await overall(c.id)).toEqual({
      is_subscribed: false,
      unsubscribed: true,
      suppressions: ["unsubscribe"],
    });
    const changes = (await ledger(c.id)).slice(before).map((e) => [e.action, e.flow, e.topic_id, e.ip]);
    expect(changes.sort()).toEqual(
      [
        ["unsubscribed", "api_unsubscribe", t.events, "192.0.2.78"],
        ["unsubscribed", "api_unsubscribe", t.newsletter, "192.0.2.78"],
      ].sort(),
    );
  });
});
