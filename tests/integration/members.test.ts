import { describe, expect, test } from "vitest";
import { AppError } from "@/lib/errors/app-error";
import { withUser, type Db } from "@/lib/db/doors";
import { changeMemberRole } from "@/lib/workspaces/change-member-role";
import { listMembers } from "@/lib/workspaces/list-members";
import { MESSAGES } from "@/lib/workspaces/member-permissions";
import { removeMember } from "@/lib/workspaces/remove-member";
import { setupTestDatabase } from "../helpers/db";
import { addMember as seedMember, createUser, createWorkspace, type TestUser } from "../helpers/factories";

const db = setupTestDatabase();

const as =
  (user: TestUser) =>
  <T>(fn: (tx: Db) => Promise<T>): Promise<T> =>
    withUser(user.claims, fn);

/** The workspace's membership rows, as the superuser sees them. */
async function rows(workspaceId: string): Promise<Record<string, string>> {
  const list = await db.sql`select user_id, role from workspace_members where workspace_id = ${workspaceId}`;
  return Object.fromEntries(list.map((r) => [r.user_id, r.role]));
}

describe("listMembers", () => {
  test("lists the workspace's members with name, email, role and joined date, owners first", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await seedMember(db.sql, ws.id, "member");
    const admin = await seedMember(db.sql, ws.id, "admin");
    const result = await as(member)((tx) => listMembers(tx, { workspaceId: ws.id }));
    if (!("data" in result)) throw result.error;
    expect(result.data.map((m) => [m.userId, m.role])).toEqual([
      [ws.owner.id, "owner"],
      [admin.id, "admin"],
      [member.id, "member"],
    ]);
    expect(result.data[0]).toMatchObject({ email: ws.owner.email, firstName: "Test", lastName: "User" });
    expect(result.data[0].joinedAt).toBeInstanceOf(Date);
  });

  test("a user outside the workspace sees no members", async () => {
    const ws = await createWorkspace(db.sql);
    const stranger = (await createWorkspace(db.sql)).owner;
    const result = await as(stranger)((tx) => listMembers(tx, { workspaceId: ws.id }));
    expect(result).toEqual({ data: [] });
  });
});

describe("changeMemberRole", () => {
  test("Admin+ change a member's role", async () => {
    const ws = await createWorkspace(db.sql);
    const admin = await seedMember(db.sql, ws.id, "admin");
    const member = await seedMember(db.sql, ws.id, "member");
    const result = await as(admin)((tx) =>
      changeMemberRole(tx, { workspaceId: ws.id, userId: member.id, role: "admin" }),
    );
    expect(result).toEqual({ data: { userId: member.id, role: "admin" } });
    expect((await rows(ws.id))[member.id]).toBe("admin");
  });

  test("only owners may promote to owner: an admin is refused", async () => {
    const ws = await createWorkspace(db.sql);
    const admin = await seedMember(db.sql, ws.id, "admin");
    const member = await seedMember(db.sql, ws.id, "member");
    const result = await as(admin)((tx) =>
      changeMemberRole(tx, { workspaceId: ws.id, userId: member.id, role: "owner" }),
    );
    expect(result).toEqual({ error: new AppError("forbidden", MESSAGES.ownerToChange, { field: "role" }) });
    expect((await rows(ws.id))[member.id]).toBe("member");
  });

  test("only owners may demote an owner: an admin is refused", async () => {
    const ws = await createWorkspace(db.sql);
    const second = await seedMember(db.sql, ws.id, "owner");
    const admin = await seedMember(db.sql, ws.id, "admin");
    const result = await as(admin)((tx) =>
      changeMemberRole(tx, { workspaceId: ws.id, userId: second.id, role: "member" }),
    );
    expect(result).toEqual({ error: new AppError("forbidden", MESSAGES.ownerToChange, { field: "role" }) });
    expect((await rows(ws.id))[second.id]).toBe("owner");
  });

  test("an owner promotes to owner and demotes another owner", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await seedMember(db.sql, ws.id, "member");
    await as(ws.owner)((tx) =>
      changeMemberRole(tx, { workspaceId: ws.id, userId: member.id, role: "owner" }),
    );
    expect((await rows(ws.id))[member.id]).toBe("owner");
    await as(member)((tx) =>
      changeMemberRole(tx, { workspaceId: ws.id, userId: ws.owner.id, role: "admin" }),
    );
    expect(await rows(ws.id)).toEqual({ [ws.owner.id]: "admin", [member.id]: "owner" });
  });

  test("the last owner cannot be demoted", async () => {
    const ws = await createWorkspace(db.sql);
    await seedMember(db.sql, ws.id, "admin");
    const result = await as(ws.owner)((tx) =>
      changeMemberRole(tx, { workspaceId: ws.id, userId: ws.owner.id, role: "admin" }),
    );
    expect(result).toEqual({ error: new AppError("conflict", MESSAGES.lastOwnerDemote) });
    expect((await rows(ws.id))[ws.owner.id]).toBe("owner");
  });

  test("a member cannot change roles", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await seedMember(db.sql, ws.id, "member");
    const result = await as(member)((tx) =>
      changeMemberRole(tx, { workspaceId: ws.id, userId: member.id, role: "admin" }),
    );
    expect(result).toEqual({ error: new AppError("forbidden", MESSAGES.notAdmin) });
    expect((await rows(ws.id))[member.id]).toBe("member");
  });

  test("bad input: an unknown role changes nothing", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await seedMember(db.sql, ws.id, "member");
    const result = await as(ws.owner)((tx) =>
      changeMemberRole(tx, { workspaceId: ws.id, userId: member.id, role: "guest" as "member" }),
    );
    expect(result).toEqual({
      error: new AppError("invalid", "Choose a role: owner, admin or member.", { field: "role" }),
    });
    expect((await rows(ws.id))[member.id]).toBe("member");
  });
});

