import { describe, expect, test } from "vitest";
import * as broadcastsApi from "@/lib/api/v1/broadcasts";
import { runBroadcast } from "@/lib/email/flows/run-broadcast";
import { openApiDocument } from "@/lib/openapi/document";
import { apiKey, call, handlerOf } from "../helpers/api-v1";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace } from "../helpers/factories";

/**
 * DESIGN section 9, "Sending": broadcasts created, sent or scheduled and cancelled through v1 with
 * `email:write`; the document's example, POSTed as it is and sent, reaches every subscribed
 * contact of the key's workspace and no one else.
 */
const db = setupTestDatabase();

const create = handlerOf(broadcastsApi.create);
const send = handlerOf(broadcastsApi.send);
const cancel = handlerOf(broadcastsApi.cancel);

const post = (handler: typeof create, path: string, key: string, body?: unknown, id?: string) =>
  call(handler, { method: "POST", path, key, body, params: id ? { id } : {} });

async function workspaceWithKey(scopes: Parameters<typeof apiKey>[2] = ["email:write"]) {
  const ws = await createWorkspace(db.sql);
  const key = await apiKey(db.sql, ws.id, scopes);
  return { ws, key: key.raw };
}

const broadcastRow = async (id: string) =>
  (
    await db.sql`select workspace_id, subject, status, scheduled_at, created_by from broadcasts where id = ${id}`
  )[0];

describe("REST v1 broadcasts (email:write)", () => {
  test("the OpenAPI example, POSTed as it is and sent, reaches every subscribed contact of the key's workspace once and no one else", async () => {
    const { ws, key } = await workspaceWithKey();
    const subscribed = await Promise.all(
      [1, 2, 3].map(() => createContact(db.sql, ws.id, { is_subscribed: true })),
    );
    const never = await createContact(db.sql, ws.id, { is_subscribed: false });
    const other = await createWorkspace(db.sql);
    await createContact(db.sql, other.id, { is_subscribed: true });

    const document = openApiDocument() as unknown as {
      paths: Record<string, { post: { requestBody: { content: Record<string, { example: unknown }> } } }>;
    };
    const example = document.paths["/api/v1/broadcasts"].post.requestBody.content["application/json"].example;
    expect(example).toEqual(broadcastsApi.create.example);

    const made = await post(create, "/api/v1/broadcasts", key, example);
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ subject: "Our spring programme", status: "draft" });
    expect(await broadcastRow(made.body.id)).toMatchObject({
      workspace_id: ws.id,
      status: "draft",
      created_by: null,
    });

    const sent = await post(send, `/api/v1/broadcasts/${made.body.id}/send`, key, {}, made.body.id);
    expect(sent.status).toBe(200);
    expect(sent.body.status).toBe("sending");
    expect((await runBroadcast({ workspaceId: ws.id, broadcastId: made.body.id })).status).toBe("done");

    const rows =
      await db.sql`select contact_id, status from email_sends where broadcast_id = ${made.body.id}`;
    const byContact = new Map(rows.map((r) => [r.contact_id, r.status]));
    expect(rows).toHaveLength(4);
    for (const c of subscribed) expect(byContact.get(c.id)).toBe("outbox");
    expect(byContact.get(never.id)).toBe("skipped");
    expect((await broadcastRow(made.body.id)).status).toBe("sent");
    const audit =
      await db.sql`select action from audit_log where workspace_id = ${ws.id} and target_id = ${made.body.id}
                               order by created_at`;
    expect(audit.map((a) => a.action)).toEqual(["broadcast.created", "broadcast.started"]);
  });

  test("send with `at` schedules it; a time in the past is 400 naming `at`; a broadcast no longer a draft is 409 and unchanged", async () => {
    const { key } = await workspaceWithKey();
    const made = await post(create, "/api/v1/broadcasts", key, {
      subject: "Later",
      body: "Hi {{unsubscribe_url}}",
    });
    const id = made.body.id;
    const past = await post(send, `/api/v1/broadcasts/${id}/send`, key, { at: "2020-01-01T09:00:00Z" }, id);
    expect(past.status).toBe(400);
    expect(past.body.error.fields).toHaveProperty("at");
    expect((await broadcastRow(id)).status).toBe("draft");

    const at = new Date(Date.now() + 3_600_000);
    at.setMilliseconds(0);
    const scheduled = await post(send, `/api/v1/broadcasts/${id}/send`, key, { at: at.toISOString() }, id);
    expect(scheduled.status).toBe(200);
    expect(await broadcastRow(id)).toMatchObject({ status: "scheduled", scheduled_at: at });

    const cancelled = await post(cancel, `/api/v1/broadcasts/${id}/cancel`, key, undefined, id);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe("cancelled");
    const again = await post(send, `/api/v1/broadcasts/${id}/send`, key, {}, id);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("conflict");
    const twice = await post(cancel, `/api/v1/broadcasts/${id}/cancel`, key, undefined, id);
    expect(twice.status).toBe(409);
    expect((await broadcastRow(id)).status).toBe("cancelled");
  });

  test("a topic or segment of another workspace is 400 naming the field and nothing is stored; a segment reading purchases needs transactions:read", async () => {
    const { ws, key } = await workspaceWithKey();
    const other = await createWorkspace(db.sql);
    const [theirTopic] =
      await db.sql`insert into email_topics (workspace_id, key, name) values (${other.id}, 'news', 'News') returning id`;
    const [theirSegment] = await db.sql`insert into segments (workspace_id, name, filter)
      values (${other.id}, 'Theirs', '{"version":1,"root":{"kind":"group","op":"and","not":false,"conditions":[]}}') returning id`;
    const [buyers] = await db.sql`insert into segments (workspace_id, name, filter)
      values (${ws.id}, 'Buyers', ${db.sql.json({
        version: 1,
        root: { kind: "group", op: "and", not: false, conditions: [{ kind: "purchased", not: false }] },
      })}) returning id`;
    const body = { subject: "News", body: "Hi {{unsubscribe_url}}" };
    const topic = await post(create, "/api/v1/broadcasts", key, { ...body, topic_id: theirTopic.id });
    expect(topic.status).toBe(400);
    expect(topic.body.error.fields).toHaveProperty("topic_id");
    const segment = await post(create, "/api/v1/broadcasts", key, { ...body, segment_id: theirSegment.id });
    expect(segment.status).toBe(400);
    expect(segment.body.error.fields).toHaveProperty("segment_id");
    const purchases = await post(create, "/api/v1/broadcasts", key, { ...body, segment_id: buyers.id });
    expect(purchases.status).toBe(403);
    expect(await db.sql`select id from broadcasts where workspace_id = ${ws.id}`).toHaveLength(0);
  });

  test("a key with email:read only cannot create, send or cancel", async () => {
    const { ws, key } = await workspaceWithKey(["email:read"]);
    const [draft] =
      await db.sql`insert into broadcasts (workspace_id, subject, body_text) values (${ws.id}, 'Draft', 'Hi') returning id`;
    expect((await post(create, "/api/v1/broadcasts", key, { subject: "X", body: "Y" })).status).toBe(403);
    expect((await post(send, `/api/v1/broadcasts/${draft.id}/send`, key, {}, draft.id)).status).toBe(403);
    expect(
      (await post(cancel, `/api/v1/broadcasts/${draft.id}/cancel`, key, undefined, draft.id)).status,
    ).toBe(403);
    expect((await broadcastRow(draft.id)).status).toBe("draft");
    expect(await db.sql`select id from broadcasts where workspace_id = ${ws.id}`).toHaveLength(1);
  });

  test("scope labels hold: a key with email:write alone is answered without the counts that email:read reads; with both, with them", async () => {
    const { ws, key } = await workspaceWithKey(["email:write"]);
    const both = (await apiKey(db.sql, ws.id, ["email:write", "email:read"])).raw;
    const body = { subject: "Counts", body: "Hello" };
    for (const [holder, counted] of [
      [key, false],
      [both, true],
    ] as const) {
      const made = await post(create, "/api/v1/broadcasts", holder, body);
      expect(made.status).toBe(201);
      const started = await post(send, `/api/v1/broadcasts/${made.body.id}/send`, holder, {}, made.body.id);
      expect(started.status).toBe(200);
      const ended = await post(cancel, `/api/v1/broadcasts/${made.body.id}/cancel`, holder, {}, made.body.id);
      expect(ended.status).toBe(200);
      for (const answer of [made, started, ended]) expect("stats" in answer.body).toBe(counted);
      if (counted) expect(ended.body.stats).toMatchObject({ sent: 0, opened_unique: 0 });
    }
  });
});

