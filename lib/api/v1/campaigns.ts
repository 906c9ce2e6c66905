import { z } from "zod";
import {
  createCampaignDraft,
  enrollContact,
  getCampaign,
  listCampaigns,
  listEnrollments,
  publishCampaign,
  updateCampaign,
  type Campaign,
  type EnrollmentRow,
} from "@/lib/campaigns/campaigns";
import { looseStepSchema, MAX_STEPS } from "@/lib/campaigns/steps";
import type { Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { uuidSchema } from "@/lib/ids/uuid";
import { bodyErrors, defineOperation, idempotencyConflict, invalid, notFound } from "./define";
import { apiText, idParams, iso, keysetList, timestamp } from "./keyset";
import { listSchema, pageQuerySchema } from "./pagination";
import { created, ok } from "./route";

/**
 * Campaigns with a key (DESIGN section 9, "Campaigns"; docs/api.md, "Campaigns"): a campaign is
 * a draft step list, published as versions that enrollments run (docs/decisions.md, "Campaigns
 * as versioned step lists"). `campaigns:read` reads campaigns and enrollments; `campaigns:write`
 * creates, changes, publishes and enrolls. An invalid step list is 400 naming the step, and
 * nothing is stored.
 */

const ENROLLMENT_STATUSES = ["active", "completed", "cancelled", "exited"] as const;

const stepsField = z
  .array(looseStepSchema)
  .max(MAX_STEPS)
  .meta({ description: 'The steps in order (docs/api.md, "Campaign steps").' });
const goalsField = z
  .array(z.looseObject({ type: z.string().max(32) }))
  .max(20)
  .meta({
    description:
      'Goals (docs/api.md, "Campaign goals"): `tag_added` (`tag_id`), `purchased` (`product_id`), ' +
      "`form_submitted` (`form_id`), `segment_entered` (`segment_id`); once true, the enrollment is completed " +
      "wherever it stands.",
  });
const settings = {
  allow_reenrollment: z.boolean().meta({
    description: "false: a contact is enrolled at most once, ever. Default true (again once ended).",
  }),
  timezone: z.string().max(64).meta({ description: 'The IANA zone a wait "until" is read in. Default UTC.' }),
  enroll_segment_id: uuidSchema.nullable().meta({
    description:
      "A segment of the workspace whose entrants are enrolled (checked every minute); those already in it " +
      "when it is set are not. null: none.",
  }),
};

export const campaignSchema = z
  .object({
    id: uuidSchema,
    name: z.string(),
    status: z.enum(["draft", "active", "paused", "archived"]),
    steps: stepsField,
    goals: goalsField,
    allow_reenrollment: z.boolean(),
    timezone: z.string(),
    enroll_segment_id: uuidSchema.nullable(),
    published_version: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The version new enrollments run; null until published." }),
    paused_reason: z.string().nullable().meta({
      description:
        "Why the campaign paused itself to protect the workspace's sending reputation; only an owner resumes it, from the dashboard (PATCH status active is 409). Null otherwise.",
    }),
    enrollments: z
      .object(
        Object.fromEntries(ENROLLMENT_STATUSES.map((s) => [s, z.number().int()])) as Record<
          (typeof ENROLLMENT_STATUSES)[number],
          z.ZodNumber
        >,
      )
      .meta({ description: "Enrollments by state." }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "Campaign" });

type V1Campaign = z.output<typeof campaignSchema>;

const campaignObject = (c: Campaign, counts?: Record<string, number>): V1Campaign => ({
  id: c.id,
  name: c.name,
  status: c.status,
  steps: c.steps as V1Campaign["steps"],
  goals: c.goals as V1Campaign["goals"],
  allow_reenrollment: c.allow_reenrollment,
  timezone: c.timezone,
  enroll_segment_id: c.enroll_segment_id,
  published_version: c.published_version,
  paused_reason: c.pause_kind === "reputation" ? c.paused_reason : null,
  enrollments: { active: 0, completed: 0, cancelled: 0, exited: 0, ...counts },
  created_at: c.created_at.toISOString(),
  updated_at: c.updated_at.toISOString(),
});

async function v1Campaign(db: Db, workspaceId: string, campaignId: string): Promise<V1Campaign> {
  const campaign = await getCampaign(db, { workspaceId, campaignId });
  if (!campaign) throw new AppError("not_found");
  const counts = await db<{ status: string; n: number }[]>`
    select status, count(*)::int as n from public.campaign_enrollments
    where campaign_id = ${campaignId} and workspace_id = ${workspaceId} group by status`;
  return campaignObject(campaign, Object.fromEntries(counts.map((r) => [r.status, r.n])));
}

/** The document's example: a welcome series that runs as it is, published and given an enrollment. */
export const WELCOME_SERIES = {
  name: "Welcome series",
  steps: [
    {
      id: "welcome",
      type: "send_email",
      subject: 'Welcome, {{first_name | "friend"}}',
      body: 'Hello {{first_name | "there"}},\n\nThanks for joining us. [Start here](https://example.com/start) to see what is on.',
    },
    { id: "pause", type: "wait", duration: { days: 2 } },
    {
      id: "clicked-welcome",
      type: "branch",
      condition: { type: "clicked", step: "welcome" },
      else: "nudge",
    },
    {
      id: "tips",
      type: "send_email",
      subject: "Three things to try next",
      body: "Glad you had a look! Here are three things members enjoy most.",
      next: "end",
    },
    {
      id: "nudge",
      type: "send_email",
      subject: "Did you see this?",
      body: "In case you missed it: [start here](https://example.com/start).",
    },
  ],
};

export const campaignCreateSchema = z
  .strictObject({
    name: apiText("name", 200),
    steps: stepsField.optional(),
    goals: goalsField.optional(),
    allow_reenrollment: settings.allow_reenrollment.optional(),
    timezone: settings.timezone.optional(),
    enroll_segment_id: settings.enroll_segment_id.optional(),
  })
  .meta({ id: "CampaignCreate" });

export const campaignPatchSchema = z
  .strictObject({
    name: apiText("name", 200).optional(),
    steps: stepsField.optional(),
    goals: goalsField.optional(),
    allow_reenrollment: settings.allow_reenrollment.optional(),
    timezone: settings.timezone.optional(),
    enroll_segment_id: settings.enroll_segment_id.optional(),
    status: z.enum(["active", "paused", "archived"]).optional().meta({
      description:
        "paused: no step runs; active: resume (a published campaign); archived: ends it, cancelling active enrollments.",
    }),
  })
  .meta({ id: "CampaignPatch" });

const stateConflict = { status: 409 as const, codes: ["conflict"] };

export const list = defineOperation({
  method: "get",
  path: "/api/v1/campaigns",
  operationId: "listCampaigns",
  scope: "campaigns:read",
  summary: "List campaigns",
  description: "Newest first, with their enrollments by state (at most 200).",
  success: {
    status: 200,
    schema: z.object({ data: z.array(campaignSchema) }).meta({ id: "CampaignList" }),
    description: "The campaigns.",
  },
  errors: [],
  async handler({ db, workspaceId }) {
    const rows = await listCampaigns(db, { workspaceId });
    return ok({ data: rows.map((r) => campaignObject(r, r.counts)) });
  },
});

export const create = defineOperation({
  method: "post",
  path: "/api/v1/campaigns",
  operationId: "createCampaign",
  scope: "campaigns:write",
  summary: "Create a campaign (a draft)",
  description:
    "A draft: nothing runs until it is published. A step list that does not hold together is 400 " +
    "`invalid_request`, the message naming the step, and nothing is stored. Honours `Idempotency-Key`.",
  body: campaignCreateSchema,
  example: WELCOME_SERIES,
  idempotent: true,
  success: { status: 201, schema: campaignSchema, description: "The draft." },
  errors: [...bodyErrors, idempotencyConflict],
  async handler({ db, workspaceId, body, audit }) {
    const campaign = await createCampaignDraft(db, { workspaceId, ...body });
    await audit("campaign.created", ["campaign", campaign.id], { after: { name: campaign.name } });
    return created(campaignObject(campaign));
  },
});

export const get = defineOperation({
  method: "get",
  path: "/api/v1/campaigns/{id}",
  operationId: "getCampaign",
  scope: "campaigns:read",
  summary: "Read a campaign",
  params: idParams,
  success: { status: 200, schema: campaignSchema, description: "The campaign (its draft steps)." },
  errors: [notFound],
  async handler({ db, workspaceId, params }) {
    return ok(await v1Campaign(db, workspaceId, params.id));
  },
});

export const update = defineOperation({
  method: "patch",
  path: "/api/v1/campaigns/{id}",
  operationId: "updateCampaign",
  scope: "campaigns:write",
  summary: "Change a campaign's draft, settings or state",
  description:
    "Steps and goals change the draft only: enrollments run the published version until the next publish. " +
    "An invalid step list is 400 naming the step, and nothing changes.",
  params: idParams,
  body: campaignPatchSchema,
  success: { status: 200, schema: campaignSchema, description: "The campaign as it is now." },
  errors: [...bodyErrors, notFound, stateConflict],
  async handler({ db, workspaceId, params, body, audit }) {
    const before = await v1Campaign(db, workspaceId, params.id);
    await updateCampaign(db, { workspaceId, campaignId: params.id, ...body });
    const after = await v1Campaign(db, workspaceId, params.id);
    await audit("campaign.updated", ["campaign", params.id], {
      before: { name: before.name, status: before.status },
      after: { name: after.name, status: after.status },
    });
    return ok(after);
  },
});

export const publish = defineOperation({
  method: "post",
  path: "/api/v1/campaigns/{id}/publish",
  operationId: "publishCampaign",
  scope: "campaigns:write",
  summary: "Publish the draft as a new version",
  description:
    "New enrollments run the new version; enrollments already inside keep theirs unless `move_enrollments` " +
    "is true: then each one not started yet, or waiting on a wait whose id the new version has, moves to it " +
    '(docs/api.md, "Moving enrollments"). A draft campaign becomes active. The draft is checked again ' +
    "(400 naming the step).",
  params: idParams,
  body: z
    .strictObject({
      move_enrollments: z
        .boolean()
        .optional()
        .meta({ description: "Move the active enrollments of older versions to this one. Default false." }),
    })
    .meta({ id: "CampaignPublish" }),
  idempotent: true,
  success: { status: 200, schema: campaignSchema, description: "The campaign, published." },
  errors: [...bodyErrors, notFound, stateConflict, idempotencyConflict],
  async handler({ db, workspaceId, params, body, audit }) {
    const campaign = await publishCampaign(db, {
      workspaceId,
      campaignId: params.id,
      moveEnrollments: body.move_enrollments === true,
    });
    await audit("campaign.published", ["campaign", params.id], {
      after: { version: campaign.published_version, moved_enrollments: body.move_enrollments === true },
    });
    return ok(await v1Campaign(db, workspaceId, params.id));
  },
});

export const enrollmentSchema = z
  .object({
    id: uuidSchema,
    contact_id: uuidSchema,
    status: z.enum(ENROLLMENT_STATUSES),
    version: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The version it runs; null until the campaign is published." }),
    current_step: z.string().nullable().meta({ description: "The step it stands on (or ended on)." }),
    due_at: timestamp.nullable().meta({ description: "When its next step runs; null once ended." }),
    exit_reason: z.string().nullable(),
    enrolled_at: timestamp,
    ended_at: timestamp.nullable(),
  })
  .meta({ id: "CampaignEnrollment" });

const enrollmentObject = (e: EnrollmentRow): z.output<typeof enrollmentSchema> => ({
  id: e.id,
  contact_id: e.contact_id,
  status: e.status,
  version: e.version,
  current_step: e.current_step,
  due_at: iso(e.due_at),
  exit_reason: e.exit_reason,
  enrolled_at: e.enrolled_at.toISOString(),
  ended_at: iso(e.ended_at),
});

export const enrollBodySchema = z
  .strictObject({ contact_id: uuidSchema.meta({ description: "A contact of the key's workspace." }) })
  .meta({ id: "CampaignEnroll" });

export const enroll = defineOperation({
  method: "post",
  path: "/api/v1/campaigns/{id}/enrollments",
  operationId: "enrollInCampaign",
  scope: "campaigns:write",
  summary: "Enroll a contact",
  description:
    "The enrollment starts at once on the published version (or at the first publication). 409 " +
    "`already_enrolled` while the contact has an active enrollment in the campaign (or had any, when the " +
    "campaign does not allow re-enrollment); a contact or campaign of another workspace is 404.",
  params: idParams,
  body: enrollBodySchema,
  example: { contact_id: "00000000-0000-4000-8000-000000000000" },
  idempotent: true,
  success: {
    status: 201,
    schema: z
      .object({ id: uuidSchema, status: z.enum(ENROLLMENT_STATUSES) })
      .meta({ id: "CampaignEnrolled" }),
    description: "Enrolled.",
  },
  errors: [
    ...bodyErrors,
    notFound,
    { status: 409, codes: ["already_enrolled", "conflict", "idempotency_conflict"] },
  ],
  async handler({ db, workspaceId, params, body, audit }) {
    const enrollment = await enrollContact(db, {
      workspaceId,
      campaignId: params.id,
      contactId: body.contact_id,
    });
    await audit("campaign.contact_enrolled", ["campaign", params.id], {
      after: { contact_id: body.contact_id, enrollment_id: enrollment.id },
    });
    return created(enrollment);
  },
});

const ENROLLMENTS_ORDER = "campaign_enrollments:enrolled_at:asc";

export const listEnrollmentsOp = defineOperation({
  method: "get",
  path: "/api/v1/campaigns/{id}/enrollments",
  operationId: "listCampaignEnrollments",
  scope: "campaigns:read",
  summary: "List a campaign's enrollments",
  description: "Oldest first, with each one's step and state; `status` narrows to one state.",
  params: idParams,
  query: pageQuerySchema.extend({ status: z.enum(ENROLLMENT_STATUSES).optional() }),
  success: {
    status: 200,
    schema: listSchema(enrollmentSchema).meta({ id: "CampaignEnrollmentList" }),
    description: "A page of enrollments.",
  },
  errors: [invalid, notFound],
  async handler({ db, workspaceId, params, query }) {
    if (!(await getCampaign(db, { workspaceId, campaignId: params.id }))) throw new AppError("not_found");
    const read = (page: { limit: number; after: { key: string; id: string } | null }) =>
      listEnrollments(db, { workspaceId, campaignId: params.id, status: query.status, ...page });
    return ok(await keysetList(ENROLLMENTS_ORDER, query, "timestamptz", read, enrollmentObject));
  },
});
