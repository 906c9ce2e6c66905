import { describe, expect, test } from "vitest";
import { runCampaignSweep } from "@/lib/campaigns/flows/run-campaign-sweep";
import { campaignStepNumbers, enrollableCampaigns, enrollmentCounts } from "@/lib/campaigns/dashboard";
import { getContactTimeline } from "@/lib/contacts/get-contact-timeline";
import { withUser } from "@/lib/db/doors";
import { setupTestDatabase } from "../helpers/db";
import { addMember, auditRowsOf, createContact, createWorkspace } from "../helpers/factories";
import { signIn } from "../helpers/member-session";

/**
 * The campaigns dashboard (docs/decisions.md, "Campaigns dashboard"; DESIGN section 9,
 * "Campaigns"): the builder's save and publish, every refusal beside its step and nothing
 * stored, pause, resume and archive, manual enrollment from a contact's page, the numbers per
 * step and the contact's timeline.
 */
const db = setupTestDatabase();

const actions = await import("@/app/(dashboard)/campaigns/actions");

/** Where `fn` redirected to (Next's redirect() throws), or null when it returned. */
async function redirectOf(fn: () => Promise<unknown>): Promise<string | null> {
  try {
    await fn();
    return null;
  } catch (error) {
    const digest = String((error as { digest?: string })?.digest ?? "");
    if (!digest.startsWith("NEXT_REDIRECT")) throw error;
    return digest.split(";")[2];
  }
}

/** The builder's form as the browser posts it. */
function builderForm(fields: {
  name?: string;
  steps: unknown[];
  goals?: unknown[];
  intent?: "save" | "publish";
  reenroll?: boolean;
}) {
  const form = new FormData();
  form.set("name", fields.name ?? "Welcome series");
  form.set("steps", JSON.stringify(fields.steps));
  form.set("goals", JSON.stringify(fields.goals ?? []));
  if (fields.reenroll ?? true) form.set("allow_reenrollment", "on");
  form.set("intent", fields.intent ?? "save");
  return form;
}

const welcome = [
  { id: "welcome", type: "send_email", subject: "Welcome, {{first_name}}", body: "Hello!" },
  { id: "pause", type: "wait", duration: { days: 2 } },
  { id: "clicked", type: "branch", condition: { type: "clicked", step: "welcome" }, else: "nudge" },
  { id: "tips", type: "send_email", subject: "Tips", body: "Glad you came.", next: "end" },
  { id: "nudge", type: "send_email", subject: "Did you see this?", body: "Have a look." },
];

const campaignsOf = (workspaceId: string) =>
  db.sql`select id, name, status, steps, goals, allow_reenrollment, published_version
         from campaigns where workspace_id = ${workspaceId} order by created_at`;

async function publishedWelcome(workspaceId: string, goals: unknown[] = []) {
  const to = await redirectOf(() =>
    actions.createCampaignAction(undefined, builderForm({ steps: welcome, goals, intent: "publish" })),
  );
  const [row] = await campaignsOf(workspaceId);
  expect(to).toBe(`/campaigns/${row.id}?published=1`);
  return row.id as string;
}

