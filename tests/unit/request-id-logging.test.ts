import { describe, expect, test } from "vitest";
import type { Logger } from "pino";
import { createLogger, currentRequestId, requestIdFrom, withRequestContext } from "@/lib/observability/log";
import { observeRequest } from "@/lib/observability/observe-request";

/** The JSON lines `fn` makes the service's logger configuration write. */
async function linesOf(fn: (logger: Logger) => Promise<void> | void): Promise<Record<string, unknown>[]> {
  const written: string[] = [];
  await fn(createLogger({ write: (line: string) => void written.push(line) }, "info"));
  return written.map((line) => JSON.parse(line));
}

const headers = (value?: string) => new Headers(value === undefined ? {} : { "x-request-id": value });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("structured logs: a request id on every line of a request", () => {
  test("every line written inside a request carries its id and route, also from code that knows nothing of it", async () => {
    const lines = await linesOf(async (logger) => {
      await withRequestContext({ requestId: "lb-1234", route: "form submission" }, async () => {
        logger.info("first");
        await new Promise((resolve) => setTimeout(resolve, 1));
        logger.warn({ detail: 1 }, "after an await");
      });
      logger.info("outside");
    });
    expect(lines.map((l) => [l.msg, l.requestId, l.route])).toEqual([
      ["first", "lb-1234", "form submission"],
      ["after an await", "lb-1234", "form submission"],
      ["outside", undefined, undefined],
    ]);
    expect(lines[0]).toMatchObject({ level: 30, service: "crm" });
    expect(typeof lines[0].time).toBe("string");
  });

  test("the caller's x-request-id is kept when it looks like one; anything else is replaced by a new UUID", () => {
    expect(requestIdFrom(headers("3f1c9a7e-lb.trace:01_x"))).toBe("3f1c9a7e-lb.trace:01_x");
    for (const hostile of [undefined, "", "a b", 'x"}{"level":60', "x".repeat(129)])
      expect(requestIdFrom(headers(hostile))).toMatch(UUID);
    expect(requestIdFrom(headers())).not.toBe(requestIdFrom(headers()));
  });

  test("a route answers with the request id it logged under, in the x-request-id header", async () => {
    let seen: string | undefined;
    const res = await observeRequest(
      "health",
      new Request("http://localhost/", { headers: headers("abc-123") }),
      async () => {
        seen = currentRequestId();
        return Response.json({ ok: true });
      },
    );
    expect(seen).toBe("abc-123");
    expect(res.headers.get("x-request-id")).toBe("abc-123");
    const redirect = await observeRequest("verify", new Request("http://localhost/"), async () =>
      Response.redirect("http://localhost/done", 303),
    );
    expect(redirect.status).toBe(303);
    expect(redirect.headers.get("x-request-id")).toMatch(UUID);
  });
});
