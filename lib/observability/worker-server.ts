import { createServer, type Server } from "node:http";
import type { Sql } from "@/lib/db/client";
import { log } from "./log";
import { metrics } from "./metrics";
import { metricsTokenMatches } from "./metrics-token";
import { workerReadiness } from "./readiness";

/**
 * A worker's own HTTP port (WORKER_PORT), for its orchestrator and Prometheus: GET /health
 * (alive), GET /ready (database, queues installed, not stopping: lib/observability/readiness.ts)
 * and GET /metrics (this process's metrics, such as the emails it sent; METRICS_TOKEN as for
 * the web's /api/metrics). Anything else, and /metrics without the token, is a bare 404.
 */
export async function startWorkerServer(options: {
  port: number;
  sql: Sql;
  stopping: () => boolean;
}): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer(async (request, response) => {
    const path = (request.url ?? "/").split("?")[0];
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers))
      if (typeof value === "string") headers.set(name, value);
    try {
      if (request.method === "GET" && path === "/health") return json(response, 200, { ok: true });
      if (request.method === "GET" && path === "/ready") {
        const readiness = await workerReadiness(options.sql, options.stopping());
        return json(response, readiness.ready ? 200 : 503, readiness);
      }
      if (request.method === "GET" && path === "/metrics" && metricsTokenMatches(headers)) {
        const { registry } = metrics();
        response.writeHead(200, { "Content-Type": registry.contentType, "Cache-Control": "no-store" });
        return response.end(await registry.metrics());
      }
      json(response, 404, { success: false, error: "Not found." });
    } catch (error) {
      log.error({ err: error, path }, "worker http: request failed");
      json(response, 500, { success: false, error: "Something went wrong." });
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port, resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function json(response: import("node:http").ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
  response.end(JSON.stringify(body));
}