describe("campaigns dashboard: the builder's save and publish", () => {
  test("save draft stores the steps as a draft; publish makes version 1 and the campaign active", async () => {
    const ws = await createWorkspace(db.sql);
    signIn(ws.owner.claims);
    const to = await redirectOf(() =>
      actions.createCampaignAction(undefined, builderForm({ steps: welcome, reenroll: false })),
    );
    const [draft] = await campaignsOf(ws.id);
    expect(to).toBe(`/campaigns/${draft.id}?saved=1`);
    expect(draft).toMatchObject({
      name: "Welcome series",
      status: "draft",
      published_version: null,
      allow_reenrollment: false,
    });
    expect(draft.steps.map((s: { id: string }) => s.id)).toEqual([
      "welcome",
      "pause",
      "clicked",
      "tips",
      "nudge",
    ]);
    expect(await db.sql`select 1 from campaign_versions where campaign_id = ${draft.id}`).toHaveLength(0);

    const published = await actions.updateCampaignAction(
      draft.id,
      undefined,
      builderForm({ name: "Welcome", steps: welcome, intent: "publish" }),
    );
    expect(published).toMatchObject({ success: "Published as version 1." });
    const [after] = await campaignsOf(ws.id);
    expect(after).toMatchObject({
      name: "Welcome",
      status: "active",
      published_version: 1,
      allow_reenrollment: true,
    });
    const versions =
      await db.sql`select version, steps from campaign_versions where campaign_id = ${draft.id}`;
    expect(versions).toHaveLength(1);
    expect(versions[0].steps).toEqual(after.steps);
    expect((await auditRowsOf(db.sql, draft.id)).map((r) => r.action)).toEqual([
      "campaign.created",
      "campaign.published",
    ]);
  });

  test("publishing refuses each invalid step beside it (no subject, a branch on a missing email, a wait of zero); nothing is stored", async () => {
    const ws = await createWorkspace(db.sql);
    signIn(ws.owner.claims);
    const bad = [
      { id: "welcome", type: "send_email", subject: "", body: "Hello" },
      { id: "pause", type: "wait", duration: { days: 0, hours: 0 } },
      { id: "clicked", type: "branch", condition: { type: "clicked", step: "ghost" } },
      { id: "tips", type: "send_email", subject: "Fine", body: "Fine" },
    ];
    const result = await redirectOf(() =>
      actions.createCampaignAction(undefined, builderForm({ steps: bad, intent: "publish" })),
    );
    expect(result).toBeNull();
    const state = await actions.createCampaignAction(
      undefined,
      builderForm({ steps: bad, intent: "publish" }),
    );
    expect(state.code).toBe("invalid");
    expect(state.stepErrors).toEqual({
      0: expect.stringMatching(/^Step "welcome": A send step needs a subject/),
      1: 'Step "pause": a wait must be longer than zero.',
      2: 'Step "clicked": the branch reads the step "ghost", which does not exist.',
    });
    expect(state.stepErrors?.[3]).toBeUndefined();
    expect(await campaignsOf(ws.id)).toHaveLength(0);
    expect(
      await db.sql`select 1 from audit_log where workspace_id = ${ws.id} and action like 'campaign.%'`,
    ).toHaveLength(0);
  });

  test("a goal naming a tag of another workspace is refused beside the goals; a draft stays as it was", async () => {
    const ws = await createWorkspace(db.sql);
    const other = await createWorkspace(db.sql);
    const [foreign] =
      await db.sql`insert into tags (workspace_id, name) values (${other.id}, 'x') returning id`;
    signIn(ws.owner.claims);
    await redirectOf(() => actions.createCampaignAction(undefined, builderForm({ steps: welcome })));
    const [draft] = await campaignsOf(ws.id);
    const state = await actions.updateCampaignAction(
      draft.id,
      undefined,
      builderForm({ name: "Changed", steps: welcome, goals: [{ type: "tag_added", tag_id: foreign.id }] }),
    );
    expect(state.goalErrors).toEqual({ 0: expect.stringContaining("no such tag in this workspace") });
    expect((await campaignsOf(ws.id))[0]).toMatchObject({ name: "Welcome series", goals: [] });
  });

  test("a member of another workspace cannot change the campaign: not found, nothing changed", async () => {
    const ws = await createWorkspace(db.sql);
    const stranger = await createWorkspace(db.sql);
    signIn(ws.owner.claims);
    await redirectOf(() => actions.createCampaignAction(undefined, builderForm({ steps: welcome })));
    const [draft] = await campaignsOf(ws.id);
    signIn(stranger.owner.claims);
    expect(
      await actions.updateCampaignAction(
        draft.id,
        undefined,
        builderForm({ name: "Mine", steps: [], intent: "save" }),
      ),
    ).toMatchObject({ code: "not_found", message: "Campaign not found." });
    expect(await actions.controlCampaignAction(draft.id, "archive", undefined, new FormData())).toMatchObject(
      {
        code: "not_found",
      },
    );
    expect((await campaignsOf(ws.id))[0]).toMatchObject({ name: "Welcome series", status: "draft" });
  });
});

