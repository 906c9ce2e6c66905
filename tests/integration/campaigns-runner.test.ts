import { describe, expect, test } from "vitest";
import {
  createCampaignDraft,
  enrollContact,
  publishCampaign,
  updateCampaign,
} from "@/lib/campaigns/campaigns";
import { runCampaignSweep } from "@/lib/campaigns/flows/run-campaign-sweep";
import { waitUntil } from "@/lib/campaigns/run-enrollments";
import { fireTrigger } from "@/lib/automations/fire-trigger";
import { withService } from "@/lib/db/doors";
import type { EbOrder } from "@/lib/events/eventbrite/types";
import { handleOrderRefunded } from "@/lib/events/ticketing/handle-order-refunded";
import { AppError } from "@/lib/errors/app-error";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace } from "../helpers/factories";

/**
 * Campaigns that run (DESIGN section 9, "Campaigns"; docs/decisions.md, "Campaign waits as a
 * due-time index"): the runner sends, waits, branches, stops at the goal and at an ineligible
 * contact, exactly once per (enrollment, step, version).
 */
const db = setupTestDatabase();

const tagOf = async (workspaceId: string, name: string) =>
  (await db.sql`insert into tags (workspace_id, name) values (${workspaceId}, ${name}) returning id`)[0]
    .id as string;

/** A published welcome series: send, wait 2 days, branch on a click of the first, send one of two. */
async function welcomeSeries(workspaceId: string, extra: { goals?: unknown[] } = {}) {
  const doneTag = await tagOf(workspaceId, `series-${Math.random()}`);
  return withService(async (tx) => {
    const campaign = await createCampaignDraft(tx, {
      workspaceId,
      name: "Welcome",
      steps: [
        {
          id: "welcome",
          type: "send_email",
          subject: 'Welcome, {{first_name|"friend"}}',
          body: "Hello!\n\n[Start here](https://example.test/start)",
        },
        { id: "pause", type: "wait", duration: { days: 2 } },
        { id: "clicked", type: "branch", condition: { type: "clicked", step: "welcome" }, else: "nudge" },
        { id: "tips", type: "send_email", subject: "Tips", body: "Glad you came by.", next: "done" },
        { id: "nudge", type: "send_email", subject: "Did you see this?", body: "Have a look." },
        { id: "done", type: "add_tag", tag_id: doneTag },
      ],
      ...extra,
    });
    return publishCampaign(tx, { workspaceId, campaignId: campaign.id });
  });
}

const sweep = () => runCampaignSweep();

const enrollmentOf = async (id: string) =>
  (
    await db.sql`select status, current_step, due_at, exit_reason, version from campaign_enrollments where id = ${id}`
  )[0];

const sendsOf = (enrollmentId: string) =>
  db.sql`select campaign_step, subject, status, kind from email_sends
         where campaign_enrollment_id = ${enrollmentId} order by created_at, campaign_step`;

/** The wait is over: its due time moved to now (the clock moved two days on), if it still waits. */
const endWait = (id: string) =>
  db.sql`update campaign_enrollments set due_at = now() where id = ${id} and status = 'active'`;

async function enroll(workspaceId: string, campaignId: string, contactId: string) {
  return withService((tx) => enrollContact(tx, { workspaceId, campaignId, contactId }));
}

