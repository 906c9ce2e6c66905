import { describe, expect, test } from "vitest";
import { withService, withUser } from "@/lib/db/doors";
import { createBroadcast, previewBroadcast } from "@/lib/email/broadcasts";
import { controlBroadcast } from "@/lib/email/control-broadcast";
import { scheduleBroadcast, unscheduleBroadcast } from "@/lib/email/schedule-broadcast";
import { setupTestDatabase } from "../helpers/db";
import { createWorkspace, type TestWorkspace } from "../helpers/factories";
import { jobsOf } from "../helpers/jobs";
import { waitFor } from "../helpers/wait-for";
import { setupWorkers } from "../helpers/workers";

const db = setupTestDatabase();
const workers = setupWorkers(db);

const AUDIENCE = 30; // every third contact has not opted in
const ELIGIBLE = 20;

async function draftBroadcast(opts: { markdown?: boolean } = {}) {
  const ws = await createWorkspace(db.sql);
  await db.sql`update workspaces set postal_address = '1 Main Street, Springfield' where id = ${ws.id}`;
  await db.sql`
    insert into contacts (workspace_id, email, first_name, is_subscribed)
    select ${ws.id}, 'c' || g || '@example.test', 'Ada' || g, g % 3 <> 0
    from generate_series(1, ${AUDIENCE}) g`;
  const { id } = await withUser(ws.owner.claims, (tx) =>
    createBroadcast(tx, {
      workspaceId: ws.id,
      createdBy: ws.owner.id,
      subject: "Later",
      body: 'Hi {{first_name | "friend"}}',
      format: opts.markdown === false ? "text" : "markdown",
      audience: {},
    }),
  );
  return { ws, broadcastId: id };
}

const schedule = (ws: TestWorkspace, broadcastId: string, at: Date) =>
  withService((tx) => scheduleBroadcast(tx, { workspaceId: ws.id, broadcastId, at }));

const sendsOf = async (broadcastId: string) =>
  (
    await db.sql`select count(*)::int as n, count(distinct contact_id)::int as contacts,
                        count(*) filter (where status = 'outbox')::int as delivered,
                        min(created_at) as first
                 from email_sends where broadcast_id = ${broadcastId}`
  )[0];

const broadcastOf = async (broadcastId: string) =>
  (await db.sql`select status, scheduled_at from broadcasts where id = ${broadcastId}`)[0];

const broadcastJobs = async (ws: TestWorkspace) =>
  (await jobsOf(db.sql, ws.id)).filter((j) => j.name === "broadcast");

