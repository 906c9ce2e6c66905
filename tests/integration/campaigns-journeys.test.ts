import { describe, expect, test } from "vitest";
import { fireTrigger } from "@/lib/automations/fire-trigger";
import {
  createCampaignDraft,
  enrollContact,
  publishCampaign,
  updateCampaign,
  type CampaignDraftInput,
} from "@/lib/campaigns/campaigns";
import { runCampaignSweep } from "@/lib/campaigns/flows/run-campaign-sweep";
import { startBulkEnroll } from "@/lib/campaigns/segment-enrollment";
import { validateSteps } from "@/lib/campaigns/steps";
import { withService } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { saveSegment } from "@/lib/segments/save-segment";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createContact, createWorkspace } from "../helpers/factories";

/**
 * Campaign journeys (DESIGN section 9, "Campaigns"; docs/api.md, "Campaign steps";
 * docs/decisions.md, "Campaign steps that change a contact", "Campaign goals and exits at once",
 * "Campaign enrollment from a segment", "Moving enrollments to a new campaign version"): every
 * step type, branch condition and goal, exits at once, segment enrollment and moving enrollments,
 * each asserted on the database.
 */
const db = setupTestDatabase();
const sweep = () => runCampaignSweep();

const one = async <T>(rows: Promise<T[]>) => (await rows)[0];
const tagOf = (ws: string, name = `t-${Math.random()}`) =>
  one(
    db.sql<{ id: string }[]>`insert into tags (workspace_id, name) values (${ws}, ${name}) returning id`,
  ).then((r) => r.id);
const enrollmentOf = (id: string) =>
  one(
    db.sql`select status, current_step, due_at, exit_reason, version from campaign_enrollments where id = ${id}`,
  );
const runsOf = (id: string) =>
  db.sql`select step_id, outcome, detail from campaign_step_runs where enrollment_id = ${id} order by at, id`;

async function campaignOf(
  ws: string,
  draft: Partial<CampaignDraftInput> & { steps: unknown[] },
  publish = true,
) {
  return withService(async (tx) => {
    const c = await createCampaignDraft(tx, { workspaceId: ws, name: `c-${Math.random()}`, ...draft });
    return publish ? publishCampaign(tx, { workspaceId: ws, campaignId: c.id }) : c;
  });
}
const enroll = (ws: string, campaignId: string, contactId: string, eventId?: string) =>
  withService((tx) => enrollContact(tx, { workspaceId: ws, campaignId, contactId, eventId }));

