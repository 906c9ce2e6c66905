import { serviceRoute } from "@/lib/adapters/service-route";
import { BACKFILL_CALLERS, backfillRefundsPage } from "@/lib/payments/flows/backfill-page";
import { backfillRefundsQuery } from "@/lib/payments/schemas";

/** Spec 4.12: one page of the refund backfill; pass `nextCursor` back as starting_after. */
export const GET = serviceRoute(
  { name: "refund backfill", query: backfillRefundsQuery, members: BACKFILL_CALLERS },
  async (_request, q) =>
    Response.json({
      success: true,
      ...(await backfillRefundsPage({
        workspaceId: q.workspace_id,
        since: q.since,
        until: q.until,
        startingAfter: q.starting_after ?? q.cursor,
        limit: q.limit,
      })),
    }),
);