describe("scheduled broadcasts (the job engine's delayed start)", () => {
  test("a scheduled broadcast sends once, at its time, after a worker restart in between", async () => {
    const { ws, broadcastId } = await draftBroadcast();
    const first = await workers.inProcess(["broadcast"]);
    const at = new Date(Date.now() + 6000);
    expect(await schedule(ws, broadcastId, at)).toBe(true);
    const scheduled = await broadcastOf(broadcastId);
    expect(scheduled.status).toBe("scheduled");
    await new Promise((resolve) => setTimeout(resolve, 1000)); // it polls, finds nothing due
    await first.stop(1000);
    expect(Date.now()).toBeLessThan(at.getTime()); // the restart falls before the time
    expect((await sendsOf(broadcastId)).n).toBe(0); // not before its time

    await workers.inProcess(["broadcast"]); // the restart
    await waitFor(
      async () => (await broadcastOf(broadcastId)).status === "sent",
      "the broadcast sent",
      30_000,
    );
    const sends = await sendsOf(broadcastId);
    expect(sends).toMatchObject({ n: AUDIENCE, contacts: AUDIENCE, delivered: ELIGIBLE });
    expect(new Date(sends.first).getTime()).toBeGreaterThanOrEqual(
      new Date(scheduled.scheduled_at).getTime(),
    );
    await waitFor(
      async () => (await broadcastJobs(ws)).every((j) => j.state === "completed"),
      "the job done",
      10_000,
    );
    expect((await broadcastJobs(ws)).map((j) => j.state)).toEqual(["completed"]); // one job, run once
    // eligibility was read at send time: the merge tags were filled per recipient
    const [one] =
      await db.sql`select html from email_sends where broadcast_id = ${broadcastId} and to_email = 'c1@example.test'`;
    expect(one.html).toContain("Hi Ada1");
  }, 60_000);

  test("a reschedule moves the send: the first time's job finds nothing to start, the broadcast goes once at the new time", async () => {
    const { ws, broadcastId } = await draftBroadcast();
    expect(await schedule(ws, broadcastId, new Date(Date.now() + 1500))).toBe(true);
    const later = new Date(Date.now() + 4500);
    expect(await schedule(ws, broadcastId, later)).toBe(true);
    await workers.inProcess(["broadcast"]);
    await waitFor(
      async () => (await broadcastOf(broadcastId)).status === "sent",
      "the broadcast sent",
      30_000,
    );
    const sends = await sendsOf(broadcastId);
    expect(sends).toMatchObject({ n: AUDIENCE, contacts: AUDIENCE, delivered: ELIGIBLE });
    expect(new Date(sends.first).getTime()).toBeGreaterThanOrEqual(Math.floor(later.getTime() / 1000) * 1000);
    await waitFor(
      async () => (await broadcastJobs(ws)).every((j) => j.state === "completed"),
      "both jobs done",
      10_000,
    );
    expect(await broadcastJobs(ws)).toHaveLength(2);
  }, 60_000);

  test("unscheduled and cancelled broadcasts are not sent when their job's time comes", async () => {
    const a = await draftBroadcast();
    const b = await draftBroadcast();
    const soon = new Date(Date.now() + 1500);
    expect(await schedule(a.ws, a.broadcastId, soon)).toBe(true);
    expect(await schedule(b.ws, b.broadcastId, soon)).toBe(true);
    expect(
      await withService((tx) =>
        unscheduleBroadcast(tx, { workspaceId: a.ws.id, broadcastId: a.broadcastId }),
      ),
    ).toBe(true);
    expect(
      await withService((tx) =>
        controlBroadcast(tx, { workspaceId: b.ws.id, broadcastId: b.broadcastId, control: "cancel" }),
      ),
    ).toBe(true);
    await workers.inProcess(["broadcast"]);
    await waitFor(
      async () =>
        [...(await broadcastJobs(a.ws)), ...(await broadcastJobs(b.ws))].every(
          (j) => j.state === "completed",
        ),
      "both jobs ran",
      30_000,
    );
    expect(await broadcastOf(a.broadcastId)).toEqual({ status: "draft", scheduled_at: null });
    expect((await broadcastOf(b.broadcastId)).status).toBe("cancelled");
    expect((await sendsOf(a.broadcastId)).n).toBe(0);
    expect((await sendsOf(b.broadcastId)).n).toBe(0);
  }, 60_000);

  test("scheduling needs a postal address for a branded broadcast, a time in the future, and a draft; another workspace's broadcast is not reached", async () => {
    const { ws, broadcastId } = await draftBroadcast();
    await db.sql`update workspaces set postal_address = null where id = ${ws.id}`;
    await expect(schedule(ws, broadcastId, new Date(Date.now() + 60_000))).rejects.toMatchObject({
      code: "invalid",
    });
    expect((await broadcastOf(broadcastId)).status).toBe("draft");
    expect(await broadcastJobs(ws)).toHaveLength(0);

    const other = await draftBroadcast();
    expect(await schedule(ws, other.broadcastId, new Date(Date.now() + 60_000))).toBe(false);
    expect((await broadcastOf(other.broadcastId)).status).toBe("draft");

    await db.sql`update broadcasts set status = 'sent' where id = ${other.broadcastId}`;
    expect(await schedule(other.ws, other.broadcastId, new Date(Date.now() + 60_000))).toBe(false);
  });

  test("the skip preview shown when scheduling counts the 8.3 reasons; a contact who unsubscribes before the time is skipped at send time", async () => {
    const { ws, broadcastId } = await draftBroadcast({ markdown: false });
    const preview = await withUser(ws.owner.claims, (tx) =>
      previewBroadcast(tx, {
        workspaceId: ws.id,
        audience: { tagIds: [], tagMode: "any", excludeTagIds: [], source: undefined },
      }),
    );
    expect(preview).toEqual({
      total: AUDIENCE,
      eligible: ELIGIBLE,
      skipped: [{ reason: "not opted in", count: AUDIENCE - ELIGIBLE }],
    });
    expect(await schedule(ws, broadcastId, new Date(Date.now() + 1500))).toBe(true);
    await db.sql`update contacts set unsubscribed_at = now() where workspace_id = ${ws.id} and email = 'c1@example.test'`;
    await workers.inProcess(["broadcast"]);
    await waitFor(
      async () => (await broadcastOf(broadcastId)).status === "sent",
      "the broadcast sent",
      30_000,
    );
    const [row] =
      await db.sql`select status, skip_reason from email_sends where broadcast_id = ${broadcastId} and to_email = 'c1@example.test'`;
    expect(row).toEqual({ status: "skipped", skip_reason: "unsubscribed" });
    expect((await sendsOf(broadcastId)).delivered).toBe(ELIGIBLE - 1);
  }, 60_000);
});
