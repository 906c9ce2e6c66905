import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import pino from "pino";

/** What every log line of one request carries. */
export interface RequestContext {
  requestId: string;
  route?: string;
}

const requests = new AsyncLocalStorage<RequestContext>();

/**
 * The service's one logger: JSON lines on stdout (pino), at LOG_LEVEL (default info; warn under
 * the test runner). Every line written while a request runs carries its `requestId` and `route`
 * (pino's mixin reads them from the request's async context), also lines from code that knows
 * nothing of requests. Errors go under `err`, which pino serialises with message and stack.
 * Under the test runner the lines go through the console, which vitest holds per test and
 * prints only for a test that failed (vitest.config.ts, `silent: "passed-only"`); straight to
 * stdout they would bypass it.
 */
export const log = createLogger(
  process.env.VITEST ? { write: (line: string) => console.log(line.trimEnd()) } : undefined,
);

/** The logger's configuration on another destination (a test reads its lines). */
export function createLogger(destination?: pino.DestinationStream, level?: string): pino.Logger {
  const options: pino.LoggerOptions = {
    level: level ?? (process.env.LOG_LEVEL || (process.env.VITEST ? "warn" : "info")),
    base: { service: process.env.SERVICE_NAME || "crm" },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: () => {
      const context = requests.getStore();
      return context ? { requestId: context.requestId, route: context.route } : {};
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** The request id header: read from the caller (a load balancer's or proxy's) and echoed back. */
export const REQUEST_ID_HEADER = "x-request-id";

/**
 * The caller's `x-request-id` when it looks like one (a load balancer's UUID or trace id: up to
 * 128 of letters, digits and `._:-`), else a new UUID. An id from a client is untrusted: anything
 * else is replaced, never copied into the logs or the response.
 */
export function requestIdFrom(headers: Headers): string {
  const given = headers.get(REQUEST_ID_HEADER);
  return given && /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : randomUUID();
}

/** Runs `fn` with `context` as the request every log line inside it belongs to. */
export function withRequestContext<T>(context: RequestContext, fn: () => T): T {
  return requests.run(context, fn);
}

/** The id of the request being served, if any. */
export function currentRequestId(): string | undefined {
  return requests.getStore()?.requestId;
}
