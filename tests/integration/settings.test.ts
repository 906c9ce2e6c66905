import { describe, expect, test } from "vitest";
import { AppError } from "@/lib/errors/app-error";
import { withUser } from "@/lib/db/doors";
import { createWorkspace } from "@/lib/workspaces/create-workspace";
import { listMemberships } from "@/lib/workspaces/list-memberships";
import { RENAME_FORBIDDEN, renameWorkspace } from "@/lib/workspaces/rename-workspace";
import { updateProfile } from "@/lib/profiles/update-profile";
import { setupTestDatabase } from "../helpers/db";
import * as f from "../helpers/factories";

const db = setupTestDatabase();

async function workspaceName(id: string): Promise<string> {
  const [row] = await db.sql`select name from workspaces where id = ${id}`;
  return row.name;
}

async function profile(id: string) {
  const [row] = await db.sql`select first_name, last_name, timezone from user_profiles where id = ${id}`;
  return row;
}

describe("createWorkspace", () => {
  test("a user may create another workspace and owns it; both are theirs to switch between", async () => {
    const ws = await f.createWorkspace(db.sql, { name: "First" });
    const result = await withUser(ws.owner.claims, (tx) => createWorkspace(tx, { name: "  Second  " }));
    if (!("data" in result)) throw result.error;
    const rows =
      await db.sql`select user_id, role from workspace_members where workspace_id = ${result.data.workspaceId}`;
    expect(rows).toEqual([{ user_id: ws.owner.id, role: "owner" }]);
    expect(await workspaceName(result.data.workspaceId)).toBe("Second");
    const memberships = await withUser(ws.owner.claims, listMemberships);
    expect(memberships.map((m) => [m.workspaceName, m.role])).toEqual([
      ["First", "owner"],
      ["Second", "owner"],
    ]);
  });

  test("a blank name is refused and creates nothing", async () => {
    const user = await f.createUser(db.sql);
    const result = await withUser(user.claims, (tx) => createWorkspace(tx, { name: "   " }));
    expect(result).toEqual({ error: new AppError("invalid", "Name your workspace.", { field: "name" }) });
    expect(await db.sql`select 1 from workspace_members where user_id = ${user.id}`).toHaveLength(0);
  });
});

describe("renameWorkspace", () => {
  test("Admin+ change the workspace name", async () => {
    const ws = await f.createWorkspace(db.sql);
    const admin = await f.addMember(db.sql, ws.id, "admin");
    const result = await withUser(admin.claims, (tx) =>
      renameWorkspace(tx, { workspaceId: ws.id, name: "Renamed" }),
    );
    expect(result).toEqual({ data: { name: "Renamed" } });
    expect(await workspaceName(ws.id)).toBe("Renamed");
  });

  test("a member cannot change the workspace name", async () => {
    const ws = await f.createWorkspace(db.sql, { name: "Kept" });
    const member = await f.addMember(db.sql, ws.id, "member");
    const result = await withUser(member.claims, (tx) =>
      renameWorkspace(tx, { workspaceId: ws.id, name: "Nope" }),
    );
    expect(result).toEqual({ error: new AppError("forbidden", RENAME_FORBIDDEN) });
    expect(await workspaceName(ws.id)).toBe("Kept");
  });

  test("a name over 200 characters is refused and nothing changes", async () => {
    const ws = await f.createWorkspace(db.sql, { name: "Kept" });
    const result = await withUser(ws.owner.claims, (tx) =>
      renameWorkspace(tx, { workspaceId: ws.id, name: "x".repeat(201) }),
    );
    expect(result).toEqual({ error: new AppError("invalid", "That name is too long.", { field: "name" }) });
    expect(await workspaceName(ws.id)).toBe("Kept");
  });
});

describe("updateProfile", () => {
  test("a user sets their own name and IANA time zone", async () => {
    const user = await f.createUser(db.sql);
    const result = await withUser(user.claims, (tx) =>
      updateProfile(tx, { firstName: " Ada ", lastName: "Lovelace", timezone: "Europe/London" }),
    );
    expect(result).toMatchObject({
      data: { firstName: "Ada", lastName: "Lovelace", timezone: "Europe/London" },
    });
    expect(await profile(user.id)).toEqual({
      first_name: "Ada",
      last_name: "Lovelace",
      timezone: "Europe/London",
    });
  });

  test("a time zone outside the IANA list is refused and nothing changes", async () => {
    const user = await f.createUser(db.sql, { timezone: "America/Chicago" });
    const before = await profile(user.id);
    const result = await withUser(user.claims, (tx) =>
      updateProfile(tx, { firstName: "Changed", lastName: "", timezone: "Mars/Olympus_Mons" }),
    );
    expect(result).toEqual({ error: expect.objectContaining({ code: "invalid", field: "timezone" }) });
    expect(await profile(user.id)).toEqual(before);
  });

  test("only the signed-in user's own profile changes", async () => {
    const ws = await f.createWorkspace(db.sql);
    const colleague = await f.addMember(db.sql, ws.id, "member");
    const before = await profile(colleague.id);
    await withUser(ws.owner.claims, (tx) => updateProfile(tx, { firstName: "Owner", timezone: "UTC" }));
    expect(await profile(colleague.id)).toEqual(before);
    expect((await profile(ws.owner.id)).first_name).toBe("Owner");
  });
});
