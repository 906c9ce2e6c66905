import { createServer, type Server } from "node:http";
import type { Sql } from "@/lib/db/client";
import { AppError, APP_ERROR_CODES } from "@/lib/errors/app-error";
import { jsonError } from "@/lib/http/error-envelope";
import { sendResponse } from "@/lib/http/node-response";
import { log } from "./log";
import { metrics } from "./metrics";
import { metricsTokenMatches } from "./metrics-token";
import { workerReadiness } from "./readiness";

/**
 * A worker's own HTTP port (WORKER_PORT), for its orchestrator and Prometheus: GET /health
 * (alive), GET /ready (database, queues installed, not stopping: lib/observability/readiness.ts)
 * and GET /metrics (this process's metrics, such as the emails it sent; METRICS_TOKEN as for
 * the web's /api/metrics). Anything else, and /metrics without the token, is `not_found`.
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
    await sendResponse(response, await answer(request.method, path, headers));
  });
  const answer = async (method: string | undefined, path: string, headers: Headers): Promise<Response> => {
    const noStore = { "Cache-Control": "no-store" };
    try {
      if (method === "GET" && path === "/health") return Response.json({ ok: true }, { headers: noStore });
      if (method === "GET" && path === "/ready") {
        const readiness = await workerReadiness(options.sql, options.stopping());
        const status = readiness.ready ? undefined : APP_ERROR_CODES.unavailable.status;
        return Response.json(readiness, { status, headers: noStore });
      }
      if (method === "GET" && path === "/metrics" && metricsTokenMatches(headers)) {
        const { registry } = metrics();
        return new Response(await registry.metrics(), {
          headers: { "Content-Type": registry.contentType, ...noStore },
        });
      }
      return jsonError(new AppError("not_found"), noStore);
    } catch (error) {
      log.error({ err: error, path }, "worker http: request failed");
      return jsonError(new AppError("internal"), noStore);
    }
  };
  await new Promise<void>((resolve) => server.listen(options.port, resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