async function refusal(ws: string, steps: unknown[], goals: unknown[] = []) {
  try {
    await withService((tx) => validateSteps(tx, ws, steps, goals));
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("not refused");
}

const wait = { id: "hold", type: "wait", duration: { days: 3 } };

describe("campaign step types", () => {
  test("join_topic joins through the consent rules with a ledger entry; leave_topic leaves; an unsubscribed contact joins nothing", async () => {
    const ws = await createWorkspace(db.sql);
    const [a] =
      await db.sql`insert into email_topics (workspace_id, key, name, default_on) values (${ws.id}, 'a', 'A', true) returning id`;
    const [b] =
      await db.sql`insert into email_topics (workspace_id, key, name) values (${ws.id}, 'b', 'B') returning id`;
    const subscribed = await createContact(db.sql, ws.id, { is_subscribed: true });
    const never = await createContact(db.sql, ws.id, { is_subscribed: false });
    const campaign = await campaignOf(ws.id, {
      steps: [
        { id: "join-b", type: "join_topic", topic_id: b.id },
        { id: "leave-a", type: "leave_topic", topic_id: a.id },
      ],
    });
    const e1 = await enroll(ws.id, campaign.id, subscribed.id);
    const e2 = await enroll(ws.id, campaign.id, never.id);
    await sweep();
    const topics =
      await db.sql`select topic_id, subscribed from contact_topics where contact_id = ${subscribed.id} order by topic_id`;
    expect(Object.fromEntries(topics.map((t) => [t.topic_id, t.subscribed]))).toEqual({
      [a.id]: false,
      [b.id]: true,
    });
    const ledger = await db.sql`select action, flow, topic_id from consent_events
                                where contact_id = ${subscribed.id} and flow like 'campaign%' order by created_at, flow`;
    expect(ledger).toEqual(
      expect.arrayContaining([
        { action: "subscribed", flow: "campaign_join_topic", topic_id: b.id },
        { action: "unsubscribed", flow: "campaign_leave_topic", topic_id: a.id },
      ]),
    );
    expect(
      await db.sql`select 1 from contact_topics where contact_id = ${never.id} and subscribed`,
    ).toHaveLength(0);
    expect((await runsOf(e2.id)).map((r) => `${r.step_id}:${r.outcome}`)).toContain("join-b:skipped");
    expect(await enrollmentOf(e1.id)).toMatchObject({ status: "completed" });
  });

  test("create_task makes one open task on the contact, assigned and due as the step says", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await addMember(db.sql, ws.id, "member");
    const c = await createContact(db.sql, ws.id, { first_name: "Ada" });
    const campaign = await campaignOf(ws.id, {
      steps: [
        {
          id: "call",
          type: "create_task",
          title: "Call {{first_name}}",
          due_in_days: 2,
          assignee_user_id: member.id,
        },
      ],
    });
    await enroll(ws.id, campaign.id, c.id);
    await sweep();
    await sweep();
    const tasks =
      await db.sql`select title, status, assigned_user_id, due_date - current_date as days from tasks where contact_id = ${c.id}`;
    expect(tasks).toEqual([{ title: "Call Ada", status: "open", assigned_user_id: member.id, days: 2 }]);
  });

  test("update_field follows spec 4.10: a changed value is written, an overwritten one gets the system note, a custom field too", async () => {
    const ws = await createWorkspace(db.sql);
    await db.sql`insert into custom_fields (workspace_id, key, label, field_type) values (${ws.id}, 'tier', 'Tier', 'text')`;
    const c = await createContact(db.sql, ws.id, { city: "Lyon", custom_fields: { tier: "bronze" } });
    const campaign = await campaignOf(ws.id, {
      steps: [
        { id: "city", type: "update_field", field: "city", value: "Paris" },
        { id: "tier", type: "update_field", custom_field: "tier", value: "gold" },
      ],
    });
    const e = await enroll(ws.id, campaign.id, c.id);
    await sweep();
    expect(await one(db.sql`select city, custom_fields from contacts where id = ${c.id}`)).toEqual({
      city: "Paris",
      custom_fields: { tier: "gold" },
    });
    const notes =
      await db.sql`select content_text as text, created_by from notes where contact_id = ${c.id} order by created_at`;
    expect(notes.map((n) => n.created_by)).toEqual([null, null]);
    expect(notes.map((n) => n.text).join("\n")).toMatch(
      /City: "Lyon" → "Paris"[\s\S]*Tier: "bronze" → "gold"/,
    );
    expect((await runsOf(e.id)).map((r) => r.outcome)).toEqual([
      "field_updated",
      "field_updated",
      "completed",
    ]);
  });

  test("send_webhook queues one campaign.step delivery per subscribed endpoint (or the one named), with a webhook-id per (enrollment, step, version)", async () => {
    const ws = await createWorkspace(db.sql);
    const endpoint = (types: string[]) =>
      one(db.sql<
        { id: string }[]
      >`insert into webhook_endpoints (workspace_id, url, event_types, secret_ciphertext)
                   values (${ws.id}, 'https://hooks.example.test/x', ${types}, 'x') returning id`);
    const subscribed = await endpoint(["campaign.step"]);
    const other = await endpoint(["contact.created"]);
    const c = await createContact(db.sql, ws.id);
    const campaign = await campaignOf(ws.id, {
      steps: [
        { id: "all", type: "send_webhook", label: "welcome-done" },
        { id: "named", type: "send_webhook", endpoint_id: other.id },
      ],
    });
    const e = await enroll(ws.id, campaign.id, c.id);
    await sweep();
    const rows = await db.sql`select endpoint_id, event_type, message_id, payload from webhook_deliveries
                              where workspace_id = ${ws.id} and event_type = 'campaign.step' order by payload->'data'->>'step_id'`;
    expect(rows.map((r) => [r.endpoint_id, r.payload.data.step_id])).toEqual([
      [subscribed.id, "all"],
      [other.id, "named"],
    ]);
    expect(rows[0].payload.data).toMatchObject({
      enrollment_id: e.id,
      label: "welcome-done",
      contact: { id: c.id },
    });
    expect(new Set(rows.map((r) => r.message_id)).size).toBe(2);
  });

  test("notify_member creates a notification for the member named, about the contact", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { first_name: "Ada" });
    const campaign = await campaignOf(ws.id, {
      steps: [{ id: "tell", type: "notify_member", title: "{{first_name}} finished", user_id: ws.owner.id }],
    });
    await enroll(ws.id, campaign.id, c.id);
    await sweep();
    const rows =
      await db.sql`select user_id, title, action_url from notifications where contact_id = ${c.id}`;
    expect(rows).toEqual([{ user_id: ws.owner.id, title: "Ada finished", action_url: `/contacts/${c.id}` }]);
  });

  test("wait before_event waits until the enrollment's event start minus the hours, and goes on at once when that has passed", async () => {
    const ws = await createWorkspace(db.sql);
    const soon = await one(db.sql<{ id: string }[]>`insert into events (workspace_id, name, start_time)
                           values (${ws.id}, 'Gala', now() + interval '3 days') returning id`);
    const past = await one(db.sql<{ id: string }[]>`insert into events (workspace_id, name, start_time)
                           values (${ws.id}, 'Old', now() + interval '1 hour') returning id`);
    const tag = await tagOf(ws.id);
    const campaign = await campaignOf(ws.id, {
      steps: [
        { id: "day-before", type: "wait", before_event: { hours: 24 } },
        { id: "tag", type: "add_tag", tag_id: tag },
      ],
    });
    const a = await createContact(db.sql, ws.id);
    const b = await createContact(db.sql, ws.id);
    const ea = await enroll(ws.id, campaign.id, a.id, soon.id);
    const eb = await enroll(ws.id, campaign.id, b.id, past.id);
    await sweep();
    const waiting = await enrollmentOf(ea.id);
    expect(waiting).toMatchObject({ status: "active", current_step: "day-before" });
    const [{ start }] = await db.sql`select start_time as start from events where id = ${soon.id}`;
    expect(waiting.due_at.getTime()).toBe(start.getTime() - 24 * 3600_000);
    expect(await enrollmentOf(eb.id)).toMatchObject({ status: "completed" });
    expect(await db.sql`select 1 from contact_tags where contact_id = ${b.id}`).toHaveLength(1);
  });

  test.each([
    [{ id: "t", type: "create_task", title: " " }, 'Step "t"'],
    [{ id: "f", type: "update_field", field: "city", value: "" }, 'Step "f"'],
    [
      { id: "f2", type: "update_field", custom_field: "nope", value: "x" },
      'Step "f2": no custom field "nope"',
    ],
    [
      { id: "w", type: "send_webhook", endpoint_id: "00000000-0000-4000-8000-000000000000" },
      'Step "w": no such webhook endpoint',
    ],
    [
      { id: "n", type: "notify_member", title: "Hi", user_id: "00000000-0000-4000-8000-000000000000" },
      'Step "n": no such member',
    ],
    [
      { id: "j", type: "join_topic", topic_id: "00000000-0000-4000-8000-000000000000" },
      'Step "j": no such topic',
    ],
    [
      { id: "e", type: "wait", before_event: { hours: 2, event_id: "00000000-0000-4000-8000-000000000000" } },
      'Step "e": no such event',
    ],
    [
      {
        id: "b",
        type: "branch",
        condition: { type: "purchased", product_id: "00000000-0000-4000-8000-000000000000" },
      },
      'Step "b": no such product',
    ],
  ])("an invalid step is refused naming it, and nothing is stored (%o)", async (step, message) => {
    const ws = await createWorkspace(db.sql);
    const error = await refusal(ws.id, [step]);
    expect(error.code).toBe("invalid");
    expect(error.message).toContain(message);
    await expect(
      withService((tx) => createCampaignDraft(tx, { workspaceId: ws.id, name: "x", steps: [step] })),
    ).rejects.toThrow(AppError);
    expect(await db.sql`select 1 from campaigns where workspace_id = ${ws.id}`).toHaveLength(0);
  });
});

