"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { memberAction } from "@/lib/adapters/member-action";
import { unwrap } from "@/lib/errors/app-error";
import type { FormState } from "@/lib/http/form-state";
import { updateProfile } from "@/lib/profiles/update-profile";
import { renameWorkspace } from "@/lib/workspaces/rename-workspace";
import { setWorkspaceDefaultLocale } from "@/lib/workspaces/default-locale";

const text = z.string().default("");
const refreshLayout = () => revalidatePath("/", "layout");

/** Owners and admins rename the workspace (renameWorkspace refuses the others, in its words). */
export const renameWorkspaceAction = memberAction(
  z.object({ name: text }),
  async (db, { name }, ctx): Promise<FormState> => {
    const renamed = unwrap(await renameWorkspace(db, { workspaceId: ctx.workspaceId, name }));
    ctx.audit
      .target("workspace", ctx.workspaceId)
      .change({ name: ctx.workspace.workspaceName }, { name: renamed.name });
    return { success: "Workspace name saved." };
  },
  { audit: "workspace.updated", after: refreshLayout },
);

/** The member's own name and time zone (their names are redacted from the audit row). */
export const updateProfileAction = memberAction(
  z.object({ firstName: text, lastName: text, timezone: text }),
  async (db, input, ctx): Promise<FormState> => {
    const profile = unwrap(await updateProfile(db, input));
    ctx.audit.target("user", ctx.userId).change(null, { timezone: profile.timezone });
    return { success: "Profile saved." };
  },
  { audit: "account.profile_updated", after: refreshLayout },
);

/**
 * Owners and admins choose the workspace's default language, the last source of a recipient's
 * language before English (docs/decisions.md, "Recipient languages").
 */
export const setWorkspaceLanguageAction = memberAction(
  z.object({ locale: text }),
  async (db, { locale }, ctx): Promise<FormState> => {
    const before = await db<{ default_locale: string }[]>`
      select default_locale from public.workspaces where id = ${ctx.workspaceId}`;
    const saved = unwrap(await setWorkspaceDefaultLocale(db, { workspaceId: ctx.workspaceId, locale }));
    ctx.audit
      .target("workspace", ctx.workspaceId)
      .change({ default_locale: before[0]?.default_locale ?? null }, { default_locale: saved.locale });
    return { success: "Default language saved." };
  },
  { audit: "workspace.updated" },
);
