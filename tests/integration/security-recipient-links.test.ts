import { describe, expect, test } from "vitest";
import { GET as subscribe } from "@/app/api/subscribe/[contactId]/route";
import { appUrl } from "@/lib/config";
import { withService, withUser } from "@/lib/db/doors";
import { addManualSuppression } from "@/lib/consent/suppressions";
import { savePreferences, unsubscribeByLink } from "@/lib/consent/topic-consent";
import { createTopic } from "@/lib/consent/topics";
import { signLink } from "@/lib/crypto/signed-link";
import { sendEmail } from "@/lib/email/send-email";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace, type TestWorkspace } from "../helpers/factories";

/**
 * Recipient links whose only secret would be the contact id (docs/decisions.md, "Signed recipient
 * links"): members, API keys and webhook receivers all see ids, so what spec 4.6 and 4.7 do not
 * name (joining a topic, clearing a member's manual block) needs the signature our emails carry.
 */
const db = setupTestDatabase();

const GARBAGE = "0123456789abcdef0123456789abcdef";
const open = (url: string) =>
  subscribe(new Request(url, { headers: { "x-forwarded-for": "203.0.113.90" } }), {
    params: Promise.resolve({ contactId: new URL(url).pathname.split("/").pop()! }),
  });

async function blocked(ws: TestWorkspace, fields: Record<string, unknown> = { unsubscribed_at: new Date() }) {
  const c = await createContact(db.sql, ws.id, fields);
  await withUser(ws.owner.claims, (tx) =>
    addManualSuppression(tx, { workspaceId: ws.id, contactId: c.id, actorUserId: ws.owner.id }),
  );
  return c;
}

const stateOf = async (contactId: string) => {
  const [row] = await db.sql`
    select c.is_subscribed, c.unsubscribed_at, c.opt_in_timestamp,
           array(select reason from contact_suppressions s where s.contact_id = c.id order by reason) as suppressions,
           (select count(*)::int from consent_events e where e.contact_id = c.id) as ledger,
           array(select topic_id::text from contact_topics t where t.contact_id = c.id and t.subscribed order by 1) as topics
    from contacts c where c.id = ${contactId}`;
  return row;
};

/** The first link of `path` in the newest email to the contact (the dev outbox keeps it whole). */
async function linkInEmail(contactId: string, path: string): Promise<string> {
  const [row] = await db.sql`
    select html from email_sends where contact_id = ${contactId} order by created_at desc limit 1`;
  const match = new RegExp(`href="([^"]*${path}[^"]*)"`).exec(row.html as string);
  return match![1].replaceAll("&amp;", "&");
}

describe("spec 4.6 link with only the contact id", () => {
  test("holding only the contact id, a manually blocked contact cannot be re-subscribed and its block stays", async () => {
    const ws = await createWorkspace(db.sql);
    const other = await createWorkspace(db.sql);
    const c = await blocked(ws);
    const before = await stateOf(c.id);
    const forged = [
      "",
      `?sig=${GARBAGE}`,
      `?sig=${signLink("preferences", { workspaceId: ws.id, contactId: c.id })}`,
      `?sig=${signLink("subscribe", { workspaceId: other.id, contactId: c.id })}`,
    ];
    for (const query of forged) {
      const res = await open(`${appUrl()}/api/subscribe/${c.id}${query}`);
      expect(res.headers.get("location")).toBe(`${appUrl()}/subscribe/error?reason=not_found`);
    }
    expect(await stateOf(c.id)).toEqual(before);
    expect(before).toMatchObject({ is_subscribed: false, suppressions: ["manual"] });
  });

  test("with the signed link of the subscribe footer (spec 4.8), the manual block is cleared as spec 4.6 says", async () => {
    const ws = await createWorkspace(db.sql);
    await db.sql`update workspaces set subscribe_footer_enabled = true where id = ${ws.id}`;
    const c = await createContact(db.sql, ws.id, { unsubscribed_at: new Date() });
    await withService((tx) =>
      sendEmail(tx, {
        workspaceId: ws.id,
        contactId: c.id,
        to: c.email,
        kind: "transactional",
        subject: "Receipt",
        html: "<p>Thanks</p>",
      }),
    );
    const link = await linkInEmail(c.id, "/api/subscribe/");
    await withUser(ws.owner.claims, (tx) =>
      addManualSuppression(tx, { workspaceId: ws.id, contactId: c.id, actorUserId: ws.owner.id }),
    );
    const res = await open(link);
    expect(res.headers.get("location")).toBe(`${appUrl()}/subscribe/confirmed`);
    expect(await stateOf(c.id)).toMatchObject({
      is_subscribed: true,
      unsubscribed_at: null,
      suppressions: [],
    });
  });

  test("a plain unsubscribed contact is still re-subscribed by the id alone, as spec 4.6 says", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { unsubscribed_at: new Date() });
    const res = await open(`${appUrl()}/api/subscribe/${c.id}`);
    expect(res.headers.get("location")).toBe(`${appUrl()}/subscribe/confirmed`);
    expect(await stateOf(c.id)).toMatchObject({ is_subscribed: true, suppressions: [] });
  });
});

