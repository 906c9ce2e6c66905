import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { validate } from "@scalar/openapi-parser";
import { describe, expect, test } from "vitest";
import { openApiDocument } from "@/lib/openapi/document";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/outbound/event-types";

const API = path.resolve(__dirname, "../../app/api");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"];

/** Every route under app/api with the methods its route.ts exports, as OpenAPI paths. */
async function routes(): Promise<{ path: string; method: string }[]> {
  const found: { path: string; method: string }[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.name === "route.ts") {
        const source = await readFile(full, "utf8");
        const route =
          "/api" +
          path
            .relative(API, dir)
            .split(path.sep)
            .map((s) => `/${s.replace(/^\[(.+)\]$/, "{$1}")}`)
            .join("");
        const exported = new Set<string>();
        for (const m of source.matchAll(/export\s+(?:async\s+)?function\s+([A-Z]+)\b/g)) exported.add(m[1]);
        for (const m of source.matchAll(/export\s*\{([^}]*)\}/g))
          for (const part of m[1].split(","))
            exported.add(
              part
                .trim()
                .split(/\s+as\s+/)
                .pop()!,
            );
        for (const m of source.matchAll(/export\s+const\s+([A-Z]+)\s*=/g)) exported.add(m[1]);
        for (const method of exported) if (METHODS.includes(method)) found.push({ path: route, method });
      }
    }
  };
  await walk(API);
  return found;
}

describe("GET /api/openapi.json", () => {
  const document = openApiDocument();

  test("every route under app/api, with every method it exports, is in the document", async () => {
    const all = await routes();
    expect(all.length).toBeGreaterThan(15);
    const missing = all.filter((r) => !document.paths?.[r.path]?.[r.method.toLowerCase() as "get"]);
    expect(missing).toEqual([]);
  });

  test("the document describes no route that does not exist", async () => {
    const all = new Set((await routes()).map((r) => `${r.method.toLowerCase()} ${r.path}`));
    const described = Object.entries(document.paths ?? {}).flatMap(([p, item]) =>
      Object.keys(item ?? {})
        .filter((k) => METHODS.includes(k.toUpperCase()))
        .map((m) => `${m} ${p}`),
    );
    expect(described.filter((d) => !all.has(d))).toEqual([]);
  });

  test("spec 4.1: every public endpoint is named", () => {
    const named = [
      ["post", "/api/forms/{formId}"],
      ["get", "/api/forms/verify"],
      ["get", "/api/subscribe/{contactId}"],
      ["post", "/api/webhooks/payproc"],
      ["post", "/api/webhooks/ticketing"],
      ["get", "/api/auth/ticketing/callback"],
      ["get", "/api/admin/backfill-payment-intents"],
      ["get", "/api/admin/backfill-refunds"],
      ["post", "/api/rsvp/{eventId}"],
      ["get", "/api/v1/public/events"],
    ] as const;
    for (const [method, p] of named) expect(document.paths?.[p]?.[method], `${method} ${p}`).toBeDefined();
  });

  test("a valid OpenAPI 3.1 document, with every outbound webhook's payload", async () => {
    const { valid, errors } = await validate(JSON.parse(JSON.stringify(document)));
    expect(errors).toEqual([]);
    expect(valid).toBe(true);
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.webhooks ?? {}).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
  });

  test("the form endpoint documents JSON and URL-encoded bodies and every failure status", () => {
    const post = document.paths?.["/api/forms/{formId}"]?.post;
    expect(
      Object.keys(post?.requestBody && "content" in post.requestBody ? post.requestBody.content : {}),
    ).toEqual(["application/json", "application/x-www-form-urlencoded"]);
    expect(Object.keys(post?.responses ?? {})).toEqual(
      expect.arrayContaining(["200", "302", "400", "403", "404", "413", "415", "429"]),
    );
  });
});
