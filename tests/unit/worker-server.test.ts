import { afterEach, describe, expect, test, vi } from "vitest";
import type { Sql } from "@/lib/db/client";
import { startWorkerServer } from "@/lib/observability/worker-server";

// The worker's own port answers through the one error envelope: its statuses come from the codes of
// lib/errors/app-error.ts (docs/decisions.md, "One error type and the adapters").

const down = { unsafe: () => Promise.reject(new Error("the database is down")) } as unknown as Sql;

describe("the worker's HTTP port", () => {
  let close = async () => {};
  afterEach(async () => {
    await close();
    vi.unstubAllEnvs();
  });

  test("health 200; ready 503 with its checks while the database is down; anything else not_found", async () => {
    vi.stubEnv("METRICS_TOKEN", "");
    const server = await startWorkerServer({ port: 0, sql: down, stopping: () => false });
    close = server.close;
    const get = (path: string) => fetch(`http://127.0.0.1:${server.port}${path}`);

    const health = await get("/health");
    expect([health.status, await health.json()]).toEqual([200, { ok: true }]);
    expect(health.headers.get("cache-control")).toBe("no-store");

    const ready = await get("/ready");
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ ready: false, checks: { database: "failed" } });

    for (const path of ["/metrics", "/nope"]) {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ success: false, error: "Not found.", code: "not_found" });
    }
  });
});