describe("campaigns: the runner", () => {
  test("a welcome series sends the first email after enrollment, waits, branches on a click and sends the second", async () => {
    const ws = await createWorkspace(db.sql);
    const campaign = await welcomeSeries(ws.id);
    const clicker = await createContact(db.sql, ws.id, { is_subscribed: true, first_name: "Ada" });
    const idle = await createContact(db.sql, ws.id, { is_subscribed: true });
    const a = await enroll(ws.id, campaign.id, clicker.id);
    const b = await enroll(ws.id, campaign.id, idle.id);
    expect(a.status).toBe("active");

    await sweep();
    const first = await sendsOf(a.id);
    expect(first).toEqual([
      { campaign_step: "welcome", subject: "Welcome, Ada", status: "outbox", kind: "marketing" },
    ]);
    expect((await sendsOf(b.id))[0].subject).toBe("Welcome, friend");
    const waiting = await enrollmentOf(a.id);
    expect(waiting).toMatchObject({ status: "active", current_step: "pause", version: 1 });
    expect(waiting.due_at.getTime()).toBeGreaterThan(Date.now() + 47 * 3600_000);

    // nothing more happens before the wait ends
    await sweep();
    expect(await sendsOf(a.id)).toHaveLength(1);

    // a person's click on the first email (a machine's click on the other's counts for nothing)
    const [sendA] = await db.sql`select id from email_sends where campaign_enrollment_id = ${a.id}`;
    const [sendB] = await db.sql`select id from email_sends where campaign_enrollment_id = ${b.id}`;
    await db.sql`insert into email_events (workspace_id, email_send_id, type, occurred_at, is_machine)
                 values (${ws.id}, ${sendA.id}, 'clicked', now(), false),
                        (${ws.id}, ${sendB.id}, 'clicked', now(), true)`;
    await endWait(a.id);
    await endWait(b.id);
    await sweep();

    expect((await sendsOf(a.id)).map((s) => s.campaign_step)).toEqual(["welcome", "tips"]);
    expect((await sendsOf(b.id)).map((s) => s.campaign_step)).toEqual(["welcome", "nudge"]);
    expect(await enrollmentOf(a.id)).toMatchObject({ status: "completed", due_at: null });
    expect(await enrollmentOf(b.id)).toMatchObject({ status: "completed", due_at: null });
    const steps =
      await db.sql`select step_id, outcome, detail from campaign_step_runs where enrollment_id = ${a.id} order by at, id`;
    expect(steps.map((s) => `${s.step_id}:${s.outcome}`)).toEqual(
      expect.arrayContaining([
        "welcome:sent",
        "pause:waiting",
        "clicked:branched",
        "tips:sent",
        "done:tagged",
      ]),
    );
  });

  test("the goal completes the enrollment wherever it stands, during a wait", async () => {
    const ws = await createWorkspace(db.sql);
    const goal = await tagOf(ws.id, "customer");
    const campaign = await welcomeSeries(ws.id, { goals: [{ type: "tag_added", tag_id: goal }] });
    const c = await createContact(db.sql, ws.id, { is_subscribed: true });
    const e = await enroll(ws.id, campaign.id, c.id);
    await sweep();
    expect(await enrollmentOf(e.id)).toMatchObject({ status: "active", current_step: "pause" });

    await db.sql`insert into contact_tags (workspace_id, contact_id, tag_id) values (${ws.id}, ${c.id}, ${goal})`;
    await sweep(); // before the wait ends
    expect(await enrollmentOf(e.id)).toMatchObject({ status: "completed", due_at: null });
    await endWait(e.id);
    await sweep();
    expect(await sendsOf(e.id)).toHaveLength(1);
  });

  test.each([
    ["unsubscribe", "unsubscribe suppression"],
    ["bounce", "bounce suppression"],
    ["complaint", "complaint suppression"],
  ])(
    "a contact with a %s suppression gets no further step: the enrollment exits with the reason",
    async (reason, exit) => {
      const ws = await createWorkspace(db.sql);
      const campaign = await welcomeSeries(ws.id);
      const c = await createContact(db.sql, ws.id, { is_subscribed: true });
      const e = await enroll(ws.id, campaign.id, c.id);
      await sweep();
      await db.sql`insert into contact_suppressions (workspace_id, contact_id, reason) values (${ws.id}, ${c.id}, ${reason})`;
      await endWait(e.id);
      await sweep();
      expect(await sendsOf(e.id)).toHaveLength(1);
      expect(await enrollmentOf(e.id)).toMatchObject({ status: "exited", exit_reason: exit, due_at: null });
    },
  );

  test("a contact who unsubscribed from the send step's topic exits before the email", async () => {
    const ws = await createWorkspace(db.sql);
    const [topic] =
      await db.sql`insert into email_topics (workspace_id, key, name) values (${ws.id}, 'news', 'News') returning id`;
    const c = await createContact(db.sql, ws.id, { is_subscribed: true });
    await db.sql`insert into contact_topics (workspace_id, contact_id, topic_id, subscribed) values (${ws.id}, ${c.id}, ${topic.id}, false)
                 on conflict (contact_id, topic_id) do update set subscribed = false`;
    const campaign = await withService(async (tx) => {
      const draft = await createCampaignDraft(tx, {
        workspaceId: ws.id,
        name: "News",
        steps: [{ id: "news", type: "send_email", subject: "News", body: "Hi", topic_id: topic.id }],
      });
      return publishCampaign(tx, { workspaceId: ws.id, campaignId: draft.id });
    });
    const e = await enroll(ws.id, campaign.id, c.id);
    await sweep();
    expect(await sendsOf(e.id)).toHaveLength(0);
    expect(await enrollmentOf(e.id)).toMatchObject({
      status: "exited",
      exit_reason: "unsubscribed from the topic",
    });
  });

  test("pause stops every step; resume continues without a second send; archive cancels the active enrollments", async () => {
    const ws = await createWorkspace(db.sql);
    const campaign = await welcomeSeries(ws.id);
    const c = await createContact(db.sql, ws.id, { is_subscribed: true });
    const e = await enroll(ws.id, campaign.id, c.id);
    await sweep();
    const input = { workspaceId: ws.id, campaignId: campaign.id };
    await withService((tx) => updateCampaign(tx, { ...input, status: "paused" }));
    await endWait(e.id);
    await sweep();
    expect(await sendsOf(e.id)).toHaveLength(1);
    expect(await enrollmentOf(e.id)).toMatchObject({ status: "active", current_step: "pause" });

    await withService((tx) => updateCampaign(tx, { ...input, status: "active" }));
    await sweep();
    expect((await sendsOf(e.id)).map((s) => s.campaign_step)).toEqual(["welcome", "nudge"]);

    const other = await createContact(db.sql, ws.id, { is_subscribed: true });
    const f = await enroll(ws.id, campaign.id, other.id);
    await withService((tx) => updateCampaign(tx, { ...input, status: "archived" }));
    expect(await enrollmentOf(f.id)).toMatchObject({ status: "cancelled", due_at: null });
    await sweep();
    expect(await sendsOf(f.id)).toHaveLength(0);
  });

  test("publishing makes a new version; an enrollment already inside keeps its version", async () => {
    const ws = await createWorkspace(db.sql);
    const campaign = await welcomeSeries(ws.id);
    const c = await createContact(db.sql, ws.id, { is_subscribed: true });
    const e = await enroll(ws.id, campaign.id, c.id);
    await sweep();
    const input = { workspaceId: ws.id, campaignId: campaign.id };
    const republished = await withService(async (tx) => {
      await updateCampaign(tx, {
        ...input,
        steps: [{ id: "only", type: "send_email", subject: "Version two", body: "Hi" }],
      });
      return publishCampaign(tx, input);
    });
    expect(republished.published_version).toBe(2);
    const later = await createContact(db.sql, ws.id, { is_subscribed: true });
    const f = await enroll(ws.id, campaign.id, later.id);
    await endWait(e.id);
    await sweep();
    expect(await enrollmentOf(e.id)).toMatchObject({ version: 1, status: "completed" });
    expect((await sendsOf(e.id)).map((s) => s.campaign_step)).toEqual(["welcome", "nudge"]);
    expect(await enrollmentOf(f.id)).toMatchObject({ version: 2, status: "completed" });
    expect((await sendsOf(f.id)).map((s) => s.subject)).toEqual(["Version two"]);
  });

  test("an automation's enroll_campaign (spec 6.2) enrolls a contact that then runs: one enrolled before the campaign was published starts at publication", async () => {
    const ws = await createWorkspace(db.sql);
    const early = await createContact(db.sql, ws.id, { is_subscribed: true });
    const late = await createContact(db.sql, ws.id, { is_subscribed: true });
    const draft = await withService((tx) =>
      createCampaignDraft(tx, {
        workspaceId: ws.id,
        name: "From a form",
        steps: [{ id: "hello", type: "send_email", subject: "Hello", body: "Hi" }],
      }),
    );
    await db.sql`insert into automations (workspace_id, name, trigger_type, action_type, action_config)
                 values (${ws.id}, 'Enroll', 'form_submitted', 'enroll_campaign', ${db.sql.json({ campaign_id: draft.id })})`;
    const submit = (contactId: string) =>
      withService((tx) => fireTrigger(tx, { workspaceId: ws.id, trigger: "form_submitted", contactId }));
    expect(await submit(early.id)).toMatchObject({ ran: 1, failed: 0 });
    const [row] =
      await db.sql`select id, version, due_at from campaign_enrollments where contact_id = ${early.id}`;
    expect(row).toMatchObject({ version: null, due_at: null });
    await sweep();
    expect(await sendsOf(row.id)).toHaveLength(0); // nothing to run before a version exists

    await withService((tx) => publishCampaign(tx, { workspaceId: ws.id, campaignId: draft.id }));
    await submit(late.id);
    const [lateRow] = await db.sql`select id from campaign_enrollments where contact_id = ${late.id}`;
    await sweep();
    for (const id of [row.id, lateRow.id]) {
      expect((await sendsOf(id)).map((s) => s.subject)).toEqual(["Hello"]);
      expect(await enrollmentOf(id)).toMatchObject({ status: "completed", version: 1 });
    }
  });

  test("order.refunded (spec 3.2) cancels the event's running enrollment: it gets no further step", async () => {
    const ws = await createWorkspace(db.sql);
    const campaign = await welcomeSeries(ws.id);
    const c = await createContact(db.sql, ws.id, { is_subscribed: true });
    const [event] = await db.sql`insert into events (workspace_id, name, start_time, timezone)
                                 values (${ws.id}, 'Gala', now() + interval '7 days', 'UTC') returning id`;
    await db.sql`insert into event_registrations (workspace_id, event_id, contact_id, status, external_attendee_id)
                 values (${ws.id}, ${event.id}, ${c.id}, 'registered', 'att-1')`;
    const [e] =
      await db.sql`insert into campaign_enrollments (workspace_id, campaign_id, contact_id, event_id)
                             values (${ws.id}, ${campaign.id}, ${c.id}, ${event.id}) returning id`;
    await sweep();
    expect(await sendsOf(e.id)).toHaveLength(1);
    const order = {
      id: "o-1",
      status: "refunded",
      attendees: [{ id: "att-1", refunded: true }],
    } as unknown as EbOrder;
    const refunded = await withService((tx) => handleOrderRefunded(tx, { workspaceId: ws.id, order }));
    expect(refunded.enrollmentsCancelled).toBe(1);
    await endWait(e.id);
    await sweep();
    expect(await enrollmentOf(e.id)).toMatchObject({ status: "cancelled" });
    expect(await sendsOf(e.id)).toHaveLength(1);
  });

  test("an enrollment whose step fails exits with the error on its step, and the rest of the batch continues", async () => {
    const ws = await createWorkspace(db.sql);
    const good = await welcomeSeries(ws.id);
    const [broken] = await db.sql`insert into campaigns (workspace_id, name, status, published_version)
                                  values (${ws.id}, 'Broken', 'active', 1) returning id`;
    // a version no publication could write (a duration the database cannot add)
    await db.sql`insert into campaign_versions (workspace_id, campaign_id, version, steps)
                 values (${ws.id}, ${broken.id}, 1, ${db.sql.json([{ id: "w", type: "wait", duration: { days: "x" } }])})`;
    const a = await createContact(db.sql, ws.id, { is_subscribed: true });
    const b = await createContact(db.sql, ws.id, { is_subscribed: true });
    const [bad] =
      await db.sql`insert into campaign_enrollments (workspace_id, campaign_id, contact_id, due_at)
                               values (${ws.id}, ${broken.id}, ${a.id}, now() - interval '1 minute') returning id`;
    const fine = await enroll(ws.id, good.id, b.id);
    await sweep();
    const exited = await enrollmentOf(bad.id);
    expect(exited.status).toBe("exited");
    expect(exited.exit_reason).toMatch(/^The step failed: /);
    expect((await sendsOf(fine.id)).map((s) => s.campaign_step)).toEqual(["welcome"]);
  });

  test("an invalid graph is refused naming the step, and nothing is stored", async () => {
    const ws = await createWorkspace(db.sql);
    const cases: [unknown[], string][] = [
      [[{ id: "first", type: "send_email", subject: "", body: "Hi" }], 'Step "first"'],
      [[{ id: "w", type: "wait", duration: { days: 0 } }], 'Step "w": a wait must be longer than zero.'],
      [
        [{ id: "b", type: "branch", condition: { type: "clicked", step: "nowhere" } }],
        'Step "b": the branch reads the step "nowhere"',
      ],
      [
        [{ id: "x", type: "send_email", subject: "S", body: "Hi", next: "x" }],
        'Step "x": next must name a step further down',
      ],
    ];
    for (const [steps, message] of cases) {
      const refused = await withService((tx) =>
        createCampaignDraft(tx, { workspaceId: ws.id, name: "Bad", steps }),
      ).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(AppError);
      expect((refused as AppError).code).toBe("invalid");
      expect((refused as AppError).message).toContain(message);
    }
    expect(await db.sql`select id from campaigns where workspace_id = ${ws.id}`).toHaveLength(0);
  });

  test("a wait until a weekday and time is read in the campaign's zone", () => {
    const step = { id: "w", type: "wait" as const, until: { weekday: "monday" as const, time: "09:00" } };
    // Saturday 2026-11-28 12:00 UTC: the next Monday 09:00 in New York is 14:00 UTC
    expect(waitUntil(step, new Date("2026-11-28T12:00:00Z"), "America/New_York").toISOString()).toBe(
      "2026-11-30T14:00:00.000Z",
    );
    expect(waitUntil(step, new Date("2026-11-28T12:00:00Z"), "UTC").toISOString()).toBe(
      "2026-11-30T09:00:00.000Z",
    );
  });
});