describe("campaigns dashboard: pause, resume, archive", () => {
  test("a member pauses and resumes; archive cancels the active enrollments; an archived campaign is not changed again", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await addMember(db.sql, ws.id, "member");
    signIn(member.claims);
    const id = await publishedWelcome(ws.id);
    const contact = await createContact(db.sql, ws.id, { is_subscribed: true });
    expect(await actions.enrollContactAction(contact.id, undefined, enrollForm(id))).toMatchObject({
      success: "Enrolled in Welcome series.",
    });

    expect(await actions.controlCampaignAction(id, "pause", undefined, new FormData())).toEqual({
      success: "Campaign paused.",
    });
    expect((await campaignsOf(ws.id))[0].status).toBe("paused");
    expect(await actions.controlCampaignAction(id, "pause", undefined, new FormData())).toMatchObject({
      code: "conflict",
      message: "Only an active campaign can be paused.",
    });
    expect(await actions.controlCampaignAction(id, "resume", undefined, new FormData())).toEqual({
      success: "Campaign resumed.",
    });
    expect((await campaignsOf(ws.id))[0].status).toBe("active");

    expect(await actions.controlCampaignAction(id, "archive", undefined, new FormData())).toEqual({
      success: "Campaign archived.",
    });
    expect((await campaignsOf(ws.id))[0].status).toBe("archived");
    expect(await db.sql`select status, due_at from campaign_enrollments where campaign_id = ${id}`).toEqual([
      { status: "cancelled", due_at: null },
    ]);
    expect(
      await withUser(ws.owner.claims, (tx) => enrollmentCounts(tx, { workspaceId: ws.id, campaignId: id })),
    ).toEqual({
      active: 0,
      completed: 0,
      cancelled: 1,
      exited: 0,
    });
    expect(
      await actions.updateCampaignAction(id, undefined, builderForm({ steps: welcome, intent: "publish" })),
    ).toMatchObject({ code: "conflict", message: "An archived campaign cannot be changed." });
    expect((await campaignsOf(ws.id))[0].published_version).toBe(1);
  });
});

const enrollForm = (campaignId: string) => {
  const form = new FormData();
  form.set("campaignId", campaignId);
  return form;
};

