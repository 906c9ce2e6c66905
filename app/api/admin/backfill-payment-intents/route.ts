import { authorizeBackfill } from "@/lib/payments/authorize-backfill";
import { backfillPaymentIntents } from "@/lib/payments/backfill-payment-intents";
import { backfillIntentsQuery } from "@/lib/payments/schemas";
import { stripeClient } from "@/lib/payments/stripe-client";

/** Spec 4.11: one batch of the payment-intent backfill; `remaining` says how many rows are still null. */
export async function GET(request: Request) {
  const parsed = backfillIntentsQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success)
    return Response.json({ success: false, error: parsed.error.issues[0].message }, { status: 400 });
  const caller = await authorizeBackfill(request, parsed.data.workspace_id);
  if (!caller.ok) return Response.json({ success: false, error: caller.error }, { status: caller.status });
  const result = await backfillPaymentIntents(
    { stripe: stripeClient() },
    { workspaceId: parsed.data.workspace_id, limit: parsed.data.limit },
  );
  if ("error" in result) return Response.json({ success: false, error: result.error }, { status: 409 });
  return Response.json({ success: true, ...result.data });
}