describe("a broadcast in the contact's language (docs/decisions.md, 'Recipient languages')", () => {
  test("a contact whose locale has a translation gets its subject and message; another language or none gets the broadcast's own", async () => {
    const { ws, key } = await workspaceWithKey();
    const people = [
      ["es-MX", "Noticias de primavera", "Hola Ana"],
      ["de", "Spring news", "Hello Ana"],
      ["ja", "Spring news", "Hello Ana"],
      [null, "Spring news", "Hello Ana"],
    ] as const;
    const contacts: string[] = [];
    for (const [locale] of people) {
      const c = await createContact(db.sql, ws.id, { first_name: "Ana", is_subscribed: true });
      await db.sql`update contacts set locale = ${locale} where id = ${c.id}`;
      contacts.push(c.id);
    }
    const made = await post(create, "/api/v1/broadcasts", key, {
      subject: "Spring news",
      body: "Hello {{first_name}}",
      translations: { es: { subject: "Noticias de primavera", body: "Hola {{first_name}}" } },
    });
    expect(made.status).toBe(201);
    const [stored] = await db.sql`select translations from broadcasts where id = ${made.body.id}`;
    expect(stored.translations.es).toMatchObject({
      subject: "Noticias de primavera",
      body: "Hola {{first_name}}",
    });
    expect((await post(send, `/api/v1/broadcasts/${made.body.id}/send`, key, {}, made.body.id)).status).toBe(
      200,
    );
    expect((await runBroadcast({ workspaceId: ws.id, broadcastId: made.body.id })).status).toBe("done");
    for (const [i, [, subject, greeting]] of people.entries()) {
      const [sent] = await db.sql`
        select subject, html, text_body from email_sends where broadcast_id = ${made.body.id} and contact_id = ${contacts[i]}`;
      expect(sent.subject).toBe(subject);
      expect(sent.html).toContain(greeting);
      expect(sent.text_body).toContain(greeting);
      // every language keeps its unsubscribe link
      expect(sent.text_body).toMatch(/\/unsubscribe\//);
    }
  });

  test("a language not shipped, a translation without its message, or translations with an A/B test are 400 and nothing is stored", async () => {
    const { ws, key } = await workspaceWithKey();
    const bad = [
      { translations: { it: { subject: "Notizie", body: "Ciao" } } },
      { translations: { es: { subject: "Noticias" } } },
      {
        translations: { es: { subject: "Noticias", body: "Hola" } },
        variants: [{ subject: "A" }, { subject: "B" }],
        ab_test: { share: 20, metric: "opens", decide_after_hours: 4 },
      },
    ];
    for (const extra of bad) {
      const res = await post(create, "/api/v1/broadcasts", key, { subject: "News", body: "Hello", ...extra });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
    }
    expect(await db.sql`select id from broadcasts where workspace_id = ${ws.id}`).toEqual([]);
  });
});
