import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { V1_OPERATIONS } from "@/lib/api/v1";
import type { ApiRouteHandler } from "@/lib/api/v1/route";

/**
 * One declaration per endpoint (docs/api.md): each operation of V1_OPERATIONS is mounted by the
 * route file at its own path, that file exports its method built by apiRoute from exactly that
 * operation, and nothing under app/api/v1 runs outside the registry; each path, operationId and
 * scope is written once in lib/, and each named schema is declared once.
 */
const ROOT = path.resolve(__dirname, "../..");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** `/api/v1/contacts/{id}/tags/{tag_id}` → app/api/v1/contacts/[id]/tags/[tag_id]/route.ts */
const routeFileOf = (p: string) =>
  path.join(
    ROOT,
    "app",
    ...p
      .split("/")
      .filter(Boolean)
      .map((s) => s.replace(/^\{(.+)\}$/, "[$1]")),
    "route.ts",
  );

async function filesUnder(dir: string, keep: (name: string) => boolean): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(full, keep)));
    else if (keep(entry.name)) out.push(full);
  }
  return out;
}

describe("V1_OPERATIONS and the route files", () => {
  test.each(V1_OPERATIONS.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))(
    "%s: its route file exists and exports the method as apiRoute of this very operation",
    async (_, op) => {
      const file = routeFileOf(op.path);
      expect(existsSync(file), path.relative(ROOT, file)).toBe(true);
      const mod = (await import(file)) as Record<string, Partial<ApiRouteHandler> | undefined>;
      const handler = mod[op.method.toUpperCase()];
      expect(handler, `${path.relative(ROOT, file)} exports ${op.method.toUpperCase()}`).toBeTypeOf(
        "function",
      );
      expect(handler?.operation).toBe(op);
      const source = await readFile(file, "utf8");
      expect(source).toMatch(
        new RegExp(`export const ${op.method.toUpperCase()} = apiRoute\\(\\w+\\.\\w+\\);`),
      );
    },
  );

  test("every method a v1 route file exports is an operation of the registry", async () => {
    const files = await filesUnder(path.join(ROOT, "app/api/v1"), (n) => n === "route.ts");
    const declared = new Set(V1_OPERATIONS.map((op) => `${op.method.toUpperCase()} ${op.path}`));
    const stray: string[] = [];
    for (const file of files) {
      const route =
        "/" +
        path
          .relative(path.join(ROOT, "app"), path.dirname(file))
          .split(path.sep)
          .map((s) => s.replace(/^\[(.+)\]$/, "{$1}"))
          .join("/");
      const mod = (await import(file)) as Record<string, unknown>;
      for (const method of Object.keys(mod).filter((k) => METHODS.includes(k)))
        if (!declared.has(`${method} ${route}`)) stray.push(`${method} ${route}`);
    }
    expect(files.length).toBeGreaterThan(15);
    expect(stray).toEqual([]);
  });

  test("operationIds are unique, and each method and path is one operation", () => {
    const ids = V1_OPERATIONS.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const routes = V1_OPERATIONS.map((op) => `${op.method} ${op.path}`);
    expect(new Set(routes).size).toBe(routes.length);
  });
});

describe("each v1 path, operation, scope and schema is written once in lib/", async () => {
  const files = await filesUnder(path.join(ROOT, "lib"), (n) => /\.tsx?$/.test(n) && !n.endsWith(".test.ts"));
  const sources = await Promise.all(
    files.map(async (f) => ({ file: path.relative(ROOT, f), text: await readFile(f, "utf8") })),
  );
  const occurrences = (pattern: RegExp) =>
    sources.flatMap(({ file, text }) => [...text.matchAll(pattern)].map(() => file));
  const quoted = (value: string) =>
    new RegExp(`["'\`]${value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}["'\`]`, "g");

  test.each([...new Set(V1_OPERATIONS.map((op) => op.path))].map((p) => [p] as const))(
    "the path %s is written only in its operations' declarations, once each, in one area module",
    (p) => {
      const where = occurrences(quoted(p));
      expect(where).toHaveLength(V1_OPERATIONS.filter((op) => op.path === p).length);
      expect(new Set(where).size, where.join(", ")).toBe(1);
      expect(where[0]).toMatch(/^lib\/api\/v1\/[\w-]+\.ts$/);
    },
  );

  test("each operationId is one string literal in lib/, and each operation declares its scope once", () => {
    for (const op of V1_OPERATIONS)
      expect(occurrences(quoted(op.operationId)), op.operationId).toHaveLength(1);
    // `scope: "area:verb"` is written only in the operations' declarations, one per operation
    const scopes = occurrences(/\bscope: "[a-z]+:[a-z]+"/g);
    expect(scopes).toHaveLength(V1_OPERATIONS.length);
    expect(new Set(scopes)).toEqual(new Set(scopes.filter((f) => f.startsWith("lib/api/v1/"))));
  });

  test("each named schema (`.meta({ id })`) is declared once in lib/", () => {
    const ids = sources.flatMap(({ file, text }) =>
      [...text.matchAll(/\.meta\(\{\s*id: "(\w+)"/g)].map((m) => `${m[1]}`).map((id) => ({ id, file })),
    );
    const seen = new Map<string, string[]>();
    for (const { id, file } of ids) seen.set(id, [...(seen.get(id) ?? []), file]);
    expect([...seen].filter(([, where]) => where.length > 1)).toEqual([]);
    expect(ids.length).toBeGreaterThan(20);
  });
});
