import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { withService } from "@/lib/db/doors";
import { sweepRateLimitHits } from "@/lib/forms/flows/sweep-rate-limit-hits";
import { setupTestDatabase } from "../helpers/db";
import { createWorkspace } from "../helpers/factories";
import { createForm, preflight, randomIp, storedCounts, submit } from "../helpers/forms";

const db = setupTestDatabase();

const limiterHits = async (formId: string) =>
  (
    await db.sql`select count(*)::int as n from public.rate_limit_hits where key like ${`form:${formId}:%`}`
  )[0].n as number;

describe("POST /api/forms/{form_id}: the pipeline of spec 4.2, in order", () => {
  test("4.2 step 1: an unknown form answers 404 and never touches the limiter table", async () => {
    const before = (await db.sql`select count(*)::int as n from public.rate_limit_hits`)[0].n;
    const unknown = randomUUID();
    const res = await submit(unknown, { json: { email: "a@example.test" } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      success: false,
      error: "This form does not exist.",
      code: "not_found",
    });
    const malformed = await submit("not-a-uuid", { json: { email: "a@example.test" } });
    expect(malformed.status).toBe(404);
    const after = (await db.sql`select count(*)::int as n from public.rate_limit_hits`)[0].n;
    expect(after).toBe(before);
  });

  test("4.2.1: the sixth request within 60 s from one IP gets 429 with Retry-After; another IP passes", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id, { require_verification: false });
    const ip = randomIp();
    for (let i = 0; i < 5; i++) {
      const ok = await submit(form.id, { ip, json: { email: `r${i}@example.test` } });
      expect(ok.status).toBe(200);
    }
    const limited = await submit(form.id, { ip, json: { email: "r5@example.test" } });
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await limited.json()).toMatchObject({ success: false });
    expect((await storedCounts(db.sql, ws.id)).contacts).toBe(5);
    const other = await submit(form.id, { ip: randomIp(), json: { email: "r6@example.test" } });
    expect(other.status).toBe(200);
  });

  test("4.2 order: a rate-limited honeypot request gets 429, not 200", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id);
    const ip = randomIp();
    for (let i = 0; i < 5; i++)
      await submit(form.id, { ip, json: { email: "x@example.test", website_url: "spam" } });
    const res = await submit(form.id, { ip, json: { email: "x@example.test", website_url: "spam" } });
    expect(res.status).toBe(429);
    expect(await storedCounts(db.sql, ws.id)).toMatchObject({ contacts: 0, submissions: 0 });
  });

  test("4.2.1: a failing rate-limit function lets the request through (fail-open)", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id);
    const ip = randomIp();
    await db.sql`revoke execute on function public.check_rate_limit(text, integer, integer) from service_role`;
    try {
      for (let i = 0; i < 7; i++) {
        const res = await submit(form.id, { ip, json: { email: `open${i}@example.test` } });
        expect(res.status).toBe(200);
      }
    } finally {
      await db.sql`grant execute on function public.check_rate_limit(text, integer, integer) to service_role`;
    }
    expect((await storedCounts(db.sql, ws.id)).contacts).toBe(7);
    expect(await limiterHits(form.id)).toBe(0);
  });

  test("4.2 order: origin is checked before the body: a refused origin with a broken body gets 403", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id, { allowed_domains: ["shop.example.com"] });
    const res = await submit(form.id, {
      raw: "{not json",
      contentType: "application/json",
      headers: { origin: "https://evil.example.net" },
    });
    expect(res.status).toBe(403);
    expect(await limiterHits(form.id)).toBe(1);
  });

  test("4.2 order: the content type is judged before the honeypot (415), the honeypot before the email", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id);
    const text = await submit(form.id, { raw: "website_url=x", contentType: "text/plain" });
    expect(text.status).toBe(415);
    const trap = await submit(form.id, { json: { website_url: "http://spam.example" } });
    expect(trap.status).toBe(200);
    expect(await trap.json()).toEqual({ success: true });
  });

  test("4.2 step 5: a non-empty website_url answers 200 {success: true} and stores nothing", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id, { success_redirect_url: "https://shop.example.com/thanks" });
    const res = await submit(form.id, { form: { email: "bot@example.test", website_url: "http://x.test" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true });
    expect(await storedCounts(db.sql, ws.id)).toEqual({
      contacts: 0,
      submissions: 0,
      pending: 0,
      notes: 0,
      emails: 0,
    });
  });

  test("4.2 step 6: a missing or malformed email answers 400 and stores nothing", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id);
    for (const body of [{}, { email: "" }, { email: "   " }, { email: "not-an-address" }, { email: "a@b" }]) {
      const res = await submit(form.id, { json: body });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ success: false, error: expect.stringMatching(/Email/) });
    }
    expect((await storedCounts(db.sql, ws.id)).contacts).toBe(0);
  });

  test("4.2 step 4: 415 for other content types, 413 over 64 KiB, 400 for malformed JSON", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id);
    const multipart = new FormData();
    multipart.set("email", "m@example.test");
    expect((await submit(form.id, { raw: multipart })).status).toBe(415);
    expect((await submit(form.id, { raw: "email=a@example.test" })).status).toBe(415);
    const big = await submit(form.id, { json: { email: "big@example.test", filler: "x".repeat(70_000) } });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ success: false });
    expect((await submit(form.id, { raw: '{"email": ', contentType: "application/json" })).status).toBe(400);
    expect((await submit(form.id, { json: ["a@example.test"] })).status).toBe(400);
    expect((await storedCounts(db.sql, ws.id)).contacts).toBe(0);
  });

  test("4.2: JSON and URL-encoded bodies are both accepted (charset parameters too)", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id);
    const json = await submit(form.id, {
      raw: JSON.stringify({ email: "j@example.test" }),
      contentType: "application/json; charset=utf-8",
    });
    expect(json.status).toBe(200);
    const encoded = await submit(form.id, { form: { email: "u@example.test", first_name: "Ulla Maj" } });
    expect(encoded.status).toBe(200);
    const [row] =
      await db.sql`select first_name from contacts where workspace_id = ${ws.id} and email = 'u@example.test'`;
    expect(row.first_name).toBe("Ulla Maj");
  });

  test("4.2 success: 302 to success_redirect_url when set, else 200 {success, contact_id}", async () => {
    const ws = await createWorkspace(db.sql);
    const plain = await createForm(db.sql, ws.id);
    const res = await submit(plain.id, { json: { email: "s@example.test" } });
    const body = await res.json();
    const [contact] =
      await db.sql`select id from contacts where workspace_id = ${ws.id} and email = 's@example.test'`;
    expect(res.status).toBe(200);
    expect(body).toEqual({ success: true, contact_id: contact.id });

    const redirecting = await createForm(db.sql, ws.id, {
      success_redirect_url: "https://shop.example.com/thanks?x=1",
    });
    const moved = await submit(redirecting.id, { json: { email: "t@example.test" } });
    expect(moved.status).toBe(302);
    expect(moved.headers.get("location")).toBe("https://shop.example.com/thanks?x=1");
  });
});

