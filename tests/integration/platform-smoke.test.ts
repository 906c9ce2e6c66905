import { describe, expect, test } from "vitest";
import { withService, withUser } from "@/lib/db/doors";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createUser, createWorkspace } from "../helpers/factories";

const db = setupTestDatabase();

describe("lib/db doors", () => {
  test("withUser runs as authenticated with the member's claims; withService has no user", async () => {
    const ws = await createWorkspace(db.sql);
    await createContact(db.sql, ws.id);
    const seen = await withUser(ws.owner.claims, async (tx) => {
      const [row] =
        await tx`select current_user as role, auth.uid() as uid, (select count(*)::int from contacts) as n`;
      return row;
    });
    expect(seen).toEqual({ role: "authenticated", uid: ws.owner.id, n: 1 });
    const stranger = await createUser(db.sql);
    const hidden = await withUser(
      stranger.claims,
      async (tx) => (await tx`select count(*)::int as n from contacts`)[0].n,
    );
    expect(hidden).toBe(0);
    const service = await withService(
      async (tx) => (await tx`select current_user as role, auth.uid() as uid`)[0],
    );
    expect(service).toEqual({ role: "service_role", uid: null });
  });

  test("a failing domain function rolls its whole transaction back", async () => {
    const ws = await createWorkspace(db.sql);
    await expect(
      withUser(ws.owner.claims, async (tx) => {
        await tx`insert into contacts (workspace_id, email) values (${ws.id}, 'rollback@example.test')`;
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    const [{ n }] =
      await db.sql`select count(*)::int as n from contacts where email = 'rollback@example.test'`;
    expect(n).toBe(0);
  });
});
