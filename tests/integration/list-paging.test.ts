import { describe, expect, test } from "vitest";
import { withUser } from "@/lib/db/doors";
import { LIST_PAGE_SIZE } from "@/lib/http/page-param";
import { listNotifications, notificationCounts } from "@/lib/notifications/list-notifications";
import { countTasks, listTasks } from "@/lib/tasks/list-tasks";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createWorkspace } from "../helpers/factories";

const db = setupTestDatabase();

/** Every page of a list, in order, until an empty one. */
async function allPages<T>(page: (offset: number) => Promise<T[]>): Promise<T[][]> {
  const pages: T[][] = [];
  for (let offset = 0; ; offset += LIST_PAGE_SIZE) {
    const rows = await page(offset);
    if (rows.length === 0) return pages;
    pages.push(rows);
  }
}

describe("the dashboard's long lists, a page at a time", () => {
  test("3.6 tasks: the open list's heading counts all 130 open tasks (the page once showed 'Open (100)', the first 100), and its pages reach every one, due first", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await addMember(db.sql, ws.id, "member");
    await db.sql`
      insert into tasks (workspace_id, title, status, due_date)
      select ${ws.id}, 'Task ' || i, case when i % 10 = 0 then 'in_progress' else 'open' end,
             date '2026-12-01' + i
      from generate_series(1, 130) i`;
    await db.sql`insert into tasks (workspace_id, title, status, completed_at)
                 select ${ws.id}, 'Done ' || i, 'completed', now() - i * interval '1 hour' from generate_series(1, 30) i`;
    const workspaceId = ws.id;

    expect(await withUser(member.claims, (tx) => countTasks(tx, { workspaceId, status: "open" }))).toBe(130);
    expect(await withUser(member.claims, (tx) => countTasks(tx, { workspaceId, status: "completed" }))).toBe(
      30,
    );
    const open = await allPages((offset) =>
      withUser(member.claims, (tx) =>
        listTasks(tx, { workspaceId, status: "open", limit: LIST_PAGE_SIZE, offset }),
      ),
    );
    expect(open.map((p) => p.length)).toEqual([25, 25, 25, 25, 25, 5]);
    expect(open.flat().map((t) => t.title)).toEqual(Array.from({ length: 130 }, (_, i) => `Task ${i + 1}`));
    const done = await allPages((offset) =>
      withUser(member.claims, (tx) =>
        listTasks(tx, { workspaceId, status: "completed", limit: LIST_PAGE_SIZE, offset }),
      ),
    );
    expect(done.flat().map((t) => t.title)).toEqual(Array.from({ length: 30 }, (_, i) => `Done ${i + 1}`));
  });

  test("notifications: the pages reach the oldest of 60, newest first; another member's own notification and another workspace's are neither listed nor counted", async () => {
    const ws = await createWorkspace(db.sql);
    const other = await addMember(db.sql, ws.id, "member");
    const elsewhere = await createWorkspace(db.sql);
    await db.sql`
      insert into notifications (workspace_id, type, title, created_at)
      select ${ws.id}, 'info', 'Notice ' || i, now() - i * interval '1 minute' from generate_series(1, 60) i`;
    await db.sql`insert into notifications (workspace_id, user_id, type, title)
                 values (${ws.id}, ${other.id}, 'info', 'For the other member only')`;
    await db.sql`insert into notifications (workspace_id, type, title) values (${elsewhere.id}, 'info', 'Elsewhere')`;
    const owner = { workspaceId: ws.id, userId: ws.owner.id };

    expect((await withUser(ws.owner.claims, (tx) => notificationCounts(tx, owner))).total).toBe(60);
    const pages = await allPages((offset) =>
      withUser(ws.owner.claims, (tx) => listNotifications(tx, { ...owner, limit: LIST_PAGE_SIZE, offset })),
    );
    expect(pages.map((p) => p.length)).toEqual([25, 25, 10]);
    expect(pages.flat().map((n) => n.title)).toEqual(Array.from({ length: 60 }, (_, i) => `Notice ${i + 1}`));
    // the other member counts the workspace's 60 and their own
    expect(
      (await withUser(other.claims, (tx) => notificationCounts(tx, { workspaceId: ws.id, userId: other.id })))
        .total,
    ).toBe(61);
  });
});
