import { serviceRoute } from "@/lib/adapters/service-route";
import { BACKFILL_CALLERS, backfillIntentsPage } from "@/lib/payments/flows/backfill-page";
import { backfillIntentsQuery } from "@/lib/payments/schemas";

/** Spec 4.11: one batch of the payment-intent backfill; `remaining` says how many rows are still null. */
export const GET = serviceRoute(
  { name: "payment-intent backfill", query: backfillIntentsQuery, members: BACKFILL_CALLERS },
  async (_request, query) =>
    Response.json({
      success: true,
      ...(await backfillIntentsPage({ workspaceId: query.workspace_id, limit: query.limit })),
    }),
);
