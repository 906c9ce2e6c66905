import { describe, expect, test } from "vitest";
import { withUser } from "@/lib/db/doors";
import { countSegment } from "@/lib/segments/count-segment";
import { segmentFilterSchema } from "@/lib/segments/filter";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace, type TestWorkspace } from "../helpers/factories";

/**
 * The no-show condition (docs/decisions.md, "Segments": attendance): registered for an event that
 * has ended and not checked in; beside `event_attended`, so a follow-up can re-invite no-shows.
 */
const db = setupTestDatabase();

const count = (ws: TestWorkspace, condition: Record<string, unknown>) =>
  withUser(ws.owner.claims, (tx) =>
    countSegment(tx, {
      workspaceId: ws.id,
      filter: segmentFilterSchema.parse({
        version: 1,
        root: { kind: "group", op: "and", conditions: [condition] },
      }),
    }),
  );

describe("segment condition event_no_show", () => {
  test("registered for a past event and not checked in; not the attendee, the cancelled, the waitlisted, nor a future event's registrant", async () => {
    const ws = await createWorkspace(db.sql);
    const other = await createWorkspace(db.sql);
    const hour = 3_600_000;
    const [past] = await db.sql`
      insert into events (workspace_id, name, start_time, end_time)
      values (${ws.id}, 'Past', ${new Date(Date.now() - 3 * hour)}, ${new Date(Date.now() - 2 * hour)}) returning id`;
    const [future] = await db.sql`
      insert into events (workspace_id, name, start_time, end_time)
      values (${ws.id}, 'Future', ${new Date(Date.now() + 2 * hour)}, ${new Date(Date.now() + 3 * hour)}) returning id`;
    const register = async (eventId: string, fields: Record<string, unknown> = {}) => {
      const c = await createContact(db.sql, ws.id);
      await db.sql`insert into event_registrations ${db.sql({ workspace_id: ws.id, event_id: eventId, contact_id: c.id, ...fields })}`;
      return c.id as string;
    };
    const noShow = await register(past.id);
    await register(past.id, { checked_in_at: new Date(Date.now() - 2.5 * hour) });
    await register(past.id, { status: "cancelled" });
    await register(past.id, { status: "waitlisted", waitlist_position: 1 });
    await register(future.id);
    expect(await count(ws, { kind: "event_no_show", eventId: past.id })).toBe(1);
    expect(await count(ws, { kind: "event_no_show" })).toBe(1);
    expect(await count(ws, { kind: "event_no_show", eventId: future.id })).toBe(0);
    expect(await count(ws, { kind: "event_attended", eventId: past.id })).toBe(1);
    // negated: everyone else in the workspace
    const [{ n }] = await db.sql`select count(*)::int as n from contacts where workspace_id = ${ws.id}`;
    expect(await count(ws, { kind: "event_no_show", not: true })).toBe(n - 1);
    expect(await count(other, { kind: "event_no_show" })).toBe(0);
    expect(noShow).toBeTruthy();
  });
});
