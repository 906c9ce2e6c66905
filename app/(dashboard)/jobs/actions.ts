"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { memberAction } from "@/lib/adapters/member-action";
import { ADMIN_ROLES } from "@/lib/auth/context";
import { retryWorkspaceJob } from "@/lib/jobs/retry-workspace-job";

/**
 * The retry button of the jobs page (owners and admins). The job schema is closed to members, so
 * the retry runs as the service, for the member's own workspace only (retryWorkspaceJob checks
 * the job carries it; any other id changes nothing and writes no audit row).
 */
export const retryJobAction = memberAction(
  z.object({ jobId: z.string().default("") }),
  async (db, { jobId }, ctx) => {
    const retried = await retryWorkspaceJob(db, { workspaceId: ctx.workspaceId, jobId });
    ctx.audit.target("job", jobId);
    return { retried };
  },
  {
    roles: ADMIN_ROLES,
    door: "service",
    audit: (_input, { retried }) => (retried ? "job.retried" : null),
    after: () => revalidatePath("/jobs"),
  },
);
