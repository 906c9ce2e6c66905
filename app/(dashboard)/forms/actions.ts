"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { ADMIN_ROLES, NotAuthorizedError, withMember } from "@/lib/auth/context";
import { automationActionSchema } from "@/lib/automations/automation-action";
import { createFormAutomation } from "@/lib/automations/create-form-automation";
import { deleteAutomation } from "@/lib/automations/delete-automation";
import { createForm } from "@/lib/forms/create-form";
import { deleteForm } from "@/lib/forms/delete-form";
import { formSettingsSchema } from "@/lib/forms/form-settings";
import { isUuid } from "@/lib/ids/uuid";
import { rotateFormKey } from "@/lib/forms/rotate-form-key";
import { updateForm } from "@/lib/forms/update-form";
import { fieldErrors, type FormState } from "@/lib/http/form-state";

const ADMINS_ONLY = "Only owners and admins can change forms.";
const GONE = "This form no longer exists.";
const admin = { roles: ADMIN_ROLES };

function values(form: FormData): Record<string, string> {
  return Object.fromEntries([...form.entries()].map(([k, v]) => [k, String(v)]));
}

/** Runs an Admin+ change; a member gets the permission message instead of an error page. */
async function asAdmin<T>(fn: Parameters<typeof withMember<T>>[0]): Promise<T | { denied: string }> {
  try {
    return await withMember(fn, admin);
  } catch (error) {
    if (error instanceof NotAuthorizedError) return { denied: ADMINS_ONLY };
    throw error;
  }
}
const denied = (r: unknown): r is { denied: string } => typeof r === "object" && r !== null && "denied" in r;

export async function createFormAction(_prev: FormState, form: FormData): Promise<FormState> {
  const parsed = formSettingsSchema.safeParse(values(form));
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values: values(form) };
  const result = await asAdmin((db, ctx) =>
    createForm(db, { workspaceId: ctx.workspace.workspaceId, settings: parsed.data }),
  );
  if (denied(result)) return { message: result.denied, values: values(form) };
  redirect(`/forms/${result.id}`);
}

export async function updateFormAction(formId: string, _prev: FormState, form: FormData): Promise<FormState> {
  const parsed = formSettingsSchema.safeParse(values(form));
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values: values(form) };
  if (!isUuid(formId)) return { message: GONE };
  const result = await asAdmin((db, ctx) =>
    updateForm(db, { workspaceId: ctx.workspace.workspaceId, formId, settings: parsed.data }),
  );
  if (denied(result)) return { message: result.denied, values: values(form) };
  if (!result) return { message: GONE };
  revalidatePath(`/forms/${formId}`);
  return { success: "Form saved.", values: values(form) };
}

export interface KeyState {
  key?: string;
  message?: string;
}

export async function rotateFormKeyAction(formId: string, _prev: KeyState): Promise<KeyState> {
  if (!isUuid(formId)) return { message: GONE };
  const result = await asAdmin((db, ctx) =>
    rotateFormKey(db, { workspaceId: ctx.workspace.workspaceId, formId }),
  );
  if (denied(result)) return { message: result.denied };
  if (!result) return { message: GONE };
  revalidatePath(`/forms/${formId}`);
  return { key: result.key };
}

export async function deleteFormAction(formId: string, _prev: FormState): Promise<FormState> {
  if (!isUuid(formId)) redirect("/forms");
  const result = await asAdmin((db, ctx) =>
    deleteForm(db, { workspaceId: ctx.workspace.workspaceId, formId }),
  );
  if (denied(result)) throw new NotAuthorizedError(ADMINS_ONLY);
  revalidatePath("/forms");
  redirect("/forms");
}

export async function addAutomationAction(
  formId: string,
  _prev: FormState,
  form: FormData,
): Promise<FormState> {
  const parsed = automationActionSchema.safeParse(values(form));
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values: values(form) };
  if (!isUuid(formId)) return { message: GONE };
  const result = await asAdmin((db, ctx) =>
    createFormAutomation(db, { workspaceId: ctx.workspace.workspaceId, formId, action: parsed.data }),
  );
  if (denied(result)) return { message: result.denied, values: values(form) };
  if ("error" in result) return { message: result.error, values: values(form) };
  revalidatePath(`/forms/${formId}`);
  return { success: "Automation added." };
}

export async function removeAutomationAction(
  formId: string,
  _prev: FormState,
  form: FormData,
): Promise<FormState> {
  const automationId = String(form.get("automationId") ?? "");
  if (!isUuid(automationId)) return {};
  const result = await asAdmin((db, ctx) =>
    deleteAutomation(db, { workspaceId: ctx.workspace.workspaceId, automationId }),
  );
  if (denied(result)) throw new NotAuthorizedError(ADMINS_ONLY);
  revalidatePath(`/forms/${formId}`);
  return {};
}
