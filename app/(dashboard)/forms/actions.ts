"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { memberAction } from "@/lib/adapters/member-action";
import { ADMIN_ROLES } from "@/lib/auth/context";
import { automationActionSchema, automationSegmentSchema } from "@/lib/automations/automation-action";
import { createFormAutomation } from "@/lib/automations/create-form-automation";
import { deleteAutomation } from "@/lib/automations/delete-automation";
import { AppError, unwrap } from "@/lib/errors/app-error";
import { createForm } from "@/lib/forms/create-form";
import { deleteForm } from "@/lib/forms/delete-form";
import { formSettingsSchema } from "@/lib/forms/form-settings";
import type { KeyState } from "@/lib/forms/key-state";
import { rotateFormKey } from "@/lib/forms/rotate-form-key";
import { updateForm } from "@/lib/forms/update-form";
import { setFormTopics } from "@/lib/forms/form-topics";
import type { FormState } from "@/lib/http/form-state";
import { uuidField } from "@/lib/ids/uuid";

const GONE = "This form no longer exists.";
const admins = { roles: ADMIN_ROLES, forbidden: "Only owners and admins can change forms." };
const formId = z.object({ formId: uuidField(GONE) });
const gone = () => new AppError("not_found", GONE);
const refreshForm = (_: unknown, input: { formId: string }) => revalidatePath(`/forms/${input.formId}`);

export const createFormAction = memberAction(
  formSettingsSchema,
  async (db, settings, ctx): Promise<FormState> => {
    const { id } = await createForm(db, { workspaceId: ctx.workspaceId, settings });
    ctx.audit.target("form", id).change(null, settings);
    return {};
  },
  // the new form's page; redirect after the commit (inside fn it would roll it back)
  { ...admins, audit: "form.created", after: (_r, _i, ctx) => redirect(`/forms/${ctx.audit.targetId}`) },
);

export const updateFormAction = memberAction(
  formId.and(formSettingsSchema),
  async (db, { formId, ...settings }, ctx): Promise<FormState> => {
    if (!(await updateForm(db, { workspaceId: ctx.workspaceId, formId, settings }))) throw gone();
    ctx.audit.target("form", formId).change(null, settings);
    return { success: "Form saved." };
  },
  { ...admins, audit: "form.updated", args: ["formId"], after: refreshForm },
);

/** The topics a submission subscribes to (docs/decisions.md, "Subscription topics"). */
export const updateFormTopicsAction = memberAction(
  formId.and(z.object({ topicIds: z.array(z.string()).max(100).default([]) })),
  async (db, { formId, topicIds }, ctx): Promise<FormState> => {
    if (!(await setFormTopics(db, { workspaceId: ctx.workspaceId, formId, topicIds }))) throw gone();
    ctx.audit.target("form", formId).change(null, { topicIds });
    return { success: "Topics saved." };
  },
  { ...admins, audit: "form.updated", args: ["formId"], after: refreshForm },
);

export const rotateFormKeyAction = memberAction(
  formId,
  async (db, { formId }, ctx): Promise<KeyState> => {
    const rotated = await rotateFormKey(db, { workspaceId: ctx.workspaceId, formId });
    if (!rotated) throw gone();
    ctx.audit.target("form", formId); // the key itself never reaches the log
    return { key: rotated.key };
  },
  {
    ...admins,
    audit: "form.key_rotated",
    args: ["formId"],
    refusal: (error) => ({ message: error.message, code: error.code }),
    after: refreshForm,
  },
);

export const deleteFormAction = memberAction(
  formId,
  async (db, { formId }, ctx): Promise<FormState> => {
    if (!(await deleteForm(db, { workspaceId: ctx.workspaceId, formId }))) throw gone();
    ctx.audit.target("form", formId);
    return {};
  },
  {
    ...admins,
    audit: "form.deleted",
    args: ["formId"],
    after: () => {
      revalidatePath("/forms");
      redirect("/forms");
    },
  },
);

export const addAutomationAction = memberAction(
  formId.and(automationSegmentSchema).and(automationActionSchema),
  async (db, { formId, segment_id, ...action }, ctx): Promise<FormState> => {
    const automation = unwrap(
      await createFormAutomation(db, {
        workspaceId: ctx.workspaceId,
        formId,
        action,
        segmentId: segment_id || null,
      }),
    );
    ctx.audit
      .target("form", formId)
      .change(null, { automation_id: automation.id, ...action, segment_id: segment_id || null });
    return { success: "Automation added." };
  },
  { ...admins, audit: "form.automation_added", args: ["formId"], after: refreshForm },
);

export const removeAutomationAction = memberAction(
  formId.extend({ automationId: uuidField("This automation no longer exists.") }),
  async (db, { formId, automationId }, ctx): Promise<FormState> => {
    if (!(await deleteAutomation(db, { workspaceId: ctx.workspaceId, automationId })))
      throw new AppError("not_found", "This automation no longer exists.");
    ctx.audit.target("form", formId).change({ automation_id: automationId }, null);
    return {};
  },
  { ...admins, audit: "form.automation_removed", args: ["formId"], after: refreshForm },
);