describe("campaigns dashboard: manual enrollment, numbers per step, timeline", () => {
  test("a contact enrolled from its page goes through the series: numbers per step and its timeline show it", async () => {
    const ws = await createWorkspace(db.sql);
    signIn(ws.owner.claims);
    const goal = (
      await db.sql`insert into tags (workspace_id, name) values (${ws.id}, 'customer') returning id`
    )[0].id as string;
    const id = await publishedWelcome(ws.id, [{ type: "tag_added", tag_id: goal }]);
    const clicker = await createContact(db.sql, ws.id, { is_subscribed: true, first_name: "Ada" });
    const buyer = await createContact(db.sql, ws.id, { is_subscribed: true });

    expect(
      await withUser(ws.owner.claims, (tx) =>
        enrollableCampaigns(tx, { workspaceId: ws.id, contactId: clicker.id }),
      ),
    ).toEqual([{ id, name: "Welcome series", enrolled: false }]);
    expect(await actions.enrollContactAction(clicker.id, undefined, enrollForm(id))).toMatchObject({
      success: "Enrolled in Welcome series.",
    });
    expect(await actions.enrollContactAction(clicker.id, undefined, enrollForm(id))).toMatchObject({
      code: "already_enrolled",
    });
    await actions.enrollContactAction(buyer.id, undefined, enrollForm(id));
    expect(
      await db.sql`select count(*)::int as n from campaign_enrollments where campaign_id = ${id}`,
    ).toEqual([{ n: 2 }]);
    expect(
      await withUser(ws.owner.claims, (tx) =>
        enrollableCampaigns(tx, { workspaceId: ws.id, contactId: clicker.id }),
      ),
    ).toEqual([{ id, name: "Welcome series", enrolled: true }]);

    await runCampaignSweep();
    // the clicker clicks (a person), the buyer reaches the goal while waiting
    const [send] =
      await db.sql`select s.id from email_sends s join campaign_enrollments e on e.id = s.campaign_enrollment_id
                                where e.contact_id = ${clicker.id}`;
    await db.sql`insert into email_events (workspace_id, email_send_id, type, occurred_at, is_machine)
                 values (${ws.id}, ${send.id}, 'opened', now(), false), (${ws.id}, ${send.id}, 'clicked', now(), false)`;
    await db.sql`insert into contact_tags (workspace_id, contact_id, tag_id) values (${ws.id}, ${buyer.id}, ${goal})`;
    await db.sql`update campaign_enrollments set due_at = now() where campaign_id = ${id} and status = 'active'`;
    await runCampaignSweep();

    const numbers = await withUser(ws.owner.claims, (tx) =>
      campaignStepNumbers(tx, { workspaceId: ws.id, campaignId: id }),
    );
    expect(numbers.get("welcome")).toMatchObject({ entered: 2, sent: 2, opened: 1, clicked: 1, waiting: 0 });
    expect(numbers.get("pause")).toMatchObject({ entered: 2, waiting: 0, goal_reached: 1 });
    expect(numbers.get("clicked")).toMatchObject({ entered: 1 });
    expect(numbers.get("tips")).toMatchObject({ entered: 1, sent: 1 });
    expect(numbers.get("nudge")).toBeUndefined();
    expect(
      await withUser(ws.owner.claims, (tx) => enrollmentCounts(tx, { workspaceId: ws.id, campaignId: id })),
    ).toEqual({
      active: 0,
      completed: 2,
      cancelled: 0,
      exited: 0,
    });

    const timeline = await withUser(ws.owner.claims, (tx) =>
      getContactTimeline(tx, { workspaceId: ws.id, contactId: clicker.id, kinds: ["campaign"] }),
    );
    // a run's steps share their transaction's time: the entries are compared as a set
    expect(timeline.data).toHaveLength(5);
    expect(timeline.data.map((e) => e.text)).toEqual(
      expect.arrayContaining([
        'Campaign Welcome series: step "welcome" sent its email',
        expect.stringMatching(/^Campaign Welcome series: step "pause" waiting\. until /),
        'Campaign Welcome series: step "clicked" branched. Condition held: yes path',
        'Campaign Welcome series: step "tips" sent its email',
        'Campaign Welcome series: step "tips" completed the campaign',
      ]),
    );
    const other = await createWorkspace(db.sql);
    const foreign = await withUser(other.owner.claims, (tx) =>
      getContactTimeline(tx, { workspaceId: ws.id, contactId: clicker.id, kinds: ["campaign"] }),
    );
    expect(foreign.data).toEqual([]);
  });

  test("only an active campaign takes a manual enrollment; a contact of another workspace is not found", async () => {
    const ws = await createWorkspace(db.sql);
    const other = await createWorkspace(db.sql);
    signIn(ws.owner.claims);
    await redirectOf(() => actions.createCampaignAction(undefined, builderForm({ steps: welcome })));
    const [draft] = await campaignsOf(ws.id);
    const contact = await createContact(db.sql, ws.id);
    const stranger = await createContact(db.sql, other.id);
    expect(await actions.enrollContactAction(contact.id, undefined, enrollForm(draft.id))).toMatchObject({
      code: "conflict",
      errors: { campaignId: "Only an active campaign takes enrollments from here." },
    });
    expect(
      await withUser(ws.owner.claims, (tx) =>
        enrollableCampaigns(tx, { workspaceId: ws.id, contactId: contact.id }),
      ),
    ).toEqual([]);
    const id = await (async () => {
      await actions.updateCampaignAction(
        draft.id,
        undefined,
        builderForm({ steps: welcome, intent: "publish" }),
      );
      return draft.id as string;
    })();
    expect(await actions.enrollContactAction(stranger.id, undefined, enrollForm(id))).toMatchObject({
      code: "not_found",
    });
    expect(await db.sql`select 1 from campaign_enrollments where campaign_id = ${id}`).toHaveLength(0);
  });
});
