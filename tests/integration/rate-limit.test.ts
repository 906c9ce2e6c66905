import { afterEach, describe, expect, test, vi } from "vitest";
import { withService, type Db } from "@/lib/db/doors";
import { log } from "@/lib/observability/log";
import { checkRateLimit, formRateLimitKey } from "@/lib/rate-limit/check-rate-limit";
import { setupTestDatabase } from "../helpers/db";
import { createWorkspace } from "../helpers/factories";
import { insertRow } from "../helpers/rows";
import { waitFor } from "../helpers/wait-for";

const db = setupTestDatabase();

/** A form of a fresh workspace, and the rate-limit key of one IP submitting to it. */
async function formKey(ip = "203.0.113.7") {
  const ws = await createWorkspace(db.sql);
  const form = await insertRow(db.sql, "forms", ws);
  return { ws, formId: form.id as string, key: formRateLimitKey(form.id as string, ip) };
}
const check = (key: string) => withService((q) => checkRateLimit(q, key));
const hits = async (key: string) =>
  (await db.sql`select count(*)::int as n from rate_limit_hits where key = ${key}`)[0].n as number;

afterEach(() => vi.restoreAllMocks());

describe("4.2.1 rate limit: 5 requests per 60 seconds per form per IP", () => {
  test("4.2.1: the key is form:<form_id>:<ip>", () => {
    expect(formRateLimitKey("f1", "198.51.100.2")).toBe("form:f1:198.51.100.2");
  });

  test("4.2.1: 5 requests pass, the 6th is refused with a retry-after, and is not counted", async () => {
    const { key } = await formKey();
    for (let i = 1; i <= 5; i++)
      expect(await check(key), `request ${i}`).toEqual({ allowed: true, retryAfterSeconds: 0 });
    const sixth = await check(key);
    expect(sixth.allowed).toBe(false);
    expect(sixth.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    expect(sixth.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(await hits(key)).toBe(5);
  });

  test("4.2.1: another IP or another form is unaffected", async () => {
    const { ws, formId, key } = await formKey("203.0.113.7");
    for (let i = 0; i < 5; i++) await check(key);
    expect((await check(key)).allowed).toBe(false);
    expect((await check(formRateLimitKey(formId, "203.0.113.8"))).allowed).toBe(true);
    const otherForm = await insertRow(db.sql, "forms", ws);
    expect((await check(formRateLimitKey(otherForm.id as string, "203.0.113.7"))).allowed).toBe(true);
  });

  // Earlier hits are arranged in the checking transaction itself, against the clock the
  // function reads (clock_timestamp), so nothing depends on how long the test takes.
  test.each([
    ["5 hits 59 s ago: still in the window, refused, retry after 1 s", [59, 59, 59, 59, 59], false, 1, 5],
    [
      "5 hits 61 s ago: out of the window, allowed, the old hits are purged",
      [61, 61, 61, 61, 61],
      true,
      0,
      1,
    ],
    ["4 hits 59 s ago and 1 hit 61 s ago: the window slides, allowed", [59, 59, 59, 59, 61], true, 0, 5],
  ] as const)("4.2.1 sliding window: %s", async (_name, agesInSeconds, allowed, retryAfterSeconds, kept) => {
    const { key } = await formKey();
    const result = await withService(async (q: Db) => {
      await q`insert into rate_limit_hits (key, hit_at)
              select ${key}, clock_timestamp() - make_interval(secs => age)
              from unnest(${agesInSeconds as unknown as number[]}::int[]) as age`;
      return checkRateLimit(q, key);
    });
    expect(result).toEqual({ allowed, retryAfterSeconds });
    expect(await hits(key)).toBe(kept);
  });

  test("4.2.1: 20 concurrent requests for one key let exactly 5 through (concurrent on the real Postgres)", async () => {
    const { key } = await formKey();
    const results = await Promise.all(Array.from({ length: 20 }, () => check(key)));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
    expect(await hits(key)).toBe(5);
  });

  test("4.2.1 fail-open: when the function errors the request is allowed and the caller's transaction goes on", async () => {
    const { ws, key } = await formKey();
    const logged = vi.spyOn(log, "error").mockImplementation(() => {});
    await db.sql`revoke execute on function check_rate_limit(text, integer, integer) from service_role`;
    try {
      const result = await withService(async (q) => {
        await q`insert into contacts (workspace_id, email) values (${ws.id}, 'before@example.test')`;
        const r = await checkRateLimit(q, key);
        await q`insert into contacts (workspace_id, email) values (${ws.id}, 'after@example.test')`;
        return r;
      });
      expect(result).toEqual({ allowed: true, retryAfterSeconds: 0 });
    } finally {
      await db.sql`grant execute on function check_rate_limit(text, integer, integer) to service_role`;
    }
    expect(logged).toHaveBeenCalledTimes(1);
    const stored = await db.sql`select email from contacts where workspace_id = ${ws.id} order by email`;
    expect(stored.map((r) => r.email)).toEqual(["after@example.test", "before@example.test"]);
    expect(await hits(key)).toBe(0);
  });

  test("decision: a rolled-back transaction takes its hit back", async () => {
    const { key } = await formKey();
    const failing = withService(async (q) => {
      expect((await checkRateLimit(q, key)).allowed).toBe(true);
      throw new Error("the request failed after the check");
    });
    await expect(failing).rejects.toThrow("the request failed");
    expect(await hits(key)).toBe(0);
  });

  test.runIf(process.env.TEST_DB === "postgres")(
    "decision: the per-key lock is held until the caller's transaction ends",
    async () => {
      const { key } = await formKey();
      const waiting = async (granted: boolean) =>
        (
          await db.sql`select count(*)::int as n from pg_locks
                       where locktype = 'advisory' and granted = ${granted}
                         and database = (select oid from pg_database where datname = current_database())`
        )[0].n as number;
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const first = withService(async (q) => {
        const r = await checkRateLimit(q, key);
        await held;
        return r;
      });
      try {
        await waitFor(async () => (await waiting(true)) === 1, "the first transaction holds the key's lock");
        const second = check(key);
        await waitFor(async () => (await waiting(false)) === 1, "the second request waits for the lock");
        release();
        expect(await first).toEqual({ allowed: true, retryAfterSeconds: 0 });
        expect(await second).toEqual({ allowed: true, retryAfterSeconds: 0 });
      } finally {
        release();
      }
      expect(await hits(key)).toBe(2);
    },
  );
});
