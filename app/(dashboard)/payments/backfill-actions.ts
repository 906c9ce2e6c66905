"use server";

import { redirect } from "next/navigation";
import { ADMIN_ROLES, requireMember } from "@/lib/auth/context";
import { withService } from "@/lib/db/doors";
import { enqueuePaymentsBackfill } from "@/lib/payments/enqueue-payments-backfill";

/**
 * "Run the payments backfill" (owners and admins): enqueued as the service (the job engine's
 * table is the service's) for the member's own workspace; the jobs page shows it.
 */
export async function startPaymentsBackfillAction(): Promise<void> {
  const ctx = await requireMember();
  if (!ADMIN_ROLES.includes(ctx.workspace.role)) redirect("/payments");
  await withService((db) => enqueuePaymentsBackfill(db, ctx.workspace.workspaceId));
  redirect("/jobs");
}
