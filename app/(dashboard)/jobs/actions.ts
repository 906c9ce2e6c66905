"use server";

import { revalidatePath } from "next/cache";
import { ADMIN_ROLES, requireMember } from "@/lib/auth/context";
import { withService } from "@/lib/db/doors";
import { retryWorkspaceJob } from "@/lib/jobs/retry-workspace-job";

/**
 * The retry button of the jobs page (owners and admins). The job schema is closed to members, so
 * the retry runs as the service, for the member's own workspace only (retryWorkspaceJob checks
 * the job carries it).
 */
export async function retryJobAction(form: FormData): Promise<void> {
  const ctx = await requireMember();
  if (!ADMIN_ROLES.includes(ctx.workspace.role)) return;
  const jobId = String(form.get("jobId") ?? "");
  await withService((db) => retryWorkspaceJob(db, { workspaceId: ctx.workspace.workspaceId, jobId }));
  revalidatePath("/jobs");
}
