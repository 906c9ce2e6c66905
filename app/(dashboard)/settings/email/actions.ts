"use server";

import { revalidatePath } from "next/cache";
import { ADMIN_ROLES, withMember } from "@/lib/auth/context";
import { emailSettingsSchema, updateEmailSettings } from "@/lib/email/email-settings";
import { fieldErrors, type FormState } from "@/lib/http/form-state";

export async function saveEmailSettingsAction(_prev: FormState, form: FormData): Promise<FormState> {
  const values = Object.fromEntries(form) as Record<string, string>;
  const parsed = emailSettingsSchema.safeParse(values);
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values };
  const result = await withMember(
    (db, ctx) => updateEmailSettings(db, ctx.workspace.workspaceId, parsed.data),
    {
      roles: ADMIN_ROLES,
    },
  ).catch(() => ({ error: "Only owners and admins can change the email settings." }));
  if ("error" in result) return { message: result.error, values };
  revalidatePath("/settings/email");
  return { success: "Email settings saved." };
}
