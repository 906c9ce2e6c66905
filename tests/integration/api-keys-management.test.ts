import { describe, expect, test } from "vitest";
import { GET as listEvents } from "@/app/api/v1/events/route";
import { GET as listForms } from "@/app/api/v1/forms/route";
import { withUser } from "@/lib/db/doors";
import { listApiKeys } from "@/lib/api-keys/list-api-keys";
import { callV1 } from "../helpers/api-v1";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createUser, createWorkspace } from "../helpers/factories";
import { signIn } from "../helpers/member-session";

const apiKeys = await import("@/app/(dashboard)/settings/api-keys/actions");

/**
 * Keys people can manage (docs/api.md, "Keys"): a name, chosen scopes and an optional
 * expiry; the raw key answered once and never stored or logged; the list with scopes, expiry,
 * last use and its address; revoke; every key action audited. Owners and admins only.
 */
const db = setupTestDatabase();

function form(fields: Record<string, string | string[]>): FormData {
  const out = new FormData();
  for (const [key, value] of Object.entries(fields))
    for (const v of Array.isArray(value) ? value : [value]) out.append(key, v);
  return out;
}

async function redirected(run: () => Promise<unknown>): Promise<string> {
  const error = await run().then(
    () => null,
    (e: unknown) => e as { digest?: string },
  );
  expect(error?.digest).toMatch(/^NEXT_REDIRECT/);
  return error!.digest!.split(";")[2];
}

