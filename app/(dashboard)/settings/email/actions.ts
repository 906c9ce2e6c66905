"use server";

import { revalidatePath } from "next/cache";
import { memberAction } from "@/lib/adapters/member-action";
import { ADMIN_ROLES } from "@/lib/auth/context";
import { brandingSchema, loadBranding, updateBranding } from "@/lib/email/branding";
import { emailSettingsSchema, getEmailSettings, updateEmailSettings } from "@/lib/email/email-settings";
import { unwrap } from "@/lib/errors/app-error";
import type { FormState } from "@/lib/http/form-state";

export const saveEmailSettingsAction = memberAction(
  emailSettingsSchema,
  async (db, input, ctx): Promise<FormState> => {
    const before = await getEmailSettings(db, ctx.workspaceId);
    const after = unwrap(await updateEmailSettings(db, ctx.workspaceId, input));
    ctx.audit.target("workspace", ctx.workspaceId).change({ ...before }, { ...after });
    return { success: "Email settings saved." };
  },
  {
    audit: "email_settings.updated",
    roles: ADMIN_ROLES,
    forbidden: "Only owners and admins can change the email settings.",
    after: () => revalidatePath("/settings/email"),
  },
);

/** The email layout's logo, colours and postal address (docs/decisions.md, "Email templates and scheduled broadcasts"). */
export const saveBrandingAction = memberAction(
  brandingSchema,
  async (db, input, ctx): Promise<FormState> => {
    const before = await loadBranding(db, ctx.workspaceId);
    const after = unwrap(await updateBranding(db, ctx.workspaceId, input));
    ctx.audit.target("workspace", ctx.workspaceId).change({ ...before }, { ...after });
    return { success: "Branding saved." };
  },
  {
    audit: "email_branding.updated",
    roles: ADMIN_ROLES,
    forbidden: "Only owners and admins can change the branding.",
    after: () => revalidatePath("/settings/email"),
  },
);
