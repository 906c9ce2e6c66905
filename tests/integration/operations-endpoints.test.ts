import { afterEach, describe, expect, test, vi } from "vitest";
import { GET as metricsGet } from "@/app/api/metrics/route";
import { GET as readyGet } from "@/app/api/ready/route";
import { setupTestDatabase } from "../helpers/db";

const db = setupTestDatabase();
const TOKEN = "metrics-token-for-the-tests-0123456789";

const scrape = (authorization?: string) =>
  metricsGet(
    new Request("http://localhost/api/metrics", { headers: authorization ? { authorization } : {} }),
  );

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("GET /api/ready: the database, the migrations, the process", () => {
  test("ready when the primary answers and every migration file is recorded", async () => {
    const res = await readyGet(new Request("http://localhost/api/ready"));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      ready: true,
      checks: { database: "ok", migrations: "ok", accepting: "ok" },
    });
  });

  test("not ready (503) while a migration file is not recorded as applied", async () => {
    const [last] = await db.sql`select name, applied_at from app_meta.migrations order by name desc limit 1`;
    await db.sql`delete from app_meta.migrations where name = ${last.name}`;
    try {
      const res = await readyGet(new Request("http://localhost/api/ready"));
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({
        ready: false,
        checks: { database: "ok", migrations: "failed" },
      });
    } finally {
      await db.sql`insert into app_meta.migrations (name, applied_at) values (${last.name}, ${last.applied_at})`;
    }
  });
});

describe("GET /api/metrics: Prometheus, for the holder of METRICS_TOKEN only", () => {
  test("refused as a route that does not exist: no token set, no header, a wrong token, another scheme", async () => {
    const notFound = { success: false, error: "Not found.", code: "not_found" };
    const unset = await scrape(`Bearer ${TOKEN}`);
    expect(unset.status).toBe(404);
    expect(await unset.json()).toEqual(notFound);
    vi.stubEnv("METRICS_TOKEN", TOKEN);
    for (const header of [undefined, `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, "Bearer "]) {
      const res = await scrape(header);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual(notFound);
    }
    vi.stubEnv("METRICS_TOKEN", "short"); // a token under 16 characters never opens it
    expect((await scrape("Bearer short")).status).toBe(404);
  });

  test("with the token: request durations by route, pool use, queue depth and age, webhook lag, email sends", async () => {
    vi.stubEnv("METRICS_TOKEN", TOKEN);
    // what the workers' monitor keeps in pg-boss's queue table is what the scrape reports
    await db.sql`update pgboss.queue set queued_count = 7, ready_oldest_seconds = 42 where name = 'email-send'`;
    await readyGet(new Request("http://localhost/api/ready")); // one observed request
    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    expect(text).toMatch(
      /crm_http_request_duration_seconds_count\{route="ready",method="GET",status="200"\} [1-9]/,
    );
    for (const name of [
      "crm_db_pool_size",
      "crm_db_pool_in_use",
      "crm_db_pool_wait_seconds",
      "crm_db_server_connections",
      "crm_webhook_deliveries_due 0",
      "crm_webhook_delivery_lag_seconds 0",
      "crm_email_sends_total",
      "crm_database_up 1",
      "crm_process_cpu_seconds_total",
    ])
      expect(text).toContain(name);
    expect(text).toContain('crm_job_queue_depth{queue="email-send",state="queued"} 7');
    expect(text).toContain('crm_job_queue_oldest_ready_seconds{queue="email-send"} 42');
  });
});
