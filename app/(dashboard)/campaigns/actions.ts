"use server";

import { refresh } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { memberAction, type ActionContext } from "@/lib/adapters/member-action";
import {
  createCampaignDraft,
  enrollContact,
  getCampaign,
  kickRunner,
  publishCampaign,
  updateCampaign,
} from "@/lib/campaigns/campaigns";
import { startBulkEnroll } from "@/lib/campaigns/segment-enrollment";
import { builderForm } from "@/lib/campaigns/builder-form";
import { collectStepErrors } from "@/lib/campaigns/dashboard";
import type { Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import type { FormState } from "@/lib/http/form-state";
import { uuidField } from "@/lib/ids/uuid";
import { ROLES } from "@/lib/workspaces/schemas";

/**
 * The campaigns dashboard (docs/decisions.md, "Campaigns dashboard"). Every member may build,
 * publish, pause, resume, archive and enroll, as every member may send a broadcast; the work runs
 * as the service because publishing writes a version (service-only) and every change that lets
 * steps run enqueues the runner, each query scoped to the member's workspace.
 */
const NOT_FOUND = "Campaign not found.";
const campaignId = uuidField(NOT_FOUND);
const contactId = uuidField("Contact not found.");

type BuilderInput = z.output<typeof builderForm>;

/** The builder's answer: refusals beside their steps (`steps[i]`, `goals[i]`), or a note. */
export type BuilderState = FormState & {
  stepErrors?: Record<number, string>;
  goalErrors?: Record<number, string>;
};

/**
 * Every error of the list at once (collectStepErrors), beside its step; nothing is stored when
 * there is one. The draft's create and update check the list again (validateSteps) and store it.
 */
async function refuseInvalid(db: Db, ctx: ActionContext, input: BuilderInput): Promise<BuilderState | null> {
  const errors = await collectStepErrors(db, ctx.workspaceId, input.steps, input.goals);
  const count = Object.keys(errors.steps).length + Object.keys(errors.goals).length;
  if (!errors.list && count === 0) return null;
  return {
    code: "invalid",
    message:
      errors.list ??
      `${count} ${count === 1 ? "step needs" : "steps need"} attention before the campaign can be saved.`,
    stepErrors: errors.steps,
    goalErrors: errors.goals,
  };
}

async function saveAndMaybePublish(
  db: Db,
  ctx: ActionContext,
  input: BuilderInput,
  id: string | null,
): Promise<BuilderState & { id?: string }> {
  if (input.intent === "publish" && input.steps.length === 0)
    return { code: "invalid", message: "Add a step before publishing." };
  const refused = await refuseInvalid(db, ctx, input);
  if (refused) return refused;
  const fields = {
    workspaceId: ctx.workspaceId,
    name: input.name,
    steps: input.steps,
    goals: input.goals,
    allow_reenrollment: input.allow_reenrollment,
    enroll_segment_id: input.enroll_segment_id,
  };
  const before = id ? await getCampaign(db, { workspaceId: ctx.workspaceId, campaignId: id }) : null;
  if (id && !before) throw new AppError("not_found", NOT_FOUND);
  if (before?.status === "archived")
    throw new AppError("conflict", "An archived campaign cannot be changed.");
  const saved = id
    ? await updateCampaign(db, { ...fields, campaignId: id })
    : await createCampaignDraft(db, fields);
  ctx.audit.target("campaign", saved.id).change(before ? { name: before.name, steps: before.steps } : null, {
    name: saved.name,
    steps: saved.steps,
  });
  if (input.intent === "publish") {
    const published = await publishCampaign(db, {
      workspaceId: ctx.workspaceId,
      campaignId: saved.id,
      moveEnrollments: input.move_enrollments,
    });
    return {
      id: saved.id,
      success: `Published as version ${published.published_version}${
        input.move_enrollments ? "; the enrollments inside were moved where their step is kept" : ""
      }.`,
    };
  }
  return { id: saved.id, success: "Draft saved." };
}

const builderAudit = (i: BuilderInput, r: BuilderState) =>
  r.code ? null : i.intent === "publish" ? ("campaign.published" as const) : ("campaign.updated" as const);

/** "New campaign": the builder's draft stored (and published when asked); then its page. */
export const createCampaignAction = memberAction(
  builderForm,
  (db, input, ctx) => saveAndMaybePublish(db, ctx, input, null),
  {
    roles: ROLES,
    door: "service",
    audit: (i, r) => (r.code ? null : i.intent === "publish" ? "campaign.published" : "campaign.created"),
    after: (r, i) => {
      if (r.id) redirect(`/campaigns/${r.id}?${i.intent === "publish" ? "published" : "saved"}=1`);
    },
  },
);

/** The builder on a campaign's page: the draft replaced, published as the next version when asked. */
export const updateCampaignAction = memberAction(
  builderForm.extend({ campaignId }),
  (db, { campaignId, ...input }, ctx) => saveAndMaybePublish(db, ctx, input, campaignId),
  {
    roles: ROLES,
    door: "service",
    args: ["campaignId"],
    audit: builderAudit,
    after: (r) => {
      if (!r.code) refresh();
    },
  },
);

const CONTROL = { pause: "paused", resume: "active", archive: "archived" } as const;

/**
 * Pause (no step runs), resume (the runner carries on; a send step's key keeps it from sending
 * twice) or archive (the active enrollments are cancelled; the dialog says so first).
 */
export const controlCampaignAction = memberAction(
  z.object({ campaignId, control: z.enum(["pause", "resume", "archive"], { error: NOT_FOUND }) }),
  async (db, { campaignId, control }, ctx): Promise<FormState> => {
    const before = await getCampaign(db, { workspaceId: ctx.workspaceId, campaignId });
    if (!before) throw new AppError("not_found", NOT_FOUND);
    if (control === "pause" && before.status !== "active")
      throw new AppError("conflict", "Only an active campaign can be paused.");
    if (control === "resume" && before.status !== "paused")
      throw new AppError("conflict", "Only a paused campaign can be resumed.");
    // a pause for the workspace's reputation is the owner's to lift (docs/decisions.md, "A broadcast
    // pauses itself for its workspace's reputation")
    if (control === "resume" && before.pause_kind === "reputation" && ctx.workspace.role !== "owner")
      throw new AppError(
        "forbidden",
        "Only an owner can resume a campaign paused to protect the workspace's sending reputation.",
      );
    const after = await updateCampaign(db, {
      workspaceId: ctx.workspaceId,
      campaignId,
      status: CONTROL[control],
      byOwner: ctx.workspace.role === "owner",
    });
    ctx.audit.target("campaign", campaignId).change({ status: before.status }, { status: after.status });
    return {
      success: { pause: "Campaign paused.", resume: "Campaign resumed.", archive: "Campaign archived." }[
        control
      ],
    };
  },
  {
    roles: ROLES,
    door: "service",
    args: ["campaignId", "control"],
    audit: "campaign.updated",
    after: () => refresh(),
  },
);

/**
 * "Enroll everyone in a segment now" (docs/decisions.md, "Campaign enrollment from a segment"):
 * the one-off is recorded and the runner kicked; the campaign sweep enrolls the segment chunk by
 * chunk, and the page shows the progress.
 */
export const bulkEnrollAction = memberAction(
  z.object({ campaignId, segmentId: uuidField("Choose a segment.") }),
  async (db, { campaignId, segmentId }, ctx): Promise<FormState> => {
    const progress = await startBulkEnroll(db, { workspaceId: ctx.workspaceId, campaignId, segmentId });
    await kickRunner(db);
    ctx.audit.target("campaign", campaignId).change(null, { segment_id: segmentId, total: progress.total });
    return { success: `Enrolling ${progress.total} ${progress.total === 1 ? "contact" : "contacts"}…` };
  },
  {
    roles: ROLES,
    door: "service",
    args: ["campaignId"],
    audit: "campaign.contact_enrolled",
    after: () => refresh(),
  },
);

/** "Enroll in campaign" on a contact's page: starts at once on the published version. */
export const enrollContactAction = memberAction(
  z.object({ contactId, campaignId: uuidField("Choose a campaign.") }),
  async (db, { contactId, campaignId }, ctx): Promise<FormState> => {
    const campaign = await getCampaign(db, { workspaceId: ctx.workspaceId, campaignId });
    if (!campaign) throw new AppError("not_found", NOT_FOUND, { field: "campaignId" });
    if (campaign.status !== "active")
      throw new AppError("conflict", "Only an active campaign takes enrollments from here.", {
        field: "campaignId",
      });
    const enrollment = await enrollContact(db, { workspaceId: ctx.workspaceId, campaignId, contactId });
    ctx.audit
      .target("campaign", campaignId)
      .change(null, { contact_id: contactId, enrollment: enrollment.id });
    return { success: `Enrolled in ${campaign.name}.` };
  },
  {
    roles: ROLES,
    door: "service",
    args: ["contactId"],
    audit: "campaign.contact_enrolled",
    after: () => refresh(),
  },
);
