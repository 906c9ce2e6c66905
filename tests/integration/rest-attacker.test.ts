import { beforeAll, describe, expect, test } from "vitest";
import { setupTestDatabase } from "../helpers/db";
import {
  CALLERS,
  SIDES,
  buildWorld,
  expected,
  observeRequest,
  readManifest,
  type Action,
  type World,
} from "../helpers/rest-attacker";
import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * The REST attacker (README, Security: members "may reach the database directly through
 * Supabase's REST API with their own JWT"). Every request PostgREST can make on every table of
 * schema public (read each column, write each column, insert a row, delete a row), by an owner,
 * an admin and a member of workspace A and by an anonymous caller, on A's rows and on B's;
 * the outcome each must have is derived from supabase/privileges.json (the grants and the
 * workspace roles the policies admit), and every outcome is read back from the database.
 */
const db = setupTestDatabase();
const manifest = readManifest();

// the tables and columns are the catalog's; the schema snapshot lists them before any database runs
const TABLES = tablesOfSnapshot();

const cases = [...TABLES].flatMap(([table, columns]) => [
  ...columns.map((column) => [table, `select ${column}`, { op: "select", column }] as const),
  ...columns.map((column) => [table, `update ${column}`, { op: "update", column }] as const),
  [table, "insert", { op: "insert" }] as const,
  [table, "delete", { op: "delete" }] as const,
]) as [string, string, Action][];

let world: World;
beforeAll(async () => {
  world = await buildWorld(db.sql);
  // the snapshot and the migrated database name the same tables and columns
  const live = Object.fromEntries([...world.tables].map(([t, info]) => [t, info.columns.map((c) => c.name)]));
  expect(live).toEqual(Object.fromEntries(TABLES));
}, 120_000);

describe("REST attacker: every request on every table of schema public, as PostgREST makes it", () => {
  test.each(cases)(
    "%s: %s by owner, admin, member and anon of A, on A's and B's rows, as the manifest says",
    async (table, _label, action) => {
      const seen: Record<string, string> = {};
      const promised: Record<string, string> = {};
      for (const who of CALLERS)
        for (const side of SIDES) {
          seen[`${who} on ${side}`] = await observeRequest(world, table, action, who, side);
          promised[`${who} on ${side}`] = expected(manifest, world, table, action, who, side);
        }
      expect(seen).toEqual(promised);
    },
  );
});

/** table -> columns, in order, from supabase/schema.sql (CREATE TABLE public.x ( ... );). */
function tablesOfSnapshot(): Map<string, string[]> {
  const text = readFileSync(path.join(process.cwd(), "supabase", "schema.sql"), "utf8");
  const tables = new Map<string, string[]>();
  for (const m of text.matchAll(/^CREATE TABLE public\.(\w+) \(\n([\s\S]*?)\n\);/gm)) {
    const columns = m[2]
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => !/^(CONSTRAINT|PRIMARY|UNIQUE|CHECK|FOREIGN)\b/.test(line))
      .map((line) => line.split(" ")[0].replace(/^"|"$/g, ""));
    tables.set(m[1], columns);
  }
  return new Map([...tables].sort(([a], [b]) => (a < b ? -1 : 1)));
}
