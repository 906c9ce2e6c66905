import { describe, expect, test } from "vitest";
import { DELETE as deleteSegmentRoute } from "@/app/api/v1/segments/[id]/route";
import { fireTrigger } from "@/lib/automations/fire-trigger";
import { createFormAutomation } from "@/lib/automations/create-form-automation";
import { withService, withUser } from "@/lib/db/doors";
import { deleteSegment } from "@/lib/segments/delete-segment";
import { apiKeyFor, callV1 } from "../helpers/api-v1";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace, type TestWorkspace } from "../helpers/factories";
import { createForm } from "../helpers/forms";

/**
 * An automation that keeps to a segment (docs/decisions.md, "Segments"): its action runs only for
 * contacts in the segment when it fires, other runs are logged 'skipped'; the segment is one of
 * the automation's own workspace, and one in use cannot be deleted.
 */
const db = setupTestDatabase();

const byTag = (tagId: string) => ({
  version: 1,
  root: {
    kind: "group",
    op: "and",
    not: false,
    conditions: [{ kind: "tag", not: false, match: "any", tagIds: [tagId] }],
  },
});

async function arrange(ws: TestWorkspace) {
  const form = await createForm(db.sql, ws.id);
  const [vip] = await db.sql`insert into tags (workspace_id, name) values (${ws.id}, 'VIP') returning id`;
  const [segment] = await db.sql`
    insert into segments (workspace_id, name, filter) values (${ws.id}, 'VIPs', ${db.sql.json(byTag(vip.id))})
    returning id`;
  const automation = await withUser(ws.owner.claims, (tx) =>
    createFormAutomation(tx, {
      workspaceId: ws.id,
      formId: form.id,
      action: { action_type: "create_task", task_title: "Call the VIP", due_in_days: 1 },
      segmentId: segment.id,
    }),
  );
  if ("error" in automation) throw automation.error;
  return {
    formId: form.id as string,
    vipId: vip.id as string,
    segmentId: segment.id as string,
    automationId: automation.data.id,
  };
}

const fire = (ws: TestWorkspace, formId: string, contactId: string) =>
  withService((tx) => fireTrigger(tx, { workspaceId: ws.id, trigger: "form_submitted", formId, contactId }));

const runsOf = (automationId: string) =>
  db.sql`select contact_id, status, payload from automation_runs where automation_id = ${automationId} order by created_at`;
const tasksOf = (contactId: string) => db.sql`select title from tasks where contact_id = ${contactId}`;

describe("automations keep to a segment (docs/decisions.md, 'Segments')", () => {
  test("the action runs for a contact in the segment; one outside gets a 'skipped' run and no action", async () => {
    const ws = await createWorkspace(db.sql);
    const { formId, vipId, segmentId, automationId } = await arrange(ws);
    const [row] = await db.sql`select segment_id, name from automations where id = ${automationId}`;
    expect(row).toEqual({ segment_id: segmentId, name: "Create task “Call the VIP” for segment “VIPs”" });
    const vip = await createContact(db.sql, ws.id);
    await db.sql`insert into contact_tags (workspace_id, contact_id, tag_id) values (${ws.id}, ${vip.id}, ${vipId})`;
    const plain = await createContact(db.sql, ws.id);

    expect(await fire(ws, formId, vip.id)).toEqual({ ran: 1, failed: 0, skipped: 0 });
    expect(await fire(ws, formId, plain.id)).toEqual({ ran: 0, failed: 0, skipped: 1 });
    expect(await tasksOf(vip.id)).toEqual([{ title: "Call the VIP" }]);
    expect(await tasksOf(plain.id)).toEqual([]);
    const runs = await runsOf(automationId);
    expect(runs.map((r) => [r.contact_id, r.status])).toEqual([
      [vip.id, "succeeded"],
      [plain.id, "skipped"],
    ]);
    expect(runs[1].payload).toMatchObject({ skipped: "not_in_segment", segment_id: segmentId });
  });

  test("the segment is read when the automation fires: a changed filter changes who gets the action", async () => {
    const ws = await createWorkspace(db.sql);
    const { formId, segmentId, automationId } = await arrange(ws);
    const contact = await createContact(db.sql, ws.id);
    expect((await fire(ws, formId, contact.id)).skipped).toBe(1);
    const everyone = { version: 1, root: { kind: "group", op: "and", not: false, conditions: [] } };
    await db.sql`update segments set filter = ${db.sql.json(everyone)} where id = ${segmentId}`;
    expect((await fire(ws, formId, contact.id)).ran).toBe(1);
    expect((await runsOf(automationId)).map((r) => r.status)).toEqual(["skipped", "succeeded"]);
    // a stored filter that no longer parses reaches no one
    await db.sql`update segments set filter = '{"version": 1, "root": {"kind": "shoe_size"}}' where id = ${segmentId}`;
    expect((await fire(ws, formId, contact.id)).skipped).toBe(1);
    expect(await tasksOf(contact.id)).toHaveLength(1);
  });

  test("attack: another workspace's segment cannot be attached, by the app or by a direct write", async () => {
    const victim = await createWorkspace(db.sql);
    const attacker = await createWorkspace(db.sql);
    const { segmentId } = await arrange(victim);
    const form = await createForm(db.sql, attacker.id);
    const result = await withUser(attacker.owner.claims, (tx) =>
      createFormAutomation(tx, {
        workspaceId: attacker.id,
        formId: form.id,
        action: { action_type: "create_task", task_title: "Spy", due_in_days: 1 },
        segmentId,
      }),
    );
    expect("error" in result && result.error.code).toBe("not_found");
    await expect(
      withUser(
        attacker.owner.claims,
        (tx) =>
          tx`insert into public.automations (workspace_id, name, trigger_type, form_id, action_type, segment_id)
           values (${attacker.id}, 'Spy', 'form_submitted', ${form.id}, 'create_task', ${segmentId})`,
      ),
    ).rejects.toThrow(/foreign key/);
    expect(await db.sql`select 1 from automations where workspace_id = ${attacker.id}`).toHaveLength(0);
  });

  test("a segment an automation uses cannot be deleted (dashboard, REST, a member's direct delete); the workspace's deletion still cascades", async () => {
    const ws = await createWorkspace(db.sql);
    const { segmentId, automationId } = await arrange(ws);
    const refused = await withUser(ws.owner.claims, (tx) =>
      deleteSegment(tx, { workspaceId: ws.id, segmentId }),
    );
    expect("error" in refused && refused.error.code).toBe("conflict");
    const key = await apiKeyFor(db.sql, ws.id, ["contacts:write"]);
    const res = await callV1(deleteSegmentRoute, "DELETE", "/api/v1/segments/{id}", {
      key: key.key,
      params: { id: segmentId },
    });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("conflict");
    await expect(
      withUser(ws.owner.claims, (tx) => tx`delete from public.segments where id = ${segmentId}`),
    ).rejects.toThrow(/foreign key/);
    expect(await db.sql`select 1 from segments where id = ${segmentId}`).toHaveLength(1);

    await db.sql`delete from workspaces where id = ${ws.id}`;
    expect(await db.sql`select 1 from automations where id = ${automationId}`).toHaveLength(0);
    expect(await db.sql`select 1 from segments where id = ${segmentId}`).toHaveLength(0);
  });
});
