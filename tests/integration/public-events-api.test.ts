import { beforeAll, describe, expect, test } from "vitest";
import { GET, OPTIONS } from "@/app/api/v1/public/events/route";
import { withUser } from "@/lib/db/doors";
import { issueApiKey } from "@/lib/api-keys/issue-api-key";
import { listApiKeys } from "@/lib/api-keys/list-api-keys";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";
import { forgetApiKey } from "@/lib/events/public-api/api-key-cache";
import { forgetPublicEvents } from "@/lib/events/public-api/public-events-cache";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createWorkspace } from "../helpers/factories";

const db = setupTestDatabase();

beforeAll(() => {
  process.env.APP_URL = "http://crm.test";
});

const hours = (n: number) => new Date(Date.now() + n * 3_600_000);

async function event(workspaceId: string, fields: Record<string, unknown>) {
  const row = {
    workspace_id: workspaceId,
    name: "Event",
    start_time: hours(24),
    end_time: hours(26),
    timezone: "UTC",
    is_published: true,
    ...fields,
  };
  const [e] = await db.sql`insert into events ${db.sql(row)} returning id`;
  return e.id as string;
}

async function keyFor(workspaceId: string, owner: Parameters<typeof withUser>[0]) {
  const { data } = await withUser(owner, (tx) => issueApiKey(tx, { workspaceId, name: "Website" }));
  return data;
}

const get = (query = "", headers: Record<string, string> = {}) =>
  GET(new Request(`http://crm.test/api/v1/public/events${query}`, { headers }));

describe("4.14 GET /api/v1/public/events", () => {
  test("4.14: published events whose end is in the future, ascending by start, only the key's workspace", async () => {
    const ws = await createWorkspace(db.sql);
    const other = await createWorkspace(db.sql);
    const later = await event(ws.id, { name: "Later", start_time: hours(48), end_time: hours(50) });
    const running = await event(ws.id, { name: "Running", start_time: hours(-1), end_time: hours(1) });
    const soon = await event(ws.id, {
      name: "Soon",
      website_title: "Soon (public)",
      start_time: hours(2),
      end_time: hours(3),
    });
    await event(ws.id, { name: "Ended", start_time: hours(-5), end_time: hours(-1) });
    await event(ws.id, { name: "Draft", is_published: false });
    await event(ws.id, { name: "No end", end_time: null });
    await event(other.id, { name: "Foreign" });
    const key = await keyFor(ws.id, ws.owner.claims);
    const res = await get("", { Authorization: `Bearer ${key.key}` });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.map((e: { id: string }) => e.id)).toEqual([running, soon, later]);
    expect(body[1]).toMatchObject({ title: "Soon (public)", rsvp_url: `http://crm.test/rsvp/${soon}` });
    expect(body[1]).not.toHaveProperty("name");
  });

  test("display_price: 'Free' without paid classes, '$X' with one, 'From $X' with more, two decimals", async () => {
    const ws = await createWorkspace(db.sql);
    await event(ws.id, { name: "free", start_time: hours(1), ticket_class_count: 0, ticket_price: null });
    await event(ws.id, { name: "one", start_time: hours(2), ticket_class_count: 1, ticket_price: "25" });
    await event(ws.id, {
      name: "many",
      start_time: hours(3),
      ticket_class_count: 3,
      ticket_price: "9.5",
      external_event_id: "eb-9",
      eventbrite_url: "https://www.eventbrite.com/e/9",
    });
    const key = await keyFor(ws.id, ws.owner.claims);
    const body = await (await get(`?key=${key.key}`)).json();
    expect(
      body.map((e: Record<string, unknown>) => [e.display_price, e.ticket_class_count, e.ticket_price]),
    ).toEqual([
      ["Free", 0, null],
      ["$25.00", 1, 25],
      ["From $9.50", 3, 9.5],
    ]);
    expect(body[2]).toMatchObject({ eventbrite_url: "https://www.eventbrite.com/e/9", rsvp_url: null });
  });

  test("4.14 CORS: Access-Control-Allow-Origin * on answers and the preflight; caching headers per key", async () => {
    const ws = await createWorkspace(db.sql);
    const key = await keyFor(ws.id, ws.owner.claims);
    const res = await get(`?key=${key.key}`, { Origin: "https://site.example" });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("cache-control")).toContain("max-age=60");
    expect(res.headers.get("vary")).toBe("Authorization");
    const preflight = await OPTIONS();
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("Authorization");
    expect((await get("")).headers.get("access-control-allow-origin")).toBe("*");
  });

  test("5.2: 401 without a key or with an unknown one, 403 with a revoked one; last_used_at is recorded", async () => {
    const ws = await createWorkspace(db.sql);
    const key = await keyFor(ws.id, ws.owner.claims);
    expect((await get("")).status).toBe(401);
    expect((await get("", { Authorization: "Bearer evk_unknown" })).status).toBe(401);
    expect((await get("?key=evk_unknown")).status).toBe(401);
    expect((await get(`?key=${key.key}`)).status).toBe(200);
    const [used] = await db.sql`select last_used_at, key_hash from api_keys where id = ${key.id}`;
    expect(used.last_used_at).toBeInstanceOf(Date);
    expect(used.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(used.key_hash).not.toContain(key.key);
    await withUser(ws.owner.claims, (tx) => revokeApiKey(tx, { workspaceId: ws.id, keyId: key.id }));
    const revoked = await get("", { Authorization: `Bearer ${key.key}` });
    expect(revoked.status).toBe(403);
    expect(revoked.headers.get("cache-control")).toBe("no-store");
    expect(await revoked.json()).toEqual({ error: "This API key has been revoked." });
  });
});

