import { describe, expect, test } from "vitest";
import { withService, withUser, type Db } from "@/lib/db/doors";
import { localAccounts, signUpFirst, SIGN_UP_FIRST } from "@/lib/auth/provision-account";
import { signInLocal } from "@/lib/auth/local-provider";
import { addMember, addMemberByEmail } from "@/lib/workspaces/add-member";
import { changeMemberRole } from "@/lib/workspaces/change-member-role";
import { listMembers } from "@/lib/workspaces/list-members";
import { MESSAGES } from "@/lib/workspaces/member-permissions";
import { removeMember } from "@/lib/workspaces/remove-member";
import { setupTestDatabase } from "../helpers/db";
import {
  addMember as seedMember,
  createUser,
  createWorkspace,
  unique,
  type TestUser,
} from "../helpers/factories";

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
    if (!("data" in result)) throw new Error(result.error);
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

describe("addMember", () => {
  test("Admin+ add an existing user by email with a role", async () => {
    const ws = await createWorkspace(db.sql);
    const admin = await seedMember(db.sql, ws.id, "admin");
    const existing = await createUser(db.sql);
    const result = await as(admin)((tx) =>
      addMember(tx, { workspaceId: ws.id, email: existing.email, role: "admin" }),
    );
    expect(result).toEqual({ data: { userId: existing.id, email: existing.email, role: "admin" } });
    expect(await rows(ws.id)).toEqual({
      [ws.owner.id]: "owner",
      [admin.id]: "admin",
      [existing.id]: "admin",
    });
  });

  test("the email matches an existing account whatever its case", async () => {
    const ws = await createWorkspace(db.sql);
    const existing = await createUser(db.sql);
    const result = await as(ws.owner)((tx) =>
      addMember(tx, { workspaceId: ws.id, email: `  ${existing.email.toUpperCase()} `, role: "member" }),
    );
    expect(result).toMatchObject({ data: { userId: existing.id } });
    expect((await rows(ws.id))[existing.id]).toBe("member");
  });

  test("someone already a member gets a clear message and nothing changes", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await seedMember(db.sql, ws.id, "member");
    const before = await rows(ws.id);
    const result = await as(ws.owner)((tx) =>
      addMember(tx, { workspaceId: ws.id, email: member.email, role: "admin" }),
    );
    expect(result).toEqual({ error: MESSAGES.alreadyMember(member.email), field: "email" });
    expect(await rows(ws.id)).toEqual(before);
  });

  test("only owners may add an owner: an admin is refused", async () => {
    const ws = await createWorkspace(db.sql);
    const admin = await seedMember(db.sql, ws.id, "admin");
    const other = await createUser(db.sql);
    const before = await rows(ws.id);
    const result = await as(admin)((tx) =>
      addMember(tx, { workspaceId: ws.id, email: other.email, role: "owner" }),
    );
    expect(result).toEqual({ error: MESSAGES.ownerToAdd, field: "role" });
    expect(await rows(ws.id)).toEqual(before);
  });

  test("an owner may add an owner", async () => {
    const ws = await createWorkspace(db.sql);
    const other = await createUser(db.sql);
    await as(ws.owner)((tx) => addMember(tx, { workspaceId: ws.id, email: other.email, role: "owner" }));
    expect((await rows(ws.id))[other.id]).toBe("owner");
  });

  test("a member cannot add members", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await seedMember(db.sql, ws.id, "member");
    const other = await createUser(db.sql);
    const before = await rows(ws.id);
    const result = await as(member)((tx) =>
      addMember(tx, { workspaceId: ws.id, email: other.email, role: "member" }),
    );
    expect(result).toEqual({ error: MESSAGES.notAdmin });
    expect(await rows(ws.id)).toEqual(before);
  });

  test("an admin of another workspace cannot add members here", async () => {
    const ws = await createWorkspace(db.sql);
    const outsider = (await createWorkspace(db.sql)).owner;
    const before = await rows(ws.id);
    const result = await as(outsider)((tx) =>
      addMember(tx, { workspaceId: ws.id, email: outsider.email, role: "owner" }),
    );
    expect(result).toEqual({ error: MESSAGES.notAdmin });
    expect(await rows(ws.id)).toEqual(before);
  });

  test("bad input: a malformed email changes nothing", async () => {
    const ws = await createWorkspace(db.sql);
    const before = await rows(ws.id);
    const result = await as(ws.owner)((tx) =>
      addMember(tx, { workspaceId: ws.id, email: "not-an-email", role: "member" }),
    );
    expect(result).toEqual({ error: "Enter a valid email address.", field: "email" });
    expect(await rows(ws.id)).toEqual(before);
  });

  test("bad input: an unknown role changes nothing", async () => {
    const ws = await createWorkspace(db.sql);
    const other = await createUser(db.sql);
    const before = await rows(ws.id);
    const result = await as(ws.owner)((tx) =>
      addMember(tx, { workspaceId: ws.id, email: other.email, role: "superuser" as "member" }),
    );
    expect(result).toEqual({ error: "Choose a role: owner, admin or member.", field: "role" });
    expect(await rows(ws.id)).toEqual(before);
  });

  test("an unknown email, local provider: creates the user with a temporary password that signs in", async () => {
    const ws = await createWorkspace(db.sql);
    const email = `${unique("new")}@example.test`;
    const result = await addMemberByEmail(as(ws.owner), localAccounts, {
      workspaceId: ws.id,
      email: email.toUpperCase(),
      role: "member",
    });
    if (!("data" in result)) throw new Error(result.error);
    expect(result.data.temporaryPassword).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const [user] = await db.sql`select u.id, p.email from auth.users u join user_profiles p using (id)
                                where u.email = ${email}`;
    expect(user).toEqual({ id: result.data.userId, email });
    expect((await rows(ws.id))[user.id]).toBe("member");
    const signIn = await withService((tx) =>
      signInLocal(tx, { email, password: result.data.temporaryPassword! }),
    );
    expect(signIn).toMatchObject({ data: { userId: user.id } });
  });

  test("an unknown email, Supabase without a service key: asks for sign-up first and stores nothing", async () => {
    const ws = await createWorkspace(db.sql);
    const email = `${unique("nobody")}@example.test`;
    const before = await rows(ws.id);
    const result = await addMemberByEmail(as(ws.owner), signUpFirst, {
      workspaceId: ws.id,
      email,
      role: "member",
    });
    expect(result).toEqual({ error: SIGN_UP_FIRST, field: "email" });
    expect(await db.sql`select id from auth.users where email = ${email}`).toHaveLength(0);
    expect(await rows(ws.id)).toEqual(before);
  });

  test("an unknown email added by a member creates no account", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await seedMember(db.sql, ws.id, "member");
    const email = `${unique("nobody")}@example.test`;
    const result = await addMemberByEmail(as(member), localAccounts, {
      workspaceId: ws.id,
      email,
      role: "member",
    });
    expect(result).toEqual({ error: MESSAGES.notAdmin });
    expect(await db.sql`select id from auth.users where email = ${email}`).toHaveLength(0);
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
    expect(result).toEqual({ error: MESSAGES.ownerToChange, field: "role" });
    expect((await rows(ws.id))[member.id]).toBe("member");
  });

  test("only owners may demote an owner: an admin is refused", async () => {
    const ws = await createWorkspace(db.sql);
    const second = await seedMember(db.sql, ws.id, "owner");
    const admin = await seedMember(db.sql, ws.id, "admin");
    const result = await as(admin)((tx) =>
      changeMemberRole(tx, { workspaceId: ws.id, userId: second.id, role: "member" }),
    );
    expect(result).toEqual({ error: MESSAGES.ownerToChange, field: "role" });
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
    expect(result).toEqual({ error: MESSAGES.lastOwnerDemote });
    expect((await rows(ws.id))[ws.owner.id]).toBe("owner");
  });

  test("a member cannot change roles", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await seedMember(db.sql, ws.id, "member");
    const result = await as(member)((tx) =>
      changeMemberRole(tx, { workspaceId: ws.id, userId: member.id, role: "admin" }),
    );
    expect(result).toEqual({ error: MESSAGES.notAdmin });
    expect((await rows(ws.id))[member.id]).toBe("member");
  });

  test("bad input: an unknown role changes nothing", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await seedMember(db.sql, ws.id, "member");
    const result = await as(ws.owner)((tx) =>
      changeMemberRole(tx, { workspaceId: ws.id, userId: member.id, role: "guest" as "member" }),
    );
    expect(result).toEqual({ error: "Choose a role: owner, admin or member.", field: "role" });
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
    expect(result).toEqual({ error: MESSAGES.ownerToRemove });
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
    expect(result).toEqual({ error: MESSAGES.notAdmin });
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
    expect(result).toEqual({ error: MESSAGES.lastOwnerLeave });
    expect(await rows(ws.id)).toEqual(before);
  });

  test("removing someone who is not a member gives a clear message", async () => {
    const ws = await createWorkspace(db.sql);
    const stranger = await createUser(db.sql);
    const before = await rows(ws.id);
    const result = await as(ws.owner)((tx) => removeMember(tx, { workspaceId: ws.id, userId: stranger.id }));
    expect(result).toEqual({ error: MESSAGES.notMember });
    expect(await rows(ws.id)).toEqual(before);
  });

  test("bad input: a malformed member id changes nothing", async () => {
    const ws = await createWorkspace(db.sql);
    const before = await rows(ws.id);
    const result = await as(ws.owner)((tx) => removeMember(tx, { workspaceId: ws.id, userId: "nope" }));
    expect(result).toEqual({ error: "Unknown member.", field: "userId" });
    expect(await rows(ws.id)).toEqual(before);
  });
});
