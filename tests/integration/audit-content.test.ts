import { describe, expect, test } from "vitest";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createWorkspace } from "../helpers/factories";
import { signIn } from "../helpers/member-session";

// Audit log: every member mutation writes one audit row, in its own transaction; a refused or
// invalid one writes none. The forms, events and broadcasts actions as the dashboard calls them.
const forms = await import("@/app/(dashboard)/forms/actions");
const events = await import("@/app/(dashboard)/events/actions");
const broadcasts = await import("@/app/(dashboard)/broadcasts/actions");

const db = setupTestDatabase();

const auditOf = (workspaceId: string) =>
  db.sql<{ action: string; actor_id: string; target_type: string; target_id: string; after: unknown }[]>`
    select action, actor_id, target_type, target_id, after from audit_log
    where workspace_id = ${workspaceId} order by id`;

function form(fields: Record<string, string | string[]>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) for (const v of [value].flat()) data.append(key, v);
  return data;
}

/** Runs an action that redirects after its commit; the redirect's target. */
async function redirectOf(run: Promise<unknown>): Promise<string> {
  const error = await run.then(
    () => null,
    (e: unknown) => e as { digest?: string },
  );
  const target = error?.digest?.split(";")[2];
  if (!target) throw new Error(`expected a redirect, got ${JSON.stringify(error)}`);
  return target;
}

const EVENT = {
  name: "Launch",
  start: "2031-05-01T18:00",
  end: "2031-05-01T20:00",
  timezone: "UTC",
  is_published: "on",
};

describe("audit log: every member mutation writes one audit row (forms)", () => {
  test("create, save, rotate the key, add and remove an automation, delete: one row each", async () => {
    const ws = await createWorkspace(db.sql);
    signIn(ws.owner.claims);
    const created = await redirectOf(forms.createFormAction({}, form({ name: "Newsletter" })));
    const [{ id: formId }] = await db.sql`select id from forms where workspace_id = ${ws.id}`;
    expect(created).toBe(`/forms/${formId}`);

    expect(await forms.updateFormAction(formId, {}, form({ name: "Weekly" }))).toMatchObject({
      success: "Form saved.",
    });
    const rotated = await forms.rotateFormKeyAction(formId, {}, new FormData());
    expect(rotated.key).toEqual(expect.any(String));
    expect(
      await forms.addAutomationAction(formId, {}, form({ action_type: "add_tag", new_tag: "vip" })),
    ).toMatchObject({ success: "Automation added." });
    const [{ id: automationId }] = await db.sql`select id from automations where form_id = ${formId}`;
    await forms.removeAutomationAction(formId, {}, form({ automationId }));
    expect(await redirectOf(forms.deleteFormAction(formId, {}, new FormData()))).toBe("/forms");

    const rows = await auditOf(ws.id);
    expect(rows.map((r) => r.action)).toEqual([
      "form.created",
      "form.updated",
      "form.key_rotated",
      "form.automation_added",
      "form.automation_removed",
      "form.deleted",
    ]);
    for (const row of rows)
      expect(row).toMatchObject({ actor_id: ws.owner.id, target_type: "form", target_id: formId });
    expect(rows[1].after).toMatchObject({ name: "Weekly" });
    // the raw key is shown once to the member and never written to the log
    expect(JSON.stringify(rows)).not.toContain(rotated.key);
  });

  test("a member's refused change and an invalid form write no row and change nothing", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await addMember(db.sql, ws.id, "member");
    signIn(member.claims);
    expect(await forms.createFormAction({}, form({ name: "Mine" }))).toMatchObject({
      message: "Only owners and admins can change forms.",
    });
    signIn(ws.owner.claims);
    expect(await forms.createFormAction({}, form({ name: "" }))).toMatchObject({
      errors: { name: "Name the form." },
    });
    expect(await forms.updateFormAction("not-an-id", {}, form({ name: "X" }))).toMatchObject({
      message: "This form no longer exists.",
    });
    expect(await db.sql`select 1 from forms where workspace_id = ${ws.id}`).toEqual([]);
    expect(await auditOf(ws.id)).toEqual([]);
  });

  test("a refusal from the domain (an unknown tag) rolls back and writes no row", async () => {
    const ws = await createWorkspace(db.sql);
    signIn(ws.owner.claims);
    await redirectOf(forms.createFormAction({}, form({ name: "F" })));
    const [{ id: formId }] = await db.sql`select id from forms where workspace_id = ${ws.id}`;
    const refused = await forms.addAutomationAction(
      formId,
      {},
      form({ action_type: "add_tag", tag_id: "00000000-0000-4000-8000-000000000000" }),
    );
    expect(refused).toMatchObject({ message: "That tag does not exist." });
    expect((await auditOf(ws.id)).map((r) => r.action)).toEqual(["form.created"]);
  });
});

