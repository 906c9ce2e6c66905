import { describe, expect, test } from "vitest";
import { listSavedMappings } from "@/lib/contacts/import/saved-mappings";
import { withUser } from "@/lib/db/doors";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createWorkspace, type TestWorkspace } from "../helpers/factories";
import { signIn } from "../helpers/member-session";
import { insertRow } from "../helpers/rows";

const settingsPage = await import("@/app/(dashboard)/settings/import-mappings/actions");

const db = setupTestDatabase();

// Settings → Import mappings (docs/decisions.md, "CSV import mappings")
const saved = (ws: TestWorkspace, headers: string[], mapping: object) =>
  insertRow(db.sql, "import_mappings", ws, { headers, mapping, updated_by: ws.owner.id });
const remove = (mappingId: string) => {
  const form = new FormData();
  form.set("mappingId", mappingId);
  return settingsPage.deleteImportMappingAction({}, form);
};
const mappingIds = async (wsId: string) =>
  (await db.sql`select id from import_mappings where workspace_id = ${wsId}`).map((r) => r.id as string);

describe("settings: saved import mappings", () => {
  test("members see their workspace's mappings: each header's target, last use and who saved it; never another workspace's", async () => {
    const ws = await createWorkspace(db.sql);
    const other = await createWorkspace(db.sql);
    await saved(ws, ["Correo", "Nombre", "Interno"], {
      correo: { target: "field", name: "email" },
      nombre: { target: "field", name: "first_name" },
      interno: { target: "skip" },
    });
    await saved(other, ["Email"], { email: { target: "field", name: "email" } });
    const member = await addMember(db.sql, ws.id, "member");

    const list = await withUser(member.claims, (tx) => listSavedMappings(tx, ws.id));
    expect(list).toHaveLength(1);
    expect(list[0].columns).toEqual([
      { header: "Correo", target: "Email" },
      { header: "Nombre", target: "First name" },
      { header: "Interno", target: "Not imported" },
    ]);
    expect(list[0].savedBy).toBe("Test User"); // the factory's name
    expect(list[0].lastUsedAt).toBeInstanceOf(Date);
    expect(await withUser(member.claims, (tx) => listSavedMappings(tx, other.id))).toEqual([]);
  });

  test("owners and admins delete a mapping (one audit entry); a member is refused; another workspace's id is not found and nothing is deleted", async () => {
    const ws = await createWorkspace(db.sql);
    const victim = await createWorkspace(db.sql);
    const mine = await saved(ws, ["Email"], { email: { target: "field", name: "email" } });
    const theirs = await saved(victim, ["Email"], { email: { target: "field", name: "email" } });
    const admin = await addMember(db.sql, ws.id, "admin");
    const member = await addMember(db.sql, ws.id, "member");
    // the admin is also a member of the victim's workspace, where RLS would let them delete: the
    // action works in their current workspace (the first) only
    await db.sql`insert into workspace_members (workspace_id, user_id, role, created_at)
                 values (${victim.id}, ${admin.id}, 'member', now() + interval '1 minute')`;

    signIn(member.claims);
    expect(await remove(mine.id as string)).toMatchObject({ code: "forbidden" });
    signIn(admin.claims);
    expect(await remove(theirs.id as string)).toMatchObject({ code: "not_found" });
    expect(await remove("not-a-uuid")).toMatchObject({ code: "invalid" });
    expect(await mappingIds(victim.id)).toEqual([theirs.id]);
    expect(await mappingIds(ws.id)).toEqual([mine.id]);
    expect(
      await db.sql`select 1 from audit_log where action = 'import_mapping.deleted'
                        and workspace_id in (${ws.id}, ${victim.id})`,
    ).toHaveLength(0);

    expect(await remove(mine.id as string)).toEqual({ success: "Mapping deleted." });
    expect(await mappingIds(ws.id)).toEqual([]);
    const audit = await db.sql`select actor_id, target_id, before from audit_log
                               where workspace_id = ${ws.id} and action = 'import_mapping.deleted'`;
    expect(audit).toEqual([{ actor_id: admin.id, target_id: mine.id, before: { headers: ["Email"] } }]);
  });
});
