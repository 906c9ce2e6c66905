import { describe, expect, test } from "vitest";
import { withService, withUser, type Db } from "@/lib/db/doors";
import { setupTestDatabase } from "../helpers/db";
import { addMember as seedMember, createUser, createWorkspace, type TestUser } from "../helpers/factories";

// The member rules (spec 5.4) as the database enforces them on its own (RLS policies and grants on
// workspace_members, trigger keep_one_owner), beneath the domain checks of members.test.ts.
const db = setupTestDatabase();

const as =
  (user: TestUser) =>
  <T>(fn: (tx: Db) => Promise<T>): Promise<T> =>
    withUser(user.claims, fn);

async function rows(workspaceId: string): Promise<Record<string, string>> {
  const list = await db.sql`select user_id, role from workspace_members where workspace_id = ${workspaceId}`;
  return Object.fromEntries(list.map((r) => [r.user_id, r.role]));
}

describe("the database holds the same lines without the domain checks", () => {
  test("RLS: an admin's direct delete of an owner removes nothing", async () => {
    const ws = await createWorkspace(db.sql);
    const admin = await seedMember(db.sql, ws.id, "admin");
    const deleted = await as(admin)(
      (tx) =>
        tx`delete from workspace_members where workspace_id = ${ws.id} and user_id = ${ws.owner.id} returning 1`,
    );
    expect(deleted).toHaveLength(0);
    expect((await rows(ws.id))[ws.owner.id]).toBe("owner");
  });

  test("invitations only: not even an owner can insert a membership directly (only an accepted invitation does)", async () => {
    const ws = await createWorkspace(db.sql);
    const other = await createUser(db.sql);
    for (const role of ["owner", "member"])
      await expect(
        as(ws.owner)(
          (tx) =>
            tx`insert into workspace_members (workspace_id, user_id, role) values (${ws.id}, ${other.id}, ${role})`,
        ),
      ).rejects.toMatchObject({ code: "42501" });
    expect((await rows(ws.id))[other.id]).toBeUndefined();
  });

  test("trigger keep_one_owner: the last owner's own delete or demotion is refused", async () => {
    const ws = await createWorkspace(db.sql);
    await expect(
      as(ws.owner)((tx) => tx`delete from workspace_members where workspace_id = ${ws.id}`),
    ).rejects.toMatchObject({ code: "P0001" });
    // a role is changed only through the service door (docs/decisions.md, "The second factor holds at
    // the database"): a member's direct update is refused by the grant, the door's by the trigger
    await expect(
      as(ws.owner)((tx) => tx`update workspace_members set role = 'member' where workspace_id = ${ws.id}`),
    ).rejects.toMatchObject({ code: "42501" });
    await expect(
      withService((tx) => tx`update workspace_members set role = 'member' where workspace_id = ${ws.id}`),
    ).rejects.toMatchObject({ code: "P0001" });
    expect(await rows(ws.id)).toEqual({ [ws.owner.id]: "owner" });
  });

  test("account enumeration: no function tells an admin whether an address has an account", async () => {
    const [{ n }] =
      await db.sql`select count(*)::int as n from pg_proc where proname = 'find_user_id_by_email'`;
    expect(n).toBe(0);
  });
});