describe("API keys: create with scopes and expiry, list, revoke", () => {
  test("the key holds the chosen scopes and expires at the end of the chosen day in the viewer's time zone; audited without the key", async () => {
    const owner = await createUser(db.sql, { timezone: "Europe/Paris" });
    const ws = await createWorkspace(db.sql, { owner });
    signIn(owner.claims);
    const answer = await apiKeys.issueApiKeyAction(
      {},
      form({ name: "Zapier", scopes: ["forms:read", "contacts:read"], expiresOn: "2031-06-15" }),
    );
    expect(answer.key).toMatch(/^evk_/);
    const [row] =
      await db.sql`select id, name, scopes, expires_at, key_hash from api_keys where workspace_id = ${ws.id}`;
    // the scopes in the contract's order; 2031-06-16 00:00 in Paris (summer time) is 22:00 UTC the day before
    expect(row).toMatchObject({ name: "Zapier", scopes: ["contacts:read", "forms:read"] });
    expect(row.expires_at.toISOString()).toBe("2031-06-15T22:00:00.000Z");
    expect(row.key_hash).not.toBe(answer.key);
    const [audit] =
      await db.sql`select action, actor_id, target_id, after from audit_log where workspace_id = ${ws.id}`;
    expect(audit).toEqual({
      action: "api_key.created",
      actor_id: owner.id,
      target_id: row.id,
      after: {
        name: "Zapier",
        scopes: ["contacts:read", "forms:read"],
        expires_at: "2031-06-15T22:00:00.000Z",
      },
    });
    expect(JSON.stringify(audit)).not.toContain(answer.key);

    // the key does what its scopes allow, and its use (time and address) is on the list
    process.env.TRUSTED_PROXY_HOPS = "1";
    const ok = await callV1(listForms, "GET", "/api/v1/forms", {
      key: answer.key,
      headers: { "x-forwarded-for": "198.51.100.7" },
    });
    expect(ok.status).toBe(200);
    expect(
      (
        await callV1(listEvents, "GET", "/api/v1/events", {
          key: answer.key,
          headers: { "x-forwarded-for": "198.51.100.7" },
        })
      ).status,
    ).toBe(403);
    const [listed] = await withUser(owner.claims, (tx) => listApiKeys(tx, { workspaceId: ws.id }));
    expect(listed).toMatchObject({ scopes: ["contacts:read", "forms:read"], expired: false });
    expect(listed.last_used_at).toBeInstanceOf(Date);
    expect(listed.last_used_ip).toBe("198.51.100.7");
    expect(listed).not.toHaveProperty("key_hash");
  });

  test("no scope, an unknown scope or a day already past: refused, nothing stored, nothing audited", async () => {
    const ws = await createWorkspace(db.sql);
    signIn(ws.owner.claims);
    for (const fields of [
      { name: "None" },
      { name: "Unknown", scopes: ["contacts:read", "admin:all"] },
      { name: "Past", scopes: "events:read", expiresOn: "2020-01-01" },
      { name: "Garbled", scopes: "events:read", expiresOn: "tomorrow" },
    ] as Record<string, string | string[]>[]) {
      const answer = await apiKeys.issueApiKeyAction({}, form(fields));
      expect(answer.key, String(fields.name)).toBeUndefined();
      expect(
        Object.keys(answer.errors ?? {}).length + (answer.message ? 1 : 0),
        String(fields.name),
      ).toBeGreaterThan(0);
    }
    expect(await db.sql`select 1 from api_keys where workspace_id = ${ws.id}`).toEqual([]);
    expect(await db.sql`select 1 from audit_log where workspace_id = ${ws.id}`).toEqual([]);
  });

  test("an expired key is refused by the API (401) and listed as expired", async () => {
    const ws = await createWorkspace(db.sql);
    signIn(ws.owner.claims);
    const answer = await apiKeys.issueApiKeyAction({}, form({ name: "Short", scopes: "events:read" }));
    await db.sql`update api_keys set expires_at = now() - interval '1 second' where workspace_id = ${ws.id}`;
    expect((await callV1(listEvents, "GET", "/api/v1/events", { key: answer.key })).status).toBe(401);
    const [listed] = await withUser(ws.owner.claims, (tx) => listApiKeys(tx, { workspaceId: ws.id }));
    expect(listed.expired).toBe(true);
  });

  test("revoke: the key is refused from then on (401) and the revocation is audited", async () => {
    const ws = await createWorkspace(db.sql);
    signIn(ws.owner.claims);
    const answer = await apiKeys.issueApiKeyAction({}, form({ name: "Old", scopes: "events:read" }));
    expect((await callV1(listEvents, "GET", "/api/v1/events", { key: answer.key })).status).toBe(200);
    const [row] = await db.sql`select id from api_keys where workspace_id = ${ws.id}`;
    expect(await redirected(() => apiKeys.revokeApiKeyAction({}, form({ keyId: row.id })))).toBe(
      "/settings/api-keys?revoked=1",
    );
    expect((await callV1(listEvents, "GET", "/api/v1/events", { key: answer.key })).status).toBe(401);
    const actions = await db.sql`select action from audit_log where workspace_id = ${ws.id} order by id`;
    expect(actions.map((a) => a.action)).toEqual(["api_key.created", "api_key.revoked"]);
  });

  test("members who are not owners or admins cannot create keys, and another workspace's key cannot be revoked", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await addMember(db.sql, ws.id, "member");
    signIn(member.claims);
    expect(await apiKeys.issueApiKeyAction({}, form({ name: "Nope", scopes: "events:read" }))).toMatchObject({
      message: "Only owners and admins can manage API keys.",
    });
    const other = await createWorkspace(db.sql);
    const [theirs] = await db.sql`
      insert into api_keys (workspace_id, name, key_hash, scopes) values (${other.id}, 'Theirs', ${"a".repeat(64)}, '{events:read}')
      returning id`;
    signIn(ws.owner.claims);
    expect(await redirected(() => apiKeys.revokeApiKeyAction({}, form({ keyId: theirs.id })))).toBe(
      "/settings/api-keys?error=revoke",
    );
    const [after] = await db.sql`select revoked_at from api_keys where id = ${theirs.id}`;
    expect(after.revoked_at).toBeNull();
  });
});

describe("the public events list (spec 4.14) honours scopes and expiry", () => {
  test("a key without events:read is refused like a revoked key (403); one past its expiry is no key (401)", async () => {
    const { GET } = await import("@/app/api/v1/public/events/route");
    const ws = await createWorkspace(db.sql);
    const { apiKeyFor } = await import("../helpers/api-v1");
    const get = (key: string) =>
      GET(
        new Request("http://crm.test/api/v1/public/events", { headers: { authorization: `Bearer ${key}` } }),
      );
    expect((await get((await apiKeyFor(db.sql, ws.id, ["events:read"])).key)).status).toBe(200);
    expect(
      (await get((await apiKeyFor(db.sql, ws.id, ["contacts:write", "webhooks:write"])).key)).status,
    ).toBe(403);
    const expired = await apiKeyFor(db.sql, ws.id, ["events:read"], {
      expiresAt: new Date(Date.now() - 1000),
    });
    expect((await get(expired.key)).status).toBe(401);
  });
});
