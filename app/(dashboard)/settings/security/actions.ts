"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { memberAction } from "@/lib/adapters/member-action";
import { AppError } from "@/lib/errors/app-error";
import type { FormState } from "@/lib/http/form-state";
import { setTwoFactorRequirement } from "@/lib/two-factor/workspace-requirement";

const OWNERS_ONLY = "Only owners can change the workspace's security settings.";

/**
 * "Members must use two-factor": owners only, through the service door (members hold no
 * privilege on workspace_security). An owner turns it on only with two-factor on themselves,
 * so the requirement never sends its author away from the page that set it. Turning it off
 * needs a step-up (a code): a stolen session must not lower the workspace's bar.
 */
export const setTwoFactorRequirementAction = memberAction(
  z.object({ required: z.preprocess((value) => value === "on" || value === true, z.boolean()) }),
  async (db, { required }, ctx): Promise<FormState> => {
    if (required && ctx.claims.aal !== "aal2")
      throw new AppError("invalid", "Turn on two-factor authentication for your own account first.");
    const changed = await setTwoFactorRequirement(db, { workspaceId: ctx.workspaceId, required });
    ctx.audit
      .target("workspace", ctx.workspaceId)
      .change(changed ? { requireTwoFactor: changed.before } : null, {
        requireTwoFactor: required,
      });
    return {
      success: required
        ? "Members must now use two-factor authentication."
        : "Two-factor authentication is no longer required.",
    };
  },
  {
    audit: "workspace.two_factor_requirement_changed",
    door: "service",
    roles: ["owner"],
    forbidden: OWNERS_ONLY,
    stepUp: ({ required }) => !required,
    after: () => revalidatePath("/settings/security"),
  },
);
