import "server-only";
import Stripe from "stripe";
import { logUnexpected } from "@/lib/adapters/log-unexpected";
import { AppError } from "@/lib/errors/app-error";
import { backfillPaymentIntents, type BackfillIntentsResult } from "./backfill-payment-intents";
import { backfillRefunds, type BackfillRefundsInput, type BackfillRefundsResult } from "./backfill-refunds";
import { stripeClient } from "../stripe-client";

/**
 * The backfill endpoints accept `Authorization: Bearer <SERVICE_API_KEY>` or a signed-in owner
 * or admin of the workspace they name, calling from this site (serviceRoute checks Sec-Fetch-Site);
 * the backfill itself then runs as the service (docs/decisions.md, "Payment backfills").
 */
export const BACKFILL_CALLERS = {
  roles: ["owner", "admin"],
  refusal: "Only owners and admins of this workspace can run backfills.",
  anonymous: "Sign in as an owner or admin, or send Authorization: Bearer <service key>.",
} as const;

export const STRIPE_UNREACHABLE =
  "Stripe could not be reached; nothing was skipped, try the same page again.";

/** Spec 4.11 as the admin endpoint runs it: one batch; no connection is a conflict (409). */
export async function backfillIntentsPage(input: {
  workspaceId: string;
  limit?: number;
}): Promise<BackfillIntentsResult> {
  const result = await backfillPaymentIntents({ stripe: stripeClient() }, input);
  if ("error" in result) throw result.error;
  return result.data;
}

/**
 * Spec 4.12 as the admin endpoint runs it: one page; no connection is a conflict (409), and a
 * Stripe call that still fails after the retries is `provider_failed` (502): the page moved no
 * cursor, so the caller sends the same page again.
 */
export async function backfillRefundsPage(input: BackfillRefundsInput): Promise<BackfillRefundsResult> {
  const result = await backfillRefunds({ stripe: stripeClient() }, input).catch((error: unknown) => {
    if (!(error instanceof Stripe.errors.StripeError)) throw error;
    logUnexpected("refund backfill (Stripe)", error);
    throw new AppError("provider_failed", STRIPE_UNREACHABLE, { cause: error });
  });
  if ("error" in result) throw result.error;
  return result.data;
}