describe("campaign branch conditions", () => {
  test("custom field, purchased, registered, attended and no-show branches read the contact's facts", async () => {
    const ws = await createWorkspace(db.sql);
    await db.sql`insert into custom_fields (workspace_id, key, label, field_type) values (${ws.id}, 'tier', 'Tier', 'text')`;
    const [product] =
      await db.sql`insert into products (workspace_id, name) values (${ws.id}, 'Course') returning id`;
    const [past] =
      await db.sql`insert into events (workspace_id, name, start_time) values (${ws.id}, 'Past', now() - interval '1 day') returning id`;
    const yes = await tagOf(ws.id);
    const conditions = [
      { type: "custom_field", key: "tier", op: "eq", value: "gold" },
      { type: "purchased", product_id: product.id },
      { type: "registered", event_id: past.id },
      { type: "attended", event_id: past.id },
      { type: "no_show", event_id: past.id },
    ];
    const campaigns = await Promise.all(
      conditions.map((condition) =>
        campaignOf(ws.id, {
          steps: [
            { id: "if", type: "branch", condition, else: "end" },
            { id: "yes", type: "add_tag", tag_id: yes },
          ],
        }),
      ),
    );
    const gold = await createContact(db.sql, ws.id, { custom_fields: { tier: "gold" } });
    const none = await createContact(db.sql, ws.id, { custom_fields: { tier: "bronze" } });
    await db.sql`insert into transactions (workspace_id, contact_id, product_id, amount_paid, currency)
                 values (${ws.id}, ${gold.id}, ${product.id}, 10, 'usd')`;
    await db.sql`insert into event_registrations (workspace_id, event_id, contact_id, amount_paid, status)
                 values (${ws.id}, ${past.id}, ${gold.id}, 0, 'registered'), (${ws.id}, ${past.id}, ${none.id}, 0, 'registered')`;
    await db.sql`update event_registrations set checked_in_at = now() where contact_id = ${gold.id}`;
    const outcome: Record<string, string[]> = {};
    for (const [i, campaign] of campaigns.entries()) {
      const a = await enroll(ws.id, campaign.id, gold.id);
      const b = await enroll(ws.id, campaign.id, none.id);
      await sweep();
      const detail = async (id: string) =>
        (await runsOf(id)).find((r) => r.outcome === "branched")!.detail as string;
      outcome[conditions[i].type] = [await detail(a.id), await detail(b.id)];
    }
    expect(outcome).toEqual({
      custom_field: ["then", "else"],
      purchased: ["then", "else"],
      registered: ["then", "then"],
      attended: ["then", "else"],
      no_show: ["else", "then"],
    });
  });
});