describe("campaigns: a send step in the contact's language (docs/decisions.md, 'Recipient languages')", () => {
  test("a contact whose locale has a translation gets it; another language, none, or a language without one gets the step's own email", async () => {
    const ws = await createWorkspace(db.sql);
    const campaign = await withService(async (tx) => {
      const draft = await createCampaignDraft(tx, {
        workspaceId: ws.id,
        name: "Bienvenida",
        steps: [
          {
            id: "welcome",
            type: "send_email",
            subject: "Welcome, {{first_name}}",
            body: "Hello!",
            translations: {
              es: { subject: "Bienvenida, {{first_name}}", body: "¡Hola!" },
              de: { subject: "Willkommen, {{first_name}}", body: "Hallo!" },
            },
          },
        ],
      });
      return publishCampaign(tx, { workspaceId: ws.id, campaignId: draft.id });
    });
    const people = [
      ["es-MX", "Bienvenida, Ana"],
      ["de", "Willkommen, Ana"],
      ["fr", "Welcome, Ana"],
      ["ja", "Welcome, Ana"],
      [null, "Welcome, Ana"],
    ] as const;
    const enrolled: string[] = [];
    for (const [locale] of people) {
      const contact = await createContact(db.sql, ws.id, { first_name: "Ana", is_subscribed: true });
      await db.sql`update contacts set locale = ${locale} where id = ${contact.id}`;
      enrolled.push((await enroll(ws.id, campaign.id, contact.id)).id);
    }
    await sweep();
    for (const [i, [, subject]] of people.entries()) {
      const [sent] = await sendsOf(enrolled[i]);
      expect(sent).toMatchObject({ campaign_step: "welcome", subject });
    }
    const [spanish] =
      await db.sql`select html from email_sends where campaign_enrollment_id = ${enrolled[0]}`;
    expect(spanish.html).toContain("¡Hola!");
  });

  test("a translation in a language that is not shipped, or without a body, is refused naming the step, and nothing is stored", async () => {
    const ws = await createWorkspace(db.sql);
    for (const translations of [{ it: { subject: "Ciao", body: "Ciao!" } }, { es: { subject: "Hola" } }])
      await expect(
        withService((tx) =>
          createCampaignDraft(tx, {
            workspaceId: ws.id,
            name: "Bad",
            steps: [{ id: "welcome", type: "send_email", subject: "Hi", body: "Hi", translations }],
          }),
        ),
      ).rejects.toMatchObject({ code: "invalid" });
    expect(await db.sql`select id from campaigns where workspace_id = ${ws.id}`).toEqual([]);
  });
});