describe("public events API caching: key checks and lists kept briefly, revocation honoured", () => {
  test("a key check is kept: a repeated request runs no database statement for the key", async () => {
    const ws = await createWorkspace(db.sql);
    const key = await keyFor(ws.id, ws.owner.claims);
    expect((await get(`?key=${key.key}`)).status).toBe(200);
    // the key row is gone from the database: only the kept check can still answer for it
    await db.sql`delete from api_keys where id = ${key.id}`;
    expect((await get(`?key=${key.key}`)).status).toBe(200);
    forgetApiKey();
    expect((await get(`?key=${key.key}`)).status).toBe(401);
  });

  test("a revocation made elsewhere is honoured once the kept check expires; one made here at once", async () => {
    const ws = await createWorkspace(db.sql);
    const key = await keyFor(ws.id, ws.owner.claims);
    expect((await get(`?key=${key.key}`)).status).toBe(200);
    // another process revokes: this one learns of it when its check expires (API_KEY_TTL_MS)
    await db.sql`update api_keys set revoked_at = now() where id = ${key.id}`;
    forgetApiKey();
    expect((await get(`?key=${key.key}`)).status).toBe(403);
    const second = await keyFor(ws.id, ws.owner.claims);
    expect((await get(`?key=${second.key}`)).status).toBe(200);
    await withUser(ws.owner.claims, (tx) => revokeApiKey(tx, { workspaceId: ws.id, keyId: second.id }));
    expect((await get(`?key=${second.key}`)).status).toBe(403);
  });

  test("an unchanged list is a 304 without a body for If-None-Match; a changed one a 200 with a new ETag", async () => {
    const ws = await createWorkspace(db.sql);
    await event(ws.id, { name: "First" });
    const key = await keyFor(ws.id, ws.owner.claims);
    const first = await get("", { Authorization: `Bearer ${key.key}` });
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await get("", { Authorization: `Bearer ${key.key}`, "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("access-control-allow-origin")).toBe("*");
    await event(ws.id, { name: "Second" });
    forgetPublicEvents(ws.id);
    const changed = await get("", { Authorization: `Bearer ${key.key}`, "If-None-Match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    expect(await changed.json()).toHaveLength(2);
  });
});

describe("public events API keys: issued, listed and revoked in Settings", () => {
  test("owners and admins issue and revoke keys; members only list them; the raw key is never stored", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await addMember(db.sql, ws.id, "member");
    const admin = await addMember(db.sql, ws.id, "admin");
    const key = await keyFor(ws.id, admin.claims);
    expect(key.key).toMatch(/^evk_[A-Za-z0-9_-]{43}$/);
    await expect(
      withUser(member.claims, (tx) => issueApiKey(tx, { workspaceId: ws.id, name: "Nope" })),
    ).rejects.toThrow();
    const denied = await withUser(member.claims, (tx) =>
      revokeApiKey(tx, { workspaceId: ws.id, keyId: key.id }),
    );
    expect(denied).toEqual({
      error: expect.objectContaining({
        code: "not_found",
        message: "This key does not exist or you cannot revoke it.",
      }),
    });
    const listed = await withUser(member.claims, (tx) => listApiKeys(tx, { workspaceId: ws.id }));
    expect(listed).toEqual([expect.objectContaining({ id: key.id, name: "Website", revoked_at: null })]);
    expect(listed[0]).not.toHaveProperty("key_hash");
    const stranger = await createWorkspace(db.sql);
    expect(await withUser(stranger.owner.claims, (tx) => listApiKeys(tx, { workspaceId: ws.id }))).toEqual(
      [],
    );
  });
});
