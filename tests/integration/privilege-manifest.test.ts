import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { PRIVILEGE_MANIFEST, privilegeKey, readPrivileges, type ManifestEntry } from "@/lib/db/privileges";
import { setupTestDatabase } from "../helpers/db";

/**
 * The database is the boundary (README, Security): every privilege anon and authenticated hold
 * is listed, with its reason, in supabase/privileges.json (`npm run db:privileges` regenerates
 * it from a freshly migrated database and keeps the reasons). A grant nobody listed, a listed
 * grant the database no longer has, or an entry nobody explained fails here.
 */
const db = setupTestDatabase();
const manifest: ManifestEntry[] = JSON.parse(readFileSync(PRIVILEGE_MANIFEST, "utf8"));
const ops = ["SELECT", "INSERT", "UPDATE", "DELETE"];
const isTableOperation = (e: ManifestEntry) =>
  (e.kind === "table" || e.kind === "column") &&
  e.object.startsWith("public.") &&
  e.role === "authenticated" &&
  ops.includes(e.privilege);

describe("privilege manifest: what anon and authenticated may do is written down, with a reason", () => {
  test("the database grants anon and authenticated nothing the manifest does not list", async () => {
    const listed = new Set(manifest.map(privilegeKey));
    const unlisted = (await readPrivileges(db.sql)).filter((p) => !listed.has(privilegeKey(p)));
    expect(unlisted).toEqual([]);
  });

  test("the manifest lists nothing the database does not grant", async () => {
    const granted = new Set((await readPrivileges(db.sql)).map(privilegeKey));
    const stale = manifest.filter((e) => !granted.has(privilegeKey(e)));
    expect(stale).toEqual([]);
  });

  test("every entry says why it exists", () => {
    expect(manifest.filter((e) => !e.reason?.trim())).toEqual([]);
  });

  test("every table operation of a member says which workspace roles the policies admit, and only those", () => {
    const roles = ["owner", "admin", "member"];
    expect(
      manifest.filter(
        (e) =>
          isTableOperation(e) !== Array.isArray(e.admits) || (e.admits ?? []).some((r) => !roles.includes(r)),
      ),
    ).toEqual([]);
  });

  test("the manifest is in the order and the shape `npm run db:privileges` writes", () => {
    const keys = manifest.map(privilegeKey);
    expect(keys).toEqual([...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(new Set(keys).size).toBe(keys.length);
  });
});