describe("spec 5.1: authentication by key or origin", () => {
  test("5.1: the key in the x-api-key header skips the origin check; submission type 'api_key'", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id, { allowed_domains: ["shop.example.com"] });
    const res = await submit(form.id, {
      json: { email: "k@example.test" },
      headers: { "x-api-key": form.key },
    });
    expect(res.status).toBe(200);
    const [row] = await db.sql`select submission_type from form_submissions where form_id = ${form.id}`;
    expect(row.submission_type).toBe("api_key");
  });

  test("5.1: the key in the api_key query parameter is accepted too", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id, { allowed_domains: ["shop.example.com"] });
    const res = await submit(form.id, {
      json: { email: "q@example.test" },
      query: `?api_key=${encodeURIComponent(form.key)}`,
      headers: { origin: "https://elsewhere.example.net" },
    });
    expect(res.status).toBe(200);
    const [row] = await db.sql`select submission_type from form_submissions where form_id = ${form.id}`;
    expect(row.submission_type).toBe("api_key");
  });

  test("5.1: a wrong key is refused with 403, even in open mode, and a form without a key refuses every key", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id);
    const wrong = await submit(form.id, {
      json: { email: "w@example.test" },
      headers: { "x-api-key": `${form.key}x` },
    });
    expect(wrong.status).toBe(403);
    const keyless = await createForm(db.sql, ws.id, { api_key: null });
    const any = await submit(keyless.id, {
      json: { email: "w@example.test" },
      headers: { "x-api-key": "fk_anything" },
    });
    expect(any.status).toBe(403);
    expect((await storedCounts(db.sql, ws.id)).contacts).toBe(0);
  });

  test("5.1: the stored key is the SHA-256 digest, never the raw key", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id);
    const [row] = await db.sql`select api_key from forms where id = ${form.id}`;
    expect(row.api_key).toMatch(/^[0-9a-f]{64}$/);
    expect(row.api_key).not.toContain(form.key);
  });

  test("5.1: Origin is matched against allowed_domains, wildcards included", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id, { allowed_domains: ["shop.example.com", "*.brand.test"] });
    const send = (origin: string) =>
      submit(form.id, { json: { email: `${randomUUID()}@example.test` }, headers: { origin } });
    expect((await send("https://shop.example.com")).status).toBe(200);
    expect((await send("https://eu.brand.test")).status).toBe(200);
    expect((await send("https://a.b.brand.test")).status).toBe(200);
    expect((await send("https://brand.test")).status).toBe(403);
    expect((await send("https://shop.example.com.evil.test")).status).toBe(403);
    expect((await send("https://evilbrand.test")).status).toBe(403);
    expect((await storedCounts(db.sql, ws.id)).contacts).toBe(3);
  });

  test("5.1: without Origin the Referer's origin is used; Origin wins when both are sent; neither is refused", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id, { allowed_domains: ["shop.example.com"] });
    const send = (headers: Record<string, string>) =>
      submit(form.id, { json: { email: `${randomUUID()}@example.test` }, headers });
    expect((await send({ referer: "https://shop.example.com/signup?a=1" })).status).toBe(200);
    expect((await send({ referer: "https://evil.example.net/shop.example.com" })).status).toBe(403);
    expect(
      (await send({ origin: "https://evil.example.net", referer: "https://shop.example.com/" })).status,
    ).toBe(403);
    expect((await send({ origin: "null", referer: "https://shop.example.com/" })).status).toBe(200);
    expect((await send({})).status).toBe(403);
  });

  test("5.1: an empty allowed_domains list is open mode: any origin, or none, is accepted", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id);
    const a = await submit(form.id, {
      json: { email: "o1@example.test" },
      headers: { origin: "https://any.test" },
    });
    const b = await submit(form.id, { json: { email: "o2@example.test" } });
    expect([a.status, b.status]).toEqual([200, 200]);
    const [row] =
      await db.sql`select submission_type from form_submissions where form_id = ${form.id} limit 1`;
    expect(row.submission_type).toBe("direct");
  });
});