describe("removeMember", () => {
  test("Admin+ remove a member", async () => {
    const ws = await createWorkspace(db.sql);
    const admin = await seedMember(db.sql, ws.id, "admin");
    const member = await seedMember(db.sql, ws.id, "member");
    const result = await as(admin)((tx) => removeMember(tx, { workspaceId: ws.id, userId: member.id }));
    expect(result).toEqual({ data: { userId: member.id, left: false } });
    expect(await rows(ws.id)).toEqual({ [ws.owner.id]: "owner", [admin.id]: "admin" });
  });

  test("an admin cannot remove an owner", async () => {
    const ws = await createWorkspace(db.sql);
    const admin = await seedMember(db.sql, ws.id, "admin");
    await seedMember(db.sql, ws.id, "owner");
    const before = await rows(ws.id);
    const result = await as(admin)((tx) => removeMember(tx, { workspaceId: ws.id, userId: ws.owner.id }));
    expect(result).toEqual({ error: new AppError("forbidden", MESSAGES.ownerToRemove) });
    expect(await rows(ws.id)).toEqual(before);
  });

  test("an owner removes another owner", async () => {
    const ws = await createWorkspace(db.sql);
    const second = await seedMember(db.sql, ws.id, "owner");
    await as(ws.owner)((tx) => removeMember(tx, { workspaceId: ws.id, userId: second.id }));
    expect(await rows(ws.id)).toEqual({ [ws.owner.id]: "owner" });
  });

  test("a member cannot remove others", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await seedMember(db.sql, ws.id, "member");
    const other = await seedMember(db.sql, ws.id, "member");
    const before = await rows(ws.id);
    const result = await as(member)((tx) => removeMember(tx, { workspaceId: ws.id, userId: other.id }));
    expect(result).toEqual({ error: new AppError("forbidden", MESSAGES.notAdmin) });
    expect(await rows(ws.id)).toEqual(before);
  });

  test("any member may leave a workspace", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await seedMember(db.sql, ws.id, "member");
    const result = await as(member)((tx) => removeMember(tx, { workspaceId: ws.id, userId: member.id }));
    expect(result).toEqual({ data: { userId: member.id, left: true } });
    expect(await rows(ws.id)).toEqual({ [ws.owner.id]: "owner" });
  });

  test("an owner may leave when another owner remains", async () => {
    const ws = await createWorkspace(db.sql);
    const second = await seedMember(db.sql, ws.id, "owner");
    await as(ws.owner)((tx) => removeMember(tx, { workspaceId: ws.id, userId: ws.owner.id }));
    expect(await rows(ws.id)).toEqual({ [second.id]: "owner" });
  });

  test("the last owner cannot leave", async () => {
    const ws = await createWorkspace(db.sql);
    await seedMember(db.sql, ws.id, "admin");
    const before = await rows(ws.id);
    const result = await as(ws.owner)((tx) => removeMember(tx, { workspaceId: ws.id, userId: ws.owner.id }));
    expect(result).toEqual({ error: new AppError("conflict", MESSAGES.lastOwnerLeave) });
    expect(await rows(ws.id)).toEqual(before);
  });

  test("removing someone who is not a member gives a clear message", async () => {
    const ws = await createWorkspace(db.sql);
    const stranger = await createUser(db.sql);
    const before = await rows(ws.id);
    const result = await as(ws.owner)((tx) => removeMember(tx, { workspaceId: ws.id, userId: stranger.id }));
    expect(result).toEqual({ error: new AppError("not_found", MESSAGES.notMember) });
    expect(await rows(ws.id)).toEqual(before);
  });

  test("bad input: a malformed member id changes nothing", async () => {
    const ws = await createWorkspace(db.sql);
    const before = await rows(ws.id);
    const result = await as(ws.owner)((tx) => removeMember(tx, { workspaceId: ws.id, userId: "nope" }));
    expect(result).toEqual({ error: new AppError("invalid", "Unknown member.", { field: "userId" }) });
    expect(await rows(ws.id)).toEqual(before);
  });
});