describe("the preference centre with only the contact id", () => {
  async function workspaceWithTopics() {
    const ws = await createWorkspace(db.sql);
    const topic = async (key: string, defaultOn: boolean) => {
      const result = await withService((tx) =>
        createTopic(tx, { workspaceId: ws.id, key, name: key, description: "", defaultOn }),
      );
      if ("error" in result) throw result.error;
      return result.data.id;
    };
    return { ws, news: await topic("news", true), events: await topic("events", false) };
  }

  test("holding only the contact id, you cannot join a topic: refused and nothing changes", async () => {
    const t = await workspaceWithTopics();
    const c = await createContact(db.sql, t.ws.id, { is_subscribed: true });
    await withService((tx) => unsubscribeByLink(tx, { contactId: c.id, topicId: t.news }));
    const before = await stateOf(c.id);
    for (const signature of [
      undefined,
      GARBAGE,
      signLink("subscribe", { workspaceId: t.ws.id, contactId: c.id }),
    ]) {
      const result = await withService((tx) =>
        savePreferences(tx, { contactId: c.id, topicIds: [t.news, t.events], ip: "192.0.2.5", signature }),
      );
      expect("error" in result && result.error.code).toBe("not_found");
    }
    expect(await stateOf(c.id)).toEqual(before);
    expect(before.is_subscribed).toBe(false);
  });

  test("holding only the contact id, you can still leave topics and unsubscribe (spec 4.7)", async () => {
    const t = await workspaceWithTopics();
    const c = await createContact(db.sql, t.ws.id, { is_subscribed: true });
    const result = await withService((tx) =>
      savePreferences(tx, { contactId: c.id, topicIds: [], ip: null }),
    );
    expect(result).toEqual({ data: { joined: 0, left: 1 } });
    expect(await stateOf(c.id)).toMatchObject({
      is_subscribed: false,
      topics: [],
      suppressions: ["unsubscribe"],
    });
  });

  test("with the signed unsubscribe link of a marketing email, the preference centre joins topics", async () => {
    const t = await workspaceWithTopics();
    const c = await createContact(db.sql, t.ws.id, { is_subscribed: true });
    await withService((tx) =>
      sendEmail(tx, {
        workspaceId: t.ws.id,
        contactId: c.id,
        to: c.email,
        kind: "marketing",
        subject: "News",
        html: "<p>News</p>",
      }),
    );
    const link = new URL(await linkInEmail(c.id, "/unsubscribe/"));
    await withService((tx) => unsubscribeByLink(tx, { contactId: c.id }));
    const result = await withService((tx) =>
      savePreferences(tx, {
        contactId: c.id,
        topicIds: [t.events],
        ip: "192.0.2.6",
        signature: link.searchParams.get("sig"),
      }),
    );
    expect(result).toEqual({ data: { joined: 1, left: 0 } });
    expect(await stateOf(c.id)).toMatchObject({ is_subscribed: true, topics: [t.events] });
  });
});
