import { AppError } from "@/lib/errors/app-error";
import { describe, expect, test } from "vitest";
import { withUser } from "@/lib/db/doors";
import { attachTag } from "@/lib/tags/attach-tag";
import { attachTagByName } from "@/lib/tags/attach-tag-by-name";
import { createTag } from "@/lib/tags/create-tag";
import { deleteTag } from "@/lib/tags/delete-tag";
import { detachTag } from "@/lib/tags/detach-tag";
import { renameTag } from "@/lib/tags/rename-tag";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace } from "../helpers/factories";

const db = setupTestDatabase();

const tagsOf = async (contactId: string) =>
  (
    await db.sql`select t.name from contact_tags ct join tags t on t.id = ct.tag_id
                 where ct.contact_id = ${contactId} order by t.name`
  ).map((r) => r.name);

describe("tags", () => {
  test("tags: create, rename and delete; names are unique per workspace", async () => {
    const ws = await createWorkspace(db.sql);
    const other = await createWorkspace(db.sql);
    const as = <T>(fn: Parameters<typeof withUser<T>>[1]) => withUser(ws.owner.claims, fn);
    const vip = await as((tx) => createTag(tx, { workspaceId: ws.id, name: "  VIP " }));
    if (!("data" in vip)) throw vip.error;
    expect(vip.data.name).toBe("VIP");
    expect(await as((tx) => createTag(tx, { workspaceId: ws.id, name: "VIP" }))).toEqual({
      error: new AppError("conflict", "A tag with this name already exists."),
    });
    expect(await as((tx) => createTag(tx, { workspaceId: ws.id, name: " " }))).toEqual({
      error: new AppError("invalid", "Name the tag."),
    });
    // the same name is free in another workspace
    const there = await withUser(other.owner.claims, (tx) =>
      createTag(tx, { workspaceId: other.id, name: "VIP" }),
    );
    expect("data" in there).toBe(true);

    await as((tx) => createTag(tx, { workspaceId: ws.id, name: "Press" }));
    expect(
      await as((tx) => renameTag(tx, { workspaceId: ws.id, tagId: vip.data.id, name: "Press" })),
    ).toEqual({
      error: new AppError("conflict", "A tag with this name already exists."),
    });
    const renamed = await as((tx) => renameTag(tx, { workspaceId: ws.id, tagId: vip.data.id, name: "Gold" }));
    expect("data" in renamed && renamed.data.name).toBe("Gold");

    const c = await createContact(db.sql, ws.id);
    await as((tx) => attachTag(tx, { workspaceId: ws.id, contactId: c.id, tagId: vip.data.id }));
    expect(await as((tx) => deleteTag(tx, { workspaceId: ws.id, tagId: vip.data.id }))).toEqual({
      success: true,
    });
    expect(await tagsOf(c.id)).toEqual([]);
    const names = await db.sql`select name from tags where workspace_id = ${ws.id} order by name`;
    expect(names.map((r) => r.name)).toEqual(["Press"]);
  });

  test("2.10 contact_tags: attaching twice is a no-op; detach removes it", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    const [tag] = await db.sql`insert into tags (workspace_id, name) values (${ws.id}, 'VIP') returning id`;
    const attach = () =>
      withUser(ws.owner.claims, (tx) =>
        attachTag(tx, { workspaceId: ws.id, contactId: c.id, tagId: tag.id }),
      );
    expect(await attach()).toEqual({ success: true, attached: true });
    expect(await attach()).toEqual({ success: true, attached: false });
    const [{ n }] = await db.sql`select count(*)::int as n from contact_tags where contact_id = ${c.id}`;
    expect(n).toBe(1);
    const detached = await withUser(ws.owner.claims, (tx) =>
      detachTag(tx, { workspaceId: ws.id, contactId: c.id, tagId: tag.id }),
    );
    expect(detached).toEqual({ success: true, detached: true });
    expect(await tagsOf(c.id)).toEqual([]);
  });

  test("tags: attaching by name finds an existing tag case-insensitively or creates it", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    await db.sql`insert into tags (workspace_id, name) values (${ws.id}, 'VIP')`;
    const byName = (name: string) =>
      withUser(ws.owner.claims, (tx) => attachTagByName(tx, { workspaceId: ws.id, contactId: c.id, name }));
    expect(await byName("vip")).toMatchObject({ success: true, attached: true });
    expect(await byName("Newsletter")).toMatchObject({ success: true, attached: true });
    expect(await byName("newsletter")).toMatchObject({ success: true, attached: false });
    expect(await tagsOf(c.id)).toEqual(["Newsletter", "VIP"]);
    const [{ n }] = await db.sql`select count(*)::int as n from tags where workspace_id = ${ws.id}`;
    expect(n).toBe(2);
  });

  test("5.4 tags: a tag of another workspace cannot be attached", async () => {
    const ws = await createWorkspace(db.sql);
    const other = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    const [foreign] =
      await db.sql`insert into tags (workspace_id, name) values (${other.id}, 'X') returning id`;
    const result = await withUser(ws.owner.claims, (tx) =>
      attachTag(tx, { workspaceId: ws.id, contactId: c.id, tagId: foreign.id }),
    );
    expect(result).toEqual({ error: new AppError("not_found", "Tag not found.") });
    expect(await tagsOf(c.id)).toEqual([]);
  });
});