describe("audit log: every member mutation writes one audit row (events)", () => {
  test("create, edit, delete: one row each, naming the event", async () => {
    const ws = await createWorkspace(db.sql);
    signIn(ws.owner.claims);
    const created = await redirectOf(events.createEventAction({}, form(EVENT)));
    const [{ id: eventId }] = await db.sql`select id from events where workspace_id = ${ws.id}`;
    expect(created).toBe(`/events/${eventId}`);
    expect(
      await redirectOf(events.updateEventAction(eventId, {}, form({ ...EVENT, name: "Launch party" }))),
    ).toBe(`/events/${eventId}?saved=1`);
    expect(await redirectOf(events.deleteEventAction({}, form({ eventId })))).toBe("/events?deleted=1");

    const rows = await auditOf(ws.id);
    expect(rows.map((r) => [r.action, r.target_type, r.target_id])).toEqual([
      ["event.created", "event", eventId],
      ["event.updated", "event", eventId],
      ["event.deleted", "event", eventId],
    ]);
    expect(rows[1].after).toMatchObject({ name: "Launch party" });
  });

  test("a member's refused change, an invalid form and a delete of nothing write no row", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await addMember(db.sql, ws.id, "member");
    signIn(member.claims);
    expect(await events.createEventAction({}, form(EVENT))).toMatchObject({
      message: "Only owners and admins can change events.",
    });
    signIn(ws.owner.claims);
    expect(await events.createEventAction({}, form({ ...EVENT, end: "2031-04-01T18:00" }))).toMatchObject({
      errors: { end: "The end must not be before the start." },
    });
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect(await redirectOf(events.deleteEventAction({}, form({ eventId: unknown })))).toBe(
      `/events/${unknown}?error=delete`,
    );
    expect(await db.sql`select 1 from events where workspace_id = ${ws.id}`).toEqual([]);
    expect(await auditOf(ws.id)).toEqual([]);
  });
});

describe("audit log: every member mutation writes one audit row (broadcasts)", () => {
  test("create, start and cancel: one row each; a control that no longer applies and a poll write none", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await addMember(db.sql, ws.id, "member");
    signIn(member.claims); // any member may send (spec: broadcasts are not Admin+)
    await redirectOf(broadcasts.createBroadcastAction({}, form({ subject: "Hello", body: "News" })));
    const [{ id: broadcastId }] = await db.sql`select id from broadcasts where workspace_id = ${ws.id}`;

    expect(await broadcasts.controlBroadcastAction(broadcastId, "start")).toMatchObject({
      data: { status: "sending" },
    });
    expect(await broadcasts.controlBroadcastAction(broadcastId, "resume")).toEqual({
      message: "The broadcast has moved on meanwhile; the page shows where it is.",
      code: "conflict",
    });
    expect(await broadcasts.broadcastProgressAction(broadcastId)).toHaveProperty("data");
    expect(await broadcasts.controlBroadcastAction(broadcastId, "cancel")).toMatchObject({
      data: { status: "cancelled" },
    });

    const rows = await auditOf(ws.id);
    expect(rows.map((r) => [r.action, r.actor_id, r.target_id])).toEqual([
      ["broadcast.created", member.id, broadcastId],
      ["broadcast.started", member.id, broadcastId],
      ["broadcast.cancelled", member.id, broadcastId],
    ]);
  });

  test("another workspace's broadcast is not found, and nothing is written for it", async () => {
    const ws = await createWorkspace(db.sql);
    const other = await createWorkspace(db.sql);
    signIn(other.owner.claims);
    await redirectOf(broadcasts.createBroadcastAction({}, form({ subject: "Theirs", body: "x" })));
    const [{ id: theirs }] = await db.sql`select id from broadcasts where workspace_id = ${other.id}`;
    signIn(ws.owner.claims);
    expect(await broadcasts.controlBroadcastAction(theirs, "start")).toEqual({
      message: "Broadcast not found.",
      code: "not_found",
    });
    expect(await broadcasts.controlBroadcastAction("nope", "start")).toEqual({
      message: "Broadcast not found.",
      code: "invalid",
    });
    const [row] = await db.sql`select status from broadcasts where id = ${theirs}`;
    expect(row.status).toBe("draft");
    expect(await auditOf(ws.id)).toEqual([]);
    expect((await auditOf(other.id)).map((r) => r.action)).toEqual(["broadcast.created"]);
  });
});