describe("campaign goals and exits at once", () => {
  async function waitingOn(goal: (ws: string) => Promise<Record<string, unknown>>) {
    const ws = await createWorkspace(db.sql);
    const goals = [await goal(ws.id)];
    const campaign = await campaignOf(ws.id, {
      goals,
      steps: [
        { id: "hello", type: "send_email", subject: "Hi", body: "Hello" },
        wait,
        { id: "later", type: "send_email", subject: "Again", body: "Hi" },
      ],
    });
    const c = await createContact(db.sql, ws.id, { is_subscribed: true });
    const e = await enroll(ws.id, campaign.id, c.id);
    await sweep();
    expect(await enrollmentOf(e.id)).toMatchObject({ status: "active", current_step: "hold" });
    return { ws: ws.id, c, e, goals };
  }

  test("a purchase of the goal's product completes the waiting enrollment in the purchase's own transaction, with no sweep", async () => {
    let product = "";
    const { ws, c, e } = await waitingOn(async (ws) => {
      product = (
        await one(
          db.sql<
            { id: string }[]
          >`insert into products (workspace_id, name) values (${ws}, 'P') returning id`,
        )
      ).id;
      return { type: "purchased", product_id: product };
    });
    await db.sql`insert into transactions (workspace_id, contact_id, product_id, amount_paid, currency)
                 values (${ws}, ${c.id}, ${product}, 5, 'usd')`;
    expect(await enrollmentOf(e.id)).toMatchObject({ status: "completed", due_at: null });
    expect((await runsOf(e.id)).at(-1)).toMatchObject({
      step_id: "hold",
      outcome: "completed",
      detail: "goal reached: purchased",
    });
  });

  test("a submission of the goal's form completes the waiting enrollment at once; a refunded purchase is no purchase", async () => {
    let form = "";
    const { ws, c, e } = await waitingOn(async (ws) => {
      form = (
        await one(
          db.sql<
            { id: string }[]
          >`insert into forms (workspace_id, name, require_verification) values (${ws}, 'F', false) returning id`,
        )
      ).id;
      return { type: "form_submitted", form_id: form };
    });
    await db.sql`insert into form_submissions (workspace_id, form_id, contact_id, payload) values (${ws}, ${form}, ${c.id}, '{}')`;
    expect(await enrollmentOf(e.id)).toMatchObject({ status: "completed" });
  });

  test("a goal tag added completes the enrollment at once, with no sweep", async () => {
    let tag = "";
    const { ws, c, e } = await waitingOn(async (ws) => {
      tag = await tagOf(ws);
      return { type: "tag_added", tag_id: tag };
    });
    await db.sql`insert into contact_tags (workspace_id, contact_id, tag_id) values (${ws}, ${c.id}, ${tag})`;
    expect(await enrollmentOf(e.id)).toMatchObject({ status: "completed" });
  });

  test("entering the goal segment completes the enrollment at the next sweep, before its wait ends", async () => {
    let tag = "";
    const { ws, c, e } = await waitingOn(async (ws) => {
      tag = await tagOf(ws);
      const segment = await withService((tx) =>
        saveSegment(tx, {
          workspaceId: ws,
          name: "Tagged",
          filter: {
            version: 1,
            root: { kind: "group", op: "and", not: false, conditions: [{ kind: "tag", tagIds: [tag] }] },
          },
        }),
      );
      if ("error" in segment) throw new Error("segment");
      return { type: "segment_entered", segment_id: segment.data.id };
    });
    await db.sql`insert into contact_tags (workspace_id, contact_id, tag_id) values (${ws}, ${c.id}, ${tag})`;
    await sweep();
    expect(await enrollmentOf(e.id)).toMatchObject({ status: "completed" });
    expect(await db.sql`select 1 from email_sends where campaign_enrollment_id = ${e.id}`).toHaveLength(1);
  });

  test.each(["bounce", "complaint"])(
    "a %s exits the waiting enrollment at once, in the suppression's transaction",
    async (reason) => {
      const { ws, c, e } = await waitingOn(async (ws) => ({ type: "tag_added", tag_id: await tagOf(ws) }));
      await db.sql`insert into contact_suppressions (workspace_id, contact_id, reason) values (${ws}, ${c.id}, ${reason})`;
      expect(await enrollmentOf(e.id)).toMatchObject({
        status: "exited",
        exit_reason: `${reason} suppression`,
        due_at: null,
      });
    },
  );

  test("leaving the topic the campaign sends to exits the enrollment at once", async () => {
    const ws = await createWorkspace(db.sql);
    const [news] =
      await db.sql`insert into email_topics (workspace_id, key, name) values (${ws.id}, 'news', 'News') returning id`;
    const [other] =
      await db.sql`insert into email_topics (workspace_id, key, name) values (${ws.id}, 'other', 'Other') returning id`;
    const c = await createContact(db.sql, ws.id, { is_subscribed: true });
    const campaign = await campaignOf(ws.id, {
      steps: [{ id: "hello", type: "send_email", subject: "Hi", body: "Hi", topic_id: news.id }, wait],
    });
    const e = await enroll(ws.id, campaign.id, c.id);
    await sweep();
    await db.sql`update contact_topics set subscribed = false where contact_id = ${c.id} and topic_id = ${other.id}`;
    expect(await enrollmentOf(e.id)).toMatchObject({ status: "active" });
    await db.sql`update contact_topics set subscribed = false where contact_id = ${c.id} and topic_id = ${news.id}`;
    expect(await enrollmentOf(e.id)).toMatchObject({
      status: "exited",
      exit_reason: "unsubscribed from the topic",
    });
  });
});

