"use server";

import { revalidatePath } from "next/cache";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { memberAction } from "@/lib/adapters/member-action";
import { userAction } from "@/lib/adapters/user-action";
import { chooseWorkspace, WORKSPACE_COOKIE } from "@/lib/auth/session";
import { unwrap } from "@/lib/errors/app-error";
import type { FormState } from "@/lib/http/form-state";
import { createWorkspaceFlow } from "@/lib/workspaces/flows/create-workspace-flow";
import { removeMember } from "@/lib/workspaces/remove-member";

const text = z.string().default("");

/**
 * Switches the current workspace; only to one the member belongs to. Audit: none, the cookie
 * changes which of their workspaces they see, not what they may do.
 */
export const switchWorkspaceAction = memberAction(
  z.object({ workspaceId: text }),
  async (_db, { workspaceId }, ctx) => ({
    workspaceId: ctx.memberships.some((m) => m.workspaceId === workspaceId) ? workspaceId : null,
  }),
  {
    audit: false,
    after: async ({ workspaceId }) => {
      if (workspaceId) await chooseWorkspace(workspaceId);
      redirect("/contacts");
    },
  },
);

/**
 * Creates a workspace owned by the signed-in user (who may be in none yet, so this is no member
 * action: a user action, and the flow writes the new workspace's first audit row).
 */
export const createWorkspaceAction = userAction(
  "create workspace",
  z.object({ name: text }),
  async ({ name }, { claims, ip }): Promise<FormState> => {
    const { workspaceId } = unwrap(await createWorkspaceFlow(claims, { name, ip }));
    await chooseWorkspace(workspaceId);
    redirect("/contacts");
  },
);

/**
 * The member leaves their current workspace (the last owner cannot) and goes to another one.
 * The audit row comes first: once they are gone, RLS no longer lets them write it.
 */
export const leaveWorkspaceAction = memberAction(
  z.object({}),
  async (db, _input, ctx): Promise<FormState> => {
    unwrap(await removeMember(db, { workspaceId: ctx.workspaceId, userId: ctx.userId }));
    return {};
  },
  {
    audit: "member.left",
    auditFirst: true,
    after: async () => {
      (await cookies()).delete(WORKSPACE_COOKIE);
      revalidatePath("/", "layout");
      redirect("/contacts");
    },
  },
);
