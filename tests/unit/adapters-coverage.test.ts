import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, test } from "vitest";

// Every route handler and server action runs through one of the adapters
// (lib/adapters: memberAction, publicAction, memberRoute, publicRoute, serviceRoute; lib/api/v1: apiRoute), so none
// can forget the membership check, the role, the error mapping or the audit row, and none
// hand-rolls a try/catch.

const ROOT = path.resolve(__dirname, "../..");
const ROUTE_WRAPPERS = /^(publicRoute|memberRoute|serviceRoute|apiRoute)\(/;
const ACTION_WRAPPERS = /^(memberAction|publicAction)\(/;

/** Files not converted yet: this list only ever shrinks. */
const PENDING = new Set<string>([]);

async function walk(dir: string, out: string[] = []): Promise<string[]> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await walk(full, out);
    else if (/\.tsx?$/.test(entry.name)) out.push(full);
  }
  return out;
}

async function sources(filter: (file: string, source: string) => boolean) {
  const files = [...(await walk(path.join(ROOT, "app"))), ...(await walk(path.join(ROOT, "components")))];
  const found: { file: string; source: string }[] = [];
  for (const full of files) {
    const source = await readFile(full, "utf8");
    const file = path.relative(ROOT, full);
    if (filter(file, source)) found.push({ file, source });
  }
  return found;
}

/** `export const NAME = <expression>` and `export async function NAME` of a module. */
function exportsOf(source: string): { name: string; wrapped: string | null }[] {
  const out: { name: string; wrapped: string | null }[] = [];
  for (const m of source.matchAll(/^export\s+const\s+(\w+)\s*=\s*([\s\S]{0,40})/gm))
    out.push({ name: m[1], wrapped: m[2] });
  for (const m of source.matchAll(/^export\s+(?:async\s+)?function\s+(\w+)/gm))
    out.push({ name: m[1], wrapped: null });
  for (const m of source.matchAll(/^export\s*\{([^}]*)\}/gm))
    for (const part of m[1].split(",")) out.push({ name: part.trim(), wrapped: null });
  return out;
}

describe("adapters (one way in for every route handler and server action)", () => {
  test("every route handler method is publicRoute, memberRoute, serviceRoute or apiRoute (REST API v1)", async () => {
    const routes = await sources((file) => file.endsWith("route.ts"));
    expect(routes.length).toBeGreaterThan(20);
    const bad: string[] = [];
    for (const { file, source } of routes) {
      if (PENDING.has(file)) continue;
      for (const { name, wrapped } of exportsOf(source)) {
        if (!/^(GET|POST|PUT|PATCH|DELETE|OPTIONS|HEAD)$/.test(name)) continue;
        if (!wrapped || !ROUTE_WRAPPERS.test(wrapped)) bad.push(`${file}: ${name}`);
      }
    }
    expect(bad).toEqual([]);
  });

  test('every export of a "use server" file is memberAction or publicAction', async () => {
    const actions = await sources((_, source) => /^["']use server["'];?/m.test(source));
    expect(actions.length).toBeGreaterThan(20);
    const bad: string[] = [];
    for (const { file, source } of actions) {
      if (PENDING.has(file)) continue;
      for (const { name, wrapped } of exportsOf(source))
        if (!wrapped || !ACTION_WRAPPERS.test(wrapped)) bad.push(`${file}: ${name}`);
    }
    expect(bad).toEqual([]);
  });

  test("no route handler or server action hand-rolls a try/catch", async () => {
    const adapters = await sources(
      (file, source) => file.endsWith("route.ts") || /^["']use server["'];?/m.test(source),
    );
    const bad = adapters.filter(({ file, source }) => !PENDING.has(file) && /\btry\s*\{/.test(source));
    expect(bad.map((a) => a.file)).toEqual([]);
  });

  test("the pending list names only files that still exist", async () => {
    const all = new Set((await sources(() => true)).map((s) => s.file));
    expect([...PENDING].filter((file) => !all.has(file))).toEqual([]);
  });
});