describe("campaign enrollment from a segment", () => {
  async function taggedSegment(ws: string) {
    const tag = await tagOf(ws);
    const segment = await withService((tx) =>
      saveSegment(tx, {
        workspaceId: ws,
        name: `s-${Math.random()}`,
        filter: {
          version: 1,
          root: { kind: "group", op: "and", not: false, conditions: [{ kind: "tag", tagIds: [tag] }] },
        },
      }),
    );
    if ("error" in segment) throw new Error("segment");
    return { tag, segmentId: segment.data.id };
  }
  const enrollments = (campaignId: string) =>
    db.sql`select contact_id, status from campaign_enrollments where campaign_id = ${campaignId} order by enrolled_at`;

  test("contacts entering the campaign's segment are enrolled once; those already inside are not; leaving and coming back enrolls again only when re-enrollment is allowed", async () => {
    const ws = await createWorkspace(db.sql);
    const { tag, segmentId } = await taggedSegment(ws.id);
    const before = await createContact(db.sql, ws.id);
    await db.sql`insert into contact_tags (workspace_id, contact_id, tag_id) values (${ws.id}, ${before.id}, ${tag})`;
    const campaign = await campaignOf(ws.id, {
      enroll_segment_id: segmentId,
      allow_reenrollment: false,
      steps: [{ id: "t", type: "create_task", title: "Hi" }],
    });
    const entrant = await createContact(db.sql, ws.id);
    await db.sql`insert into contact_tags (workspace_id, contact_id, tag_id) values (${ws.id}, ${entrant.id}, ${tag})`;
    await sweep();
    await sweep();
    expect(await enrollments(campaign.id)).toEqual([{ contact_id: entrant.id, status: "completed" }]);
    // leaves and comes back: re-enrollment is off, so no second enrollment
    await db.sql`delete from contact_tags where contact_id = ${entrant.id}`;
    await sweep();
    await db.sql`insert into contact_tags (workspace_id, contact_id, tag_id) values (${ws.id}, ${entrant.id}, ${tag})`;
    await sweep();
    expect(await enrollments(campaign.id)).toHaveLength(1);
    await withService((tx) =>
      updateCampaign(tx, { workspaceId: ws.id, campaignId: campaign.id, allow_reenrollment: true }),
    );
    await db.sql`delete from contact_tags where contact_id = ${entrant.id}`;
    await sweep();
    await db.sql`insert into contact_tags (workspace_id, contact_id, tag_id) values (${ws.id}, ${entrant.id}, ${tag})`;
    await sweep();
    expect((await enrollments(campaign.id)).map((r) => r.contact_id)).toEqual([entrant.id, entrant.id]);
  });

  test("enroll everyone in a segment now is set-based in chunks with progress, keeps one active enrollment per contact and the re-enrollment setting", async () => {
    const ws = await createWorkspace(db.sql);
    const { tag, segmentId } = await taggedSegment(ws.id);
    const contacts = await Promise.all(Array.from({ length: 7 }, () => createContact(db.sql, ws.id)));
    for (const c of contacts)
      await db.sql`insert into contact_tags (workspace_id, contact_id, tag_id) values (${ws.id}, ${c.id}, ${tag})`;
    const campaign = await campaignOf(ws.id, { allow_reenrollment: false, steps: [wait] });
    await enroll(ws.id, campaign.id, contacts[0].id); // active already
    await db.sql`insert into campaign_enrollments (workspace_id, campaign_id, contact_id, status)
                 values (${ws.id}, ${campaign.id}, ${contacts[1].id}, 'completed')`; // ended, and re-enrollment is off
    const started = await withService((tx) =>
      startBulkEnroll(tx, { workspaceId: ws.id, campaignId: campaign.id, segmentId }),
    );
    expect(started).toMatchObject({ total: 7, done: 0, finished_at: null });
    process.env.CAMPAIGN_BULK_CHUNK = "3";
    try {
      await sweep();
    } finally {
      delete process.env.CAMPAIGN_BULK_CHUNK;
    }
    const [progress] = await db.sql`select bulk_enroll from campaigns where id = ${campaign.id}`;
    expect(progress.bulk_enroll).toMatchObject({
      total: 7,
      done: 7,
      enrolled: 5,
      finished_at: expect.any(String),
    });
    const rows =
      await db.sql`select contact_id, status from campaign_enrollments where campaign_id = ${campaign.id}`;
    expect(rows.filter((r) => r.status === "active")).toHaveLength(6);
    expect(rows.filter((r) => r.contact_id === contacts[1].id)).toEqual([
      { contact_id: contacts[1].id, status: "completed" },
    ]);
  });

  test("an automation's enroll_campaign respects the campaign's re-enrollment setting", async () => {
    const ws = await createWorkspace(db.sql);
    const [form] =
      await db.sql`insert into forms (workspace_id, name, require_verification) values (${ws.id}, 'F', false) returning id`;
    const campaign = await campaignOf(ws.id, {
      allow_reenrollment: false,
      steps: [{ id: "t", type: "create_task", title: "x" }],
    });
    await db.sql`insert into automations (workspace_id, name, trigger_type, form_id, action_type, action_config)
                 values (${ws.id}, 'A', 'form_submitted', ${form.id}, 'enroll_campaign', ${db.sql.json({ campaign_id: campaign.id })})`;
    const c = await createContact(db.sql, ws.id);
    const fire = () =>
      withService((tx) =>
        fireTrigger(tx, { workspaceId: ws.id, trigger: "form_submitted", contactId: c.id, formId: form.id }),
      );
    await fire();
    await sweep(); // the enrollment completes
    await fire();
    expect(await db.sql`select status from campaign_enrollments where contact_id = ${c.id}`).toEqual([
      { status: "completed" },
    ]);
  });
});

