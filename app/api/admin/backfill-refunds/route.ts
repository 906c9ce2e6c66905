import { authorizeBackfill } from "@/lib/payments/authorize-backfill";
import { backfillRefunds } from "@/lib/payments/backfill-refunds";
import { backfillRefundsQuery } from "@/lib/payments/schemas";
import { stripeClient } from "@/lib/payments/stripe-client";

/** Spec 4.12: one page of the refund backfill; pass `nextCursor` back as starting_after. */
export async function GET(request: Request) {
  const parsed = backfillRefundsQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success)
    return Response.json({ success: false, error: parsed.error.issues[0].message }, { status: 400 });
  const q = parsed.data;
  const caller = await authorizeBackfill(request, q.workspace_id);
  if (!caller.ok) return Response.json({ success: false, error: caller.error }, { status: caller.status });
  try {
    const result = await backfillRefunds(
      { stripe: stripeClient() },
      {
        workspaceId: q.workspace_id,
        since: q.since,
        until: q.until,
        startingAfter: q.starting_after ?? q.cursor,
        limit: q.limit,
      },
    );
    if ("error" in result) return Response.json({ success: false, error: result.error }, { status: 409 });
    return Response.json({ success: true, ...result.data });
  } catch (error) {
    console.error("refund backfill failed", error);
    return Response.json(
      { success: false, error: "Stripe could not be reached; nothing was skipped, try the same page again." },
      { status: 502 },
    );
  }
}
