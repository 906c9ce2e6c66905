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
  type Who,
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

/**
 * The tables an aal1 token loses in a workspace that requires two-factor (docs/decisions.md, "The
 * second factor holds at the database"): every table with a workspace_id and workspaces itself (the
 * restrictive <table>_second_factor policies), and user_profiles, whose co-members are seen through
 * the workspace. There, a member of A at aal1 gets what anyone gets on B's rows, which are nobody's.
 */
const closedAtAal1 = (w: World, table: string) =>
  w.tables.get(table)!.scoped || table === "workspaces" || table === "user_profiles";
const MEMBERS: Who[] = ["owner", "admin", "member"];

describe("REST attacker with an aal1 token: a workspace that requires two-factor gives it nothing", () => {
  // built once the matrix above has run: its tables without workspace_id count every row
  let twoFactorWorld: World;
  beforeAll(async () => {
    twoFactorWorld = await buildWorld(db.sql, { requireTwoFactor: true });
  }, 120_000);
  test.each(cases)(
    "%s: %s by owner, admin and member of A, which requires two-factor: nothing at aal1, as the manifest says at aal2",
    async (table, _label, action) => {
      const w = twoFactorWorld;
      const seen: Record<string, string> = {};
      const promised: Record<string, string> = {};
      for (const who of MEMBERS) {
        seen[`${who} aal1`] = await observeRequest(w, table, action, who, "A", "aal1");
        promised[`${who} aal1`] = expected(
          manifest,
          w,
          table,
          action,
          who,
          closedAtAal1(w, table) ? "B" : "A",
        );
        seen[`${who} aal2`] = await observeRequest(w, table, action, who, "A", "aal2");
        promised[`${who} aal2`] = expected(manifest, w, table, action, who, "A");
      }
      expect(seen).toEqual(promised);
    },
  );
});

describe("REST attacker: an admin's direct writes of invitations, roles and webhook endpoints are refused", () => {
  // written through the service path after the app's role and step-up checks, with the audit row
  // (docs/decisions.md, "The second factor holds at the database")
  test.each([
    ["workspace_members", "role: a role change without step-up", { op: "update", column: "role" }],
    [
      "workspace_invitations",
      "token_hash: a link token of their choosing",
      { op: "update", column: "token_hash" },
    ],
    [
      "workspace_invitations",
      "expires_at: an invitation that never expires",
      { op: "update", column: "expires_at" },
    ],
    [
      "workspace_invitations",
      "revoked_at: a revoked invitation made open again",
      { op: "update", column: "revoked_at" },
    ],
    ["workspace_invitations", "insert: an owner's invitation with no step-up", { op: "insert" }],
    [
      "webhook_endpoints",
      "secret_ciphertext: a secret the worker cannot open",
      { op: "update", column: "secret_ciphertext" },
    ],
    ["webhook_endpoints", "url: deliveries re-pointed without step-up", { op: "update", column: "url" }],
    ["webhook_endpoints", "delete: an endpoint removed without step-up", { op: "delete" }],
  ] as [string, string, Action][])(
    "%s %s: refused to an owner and an admin, nothing changes",
    async (table, _label, action) => {
      for (const who of ["owner", "admin"] as Who[])
        expect(`${who}: ${await observeRequest(world, table, action, who, "A")}`).toBe(`${who}: 42501`);
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
