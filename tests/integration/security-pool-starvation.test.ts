import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { POST as batch } from "@/app/api/v1/contacts/batch/route";
import { withService, withUser } from "@/lib/db/doors";
import { apiKeyFor, callV1 } from "../helpers/api-v1";
import { setupTestDatabase } from "../helpers/db";
import { createUser, createWorkspace, type TestWorkspace } from "../helpers/factories";

/**
 * One tenant cannot starve the pool (docs/decisions.md, "A statement has a deadline" and "The rate
 * limit counts items"): a key's batches count their items against its rate limit, and no statement
 * of the app runs past DATABASE_STATEMENT_TIMEOUT, whoever's identity it runs under.
 */
const db = setupTestDatabase();

let ws: TestWorkspace;

beforeAll(async () => {
  process.env.APP_URL = "http://crm.test";
  ws = await createWorkspace(db.sql);
});

afterEach(() => {
  delete process.env.API_RATE_LIMIT;
  delete process.env.DATABASE_STATEMENT_TIMEOUT;
});

const contacts = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ email: `${prefix}-${i}@example.org` }));

describe("a key's batches count their items against its rate limit", () => {
  test("100-item batches under a limit of 30: three pass, the fourth is 429 rate_limited and stores nothing", async () => {
    process.env.API_RATE_LIMIT = "30";
    const key = await apiKeyFor(db.sql, ws.id, ["contacts:write"]);
    const remaining: string[] = [];
    for (const n of [1, 2, 3]) {
      const res = await callV1(batch, "POST", "/api/v1/contacts/batch", {
        key: key.key,
        body: { contacts: contacts(`b${n}`, 100) },
      });
      expect(res.status).toBe(200);
      remaining.push(res.headers.get("RateLimit-Remaining")!);
    }
    expect(remaining).toEqual(["20", "10", "0"]);
    const refused = await callV1(batch, "POST", "/api/v1/contacts/batch", {
      key: key.key,
      body: { contacts: contacts("b4", 100) },
    });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: { code: "rate_limited" } });
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await db.sql`select 1 from contacts where email like 'b4-%'`).toHaveLength(0);
    expect(await db.sql`select 1 from contacts where email like 'b_-%'`).toHaveLength(300);
  });

  test("a batch of a few items is one unit, like any request", async () => {
    process.env.API_RATE_LIMIT = "30";
    const key = await apiKeyFor(db.sql, ws.id, ["contacts:write"]);
    const res = await callV1(batch, "POST", "/api/v1/contacts/batch", {
      key: key.key,
      body: { contacts: contacts("small", 3) },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("RateLimit-Remaining")).toBe("29");
  });
});

describe("no statement of the app runs past its deadline", () => {
  test("every transaction of the app carries DATABASE_STATEMENT_TIMEOUT, the member's and the service's", async () => {
    process.env.DATABASE_STATEMENT_TIMEOUT = "1500ms";
    const user = await createUser(db.sql);
    const seen = [
      await withService((tx) => tx`show statement_timeout`),
      await withUser({ sub: user.id, role: "authenticated" }, (tx) => tx`show statement_timeout`),
    ].map(([row]) => row.statement_timeout);
    expect(seen).toEqual(["1500ms", "1500ms"]);
    delete process.env.DATABASE_STATEMENT_TIMEOUT;
    const [row] = await withService((tx) => tx`show statement_timeout`);
    expect(row.statement_timeout).toBe("1min");
  });

  test("a member's runaway statement is cancelled at the deadline (57014) and its connection comes back", async () => {
    // PGlite runs in this process without timers inside a statement: the setting is checked above on
    // both engines, its effect on the server that enforces it
    if (db.kind === "pglite") return;
    process.env.DATABASE_STATEMENT_TIMEOUT = "200ms";
    const user = await createUser(db.sql);
    await expect(
      withUser({ sub: user.id, role: "authenticated" }, (tx) => tx`select pg_sleep(30)`),
    ).rejects.toMatchObject({ code: "57014" });
    const [ok] = await withService((tx) => tx`select 1 as one`);
    expect(ok.one).toBe(1);
  });
});