describe("moving enrollments to a new campaign version", () => {
  test("publishing with move puts waiting enrollments on the new version by step id, keeps their due time, sends nothing twice; one on a removed wait keeps its version", async () => {
    const ws = await createWorkspace(db.sql);
    const c1 = await createContact(db.sql, ws.id, { is_subscribed: true });
    const c2 = await createContact(db.sql, ws.id, { is_subscribed: true });
    const hello = { id: "hello", type: "send_email", subject: "Hi", body: "Hello" };
    const campaign = await withService(async (tx) => {
      const draft = await createCampaignDraft(tx, {
        workspaceId: ws.id,
        name: "Moves",
        steps: [
          hello,
          { id: "hold", type: "wait", duration: { days: 2 } },
          { id: "other", type: "wait", duration: { days: 1 } },
        ],
      });
      return publishCampaign(tx, { workspaceId: ws.id, campaignId: draft.id });
    });
    const e1 = await enroll(ws.id, campaign.id, c1.id);
    await sweep();
    await db.sql`update campaign_enrollments set current_step = 'other' where id = ${e1.id}`; // stands on 'other'
    const e2 = await enroll(ws.id, campaign.id, c2.id);
    await sweep();
    const due = (await enrollmentOf(e2.id)).due_at.getTime();
    await withService(async (tx) => {
      await updateCampaign(tx, {
        workspaceId: ws.id,
        campaignId: campaign.id,
        steps: [
          hello,
          { id: "hold", type: "wait", duration: { days: 2 } },
          { id: "bye", type: "send_email", subject: "Bye", body: "Bye" },
        ],
      });
      await publishCampaign(tx, { workspaceId: ws.id, campaignId: campaign.id, moveEnrollments: true });
    });
    expect(await enrollmentOf(e2.id)).toMatchObject({ version: 2, current_step: "hold", status: "active" });
    expect((await enrollmentOf(e2.id)).due_at.getTime()).toBe(due);
    expect(await enrollmentOf(e1.id)).toMatchObject({ version: 1, current_step: "other" });
    expect((await runsOf(e2.id)).at(-1)).toMatchObject({
      step_id: "hold",
      outcome: "moved",
      detail: "from version 1",
    });
    await db.sql`update campaign_enrollments set due_at = now() where id = ${e2.id}`;
    await sweep();
    const sends =
      await db.sql`select campaign_step, campaign_version from email_sends where campaign_enrollment_id = ${e2.id} order by created_at`;
    expect(sends).toEqual([
      { campaign_step: "hello", campaign_version: 1 },
      { campaign_step: "bye", campaign_version: 2 },
    ]);
  });
});
