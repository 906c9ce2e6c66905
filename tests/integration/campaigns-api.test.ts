import { describe, expect, test } from "vitest";
import * as campaignsApi from "@/lib/api/v1/campaigns";
import { runCampaignSweep } from "@/lib/campaigns/flows/run-campaign-sweep";
import { openApiDocument } from "@/lib/openapi/document";
import { apiKey, call, handlerOf } from "../helpers/api-v1";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace } from "../helpers/factories";

/**
 * DESIGN section 9, "Campaigns": campaigns through v1 with `campaigns:read` and `campaigns:write`;
 * the document's welcome series runs as it is, published and given an enrollment; 201 and 409
 * `already_enrolled`; an invalid graph is 400 naming the step with nothing stored; a key of one
 * workspace reaches nothing of another.
 */
const db = setupTestDatabase();

const create = handlerOf(campaignsApi.create);
const get = handlerOf(campaignsApi.get);
const update = handlerOf(campaignsApi.update);
const publish = handlerOf(campaignsApi.publish);
const enroll = handlerOf(campaignsApi.enroll);
const enrollments = handlerOf(campaignsApi.listEnrollmentsOp);

async function workspaceWithKey(
  scopes: Parameters<typeof apiKey>[2] = ["campaigns:write", "campaigns:read"],
) {
  const ws = await createWorkspace(db.sql);
  const key = await apiKey(db.sql, ws.id, scopes);
  return { ws, key: key.raw };
}

const postTo = (handler: typeof create, path: string, key: string, body?: unknown, id?: string) =>
  call(handler, { method: "POST", path, key, body, params: id ? { id } : {} });

const countRows = async (workspaceId: string) =>
  (
    await db.sql`select (select count(*)::int from campaigns where workspace_id = ${workspaceId}) as campaigns,
                        (select count(*)::int from campaign_enrollments where workspace_id = ${workspaceId}) as enrollments`
  )[0];

describe("REST v1 campaigns", () => {
  test("the OpenAPI example, POSTed as it is, published and given an enrollment, sends its first email (201), and a second enrollment is 409 already_enrolled", async () => {
    const { ws, key } = await workspaceWithKey();
    const contact = await createContact(db.sql, ws.id, { is_subscribed: true, first_name: "Ada" });
    const document = openApiDocument() as unknown as {
      paths: Record<string, { post: { requestBody: { content: Record<string, { example: unknown }> } } }>;
    };
    const example = document.paths["/api/v1/campaigns"].post.requestBody.content["application/json"].example;
    expect(example).toEqual(campaignsApi.WELCOME_SERIES);

    const made = await postTo(create, "/api/v1/campaigns", key, example);
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ status: "draft", published_version: null });
    const id = made.body.id;
    const published = await postTo(publish, `/api/v1/campaigns/${id}/publish`, key, undefined, id);
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ status: "active", published_version: 1 });

    const path = `/api/v1/campaigns/${id}/enrollments`;
    const first = await postTo(enroll, path, key, { contact_id: contact.id }, id);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ id: expect.any(String), status: "active" });
    const again = await postTo(enroll, path, key, { contact_id: contact.id }, id);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("already_enrolled");
    expect((await countRows(ws.id)).enrollments).toBe(1);

    await runCampaignSweep();
    const sends = await db.sql`select subject, status, campaign_step from email_sends
                               where campaign_enrollment_id = ${first.body.id}`;
    expect(sends).toEqual([{ subject: "Welcome, Ada", status: "outbox", campaign_step: "welcome" }]);

    const listed = await call(enrollments, {
      path: `${path}?status=active`,
      key,
      params: { id },
    });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      expect.objectContaining({ id: first.body.id, status: "active", current_step: "pause", version: 1 }),
    ]);
    const none = await call(enrollments, { path: `${path}?status=completed`, key, params: { id } });
    expect(none.body.data).toEqual([]);
    const read = await call(get, { path: `/api/v1/campaigns/${id}`, key, params: { id } });
    expect(read.body.enrollments).toEqual({ active: 1, completed: 0, cancelled: 0, exited: 0 });
  });

  test("an invalid graph is 400 naming the step, and nothing is stored (create and update)", async () => {
    const { ws, key } = await workspaceWithKey();
    const bad = [
      { id: "hello", type: "send_email", subject: "Hi", body: "Hello" },
      { id: "check", type: "branch", condition: { type: "opened", step: "nowhere" } },
    ];
    const refused = await postTo(create, "/api/v1/campaigns", key, { name: "Bad", steps: bad });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('Step "check"');
    expect(refused.body.error.message).toContain("nowhere");
    expect((await countRows(ws.id)).campaigns).toBe(0);

    const made = await postTo(create, "/api/v1/campaigns", key, { name: "Good", steps: bad.slice(0, 1) });
    const id = made.body.id;
    const patched = await call(update, {
      method: "PATCH",
      path: `/api/v1/campaigns/${id}`,
      key,
      params: { id },
      body: { steps: [{ id: "wait", type: "wait", duration: { minutes: 0 } }] },
    });
    expect(patched.status).toBe(400);
    expect(patched.body.error.message).toContain('Step "wait"');
    const [row] = await db.sql`select steps from campaigns where id = ${id}`;
    expect(row.steps).toEqual(bad.slice(0, 1));
  });

  test("attack: a key of workspace A cannot enroll a contact of workspace B, nor touch B's campaign (404, nothing stored)", async () => {
    const { ws, key } = await workspaceWithKey();
    const other = await workspaceWithKey();
    const theirs = await createContact(db.sql, other.ws.id, { is_subscribed: true });
    const made = await postTo(create, "/api/v1/campaigns", key, campaignsApi.WELCOME_SERIES);
    const id = made.body.id;
    await postTo(publish, `/api/v1/campaigns/${id}/publish`, key, undefined, id);
    const cross = await postTo(
      enroll,
      `/api/v1/campaigns/${id}/enrollments`,
      key,
      { contact_id: theirs.id },
      id,
    );
    expect(cross.status).toBe(404);
    expect(await countRows(ws.id)).toMatchObject({ enrollments: 0 });
    expect(await countRows(other.ws.id)).toMatchObject({ enrollments: 0 });

    const theirCampaign = await postTo(create, "/api/v1/campaigns", other.key, campaignsApi.WELCOME_SERIES);
    const tid = theirCampaign.body.id;
    const mine = await createContact(db.sql, ws.id, { is_subscribed: true });
    const intoTheirs = await postTo(
      enroll,
      `/api/v1/campaigns/${tid}/enrollments`,
      key,
      { contact_id: mine.id },
      tid,
    );
    expect(intoTheirs.status).toBe(404);
    expect((await postTo(publish, `/api/v1/campaigns/${tid}/publish`, key, undefined, tid)).status).toBe(404);
    expect((await call(get, { path: `/api/v1/campaigns/${tid}`, key, params: { id: tid } })).status).toBe(
      404,
    );
    const [their] = await db.sql`select status, published_version from campaigns where id = ${tid}`;
    expect(their).toEqual({ status: "draft", published_version: null });
    expect(await countRows(other.ws.id)).toMatchObject({ enrollments: 0 });
  });

  test("a key with campaigns:read only cannot create or enroll (403)", async () => {
    const { ws, key } = await workspaceWithKey(["campaigns:read"]);
    const refused = await postTo(create, "/api/v1/campaigns", key, campaignsApi.WELCOME_SERIES);
    expect(refused.status).toBe(403);
    expect((await countRows(ws.id)).campaigns).toBe(0);
  });
});
