"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { memberAction } from "@/lib/adapters/member-action";
import { ADMIN_ROLES } from "@/lib/auth/context";
import { enqueuePaymentsBackfill } from "@/lib/payments/enqueue-payments-backfill";

/**
 * "Run the payments backfill" (owners and admins; anyone else is sent back to /payments):
 * enqueued as the service (the job engine's table is the service's) for the member's own
 * workspace; the jobs page shows it.
 */
export const startPaymentsBackfillAction = memberAction(
  z.object({}),
  async (db, _input, ctx): Promise<void> => {
    await enqueuePaymentsBackfill(db, ctx.workspaceId);
    ctx.audit.target("workspace", ctx.workspaceId);
  },
  {
    audit: "payments.backfill_started",
    door: "service",
    roles: ADMIN_ROLES,
    refusal: () => redirect("/payments"),
    after: () => redirect("/jobs"),
  },
);
