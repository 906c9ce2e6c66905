/**
 * Next.js calls register() once when the server starts. The job engine's producer is started
 * here, outside any request, so that its own first reads (the queue list) never wait behind a
 * request's transaction: on the embedded database a transaction holds the one session until it
 * ends (docs/decisions.md, "The job engine").
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || !process.env.DATABASE_URL) return;
  const { producer } = await import("./lib/jobs/producer");
  const { log } = await import("./lib/observability/log");
  const { drainOnSigterm } = await import("./lib/observability/readiness");
  const { keepServingOnDriverErrors } = await import("./lib/observability/process-guard");
  keepServingOnDriverErrors("web");
  drainOnSigterm();
  await producer().catch((error) => log.error({ err: error }, "jobs: the producer did not start"));
}