describe("spec 4.2 CORS", () => {
  test("4.2 CORS open mode: the request Origin is echoed back on success, error and preflight", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id);
    const origin = "https://anywhere.example.org";
    const ok = await submit(form.id, { json: { email: "c@example.test" }, headers: { origin } });
    expect(ok.headers.get("access-control-allow-origin")).toBe(origin);
    expect(ok.headers.get("vary")).toContain("Origin");
    const bad = await submit(form.id, { json: {}, headers: { origin } });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("access-control-allow-origin")).toBe(origin);
    const pre = await preflight(form.id, origin);
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe(origin);
    expect(pre.headers.get("access-control-allow-methods")).toContain("POST");
    expect(pre.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("content-type");
    expect(pre.headers.get("access-control-allow-credentials")).toBeNull();
  });

  test("4.2 CORS whitelist mode: Allow-Origin only for a listed origin", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id, { allowed_domains: ["*.shop.test"] });
    const listed = "https://www.shop.test";
    const ok = await submit(form.id, { json: { email: "l@example.test" }, headers: { origin: listed } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe(listed);
    const refused = await submit(form.id, {
      json: { email: "l@example.test" },
      headers: { origin: "https://shop.evil" },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    expect((await preflight(form.id, listed)).headers.get("access-control-allow-origin")).toBe(listed);
    expect(
      (await preflight(form.id, "https://shop.evil")).headers.get("access-control-allow-origin"),
    ).toBeNull();
    expect((await preflight(randomUUID(), listed)).status).toBe(404);
  });
});

describe("spec 4.2.1: the limiter table stays bounded", () => {
  test("4.2.1: the sweep deletes hits older than an hour and keeps the ones a window still needs", async () => {
    await db.sql`insert into rate_limit_hits (key, hit_at) values
      ('sweep:old', now() - interval '2 hours'), ('sweep:old', now() - interval '61 minutes'),
      ('sweep:recent', now() - interval '30 seconds'), ('sweep:recent', now() - interval '59 minutes')`;
    const deleted = await withService((tx) => sweepRateLimitHits(tx));
    expect(deleted).toBeGreaterThanOrEqual(2);
    const left = await db.sql`select key from rate_limit_hits where key like 'sweep:%' order by key`;
    expect(left.map((r) => r.key)).toEqual(["sweep:recent", "sweep:recent"]);
  });
});
