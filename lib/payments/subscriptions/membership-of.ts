import type { SubscriptionState } from "./stripe-billing-shapes";

export type MembershipStatus = "active" | "grace" | "lapsed" | "cancelled";

export interface MembershipState {
  status: MembershipStatus;
  memberSince: Date;
  expiresAt: Date | null;
}

/** Stripe's reasons for a cancellation that the member did not ask for: the membership lapsed. */
const LAPSE_REASONS = new Set(["payment_failed", "payment_disputed"]);

/**
 * DESIGN section 9 "Recurring": the membership a subscription gives, from the subscription alone
 * (so it is the same whatever order the events came in):
 * - `active`: Stripe says active or trialing; a cancellation at period end stays active until then;
 * - `grace`: a renewal payment failed (past_due) and Stripe is still retrying within the period;
 * - `lapsed`: unpaid, paused, or cancelled by Stripe for non-payment or a dispute;
 * - `cancelled`: cancelled at the member's or the workspace's request.
 * A subscription whose first payment never succeeded (incomplete, incomplete_expired) gives none.
 * `expires_at` is the end of the period paid or being paid for; for an ended one, when it ended.
 */
export function membershipOf(sub: SubscriptionState): MembershipState | null {
  const memberSince = sub.startedAt;
  const periodEnd = sub.currentPeriodEnd;
  switch (sub.status) {
    case "incomplete":
    case "incomplete_expired":
      return null;
    case "active":
    case "trialing":
      return { status: "active", memberSince, expiresAt: periodEnd };
    case "past_due":
      return { status: "grace", memberSince, expiresAt: periodEnd };
    case "unpaid":
    case "paused":
      return { status: "lapsed", memberSince, expiresAt: sub.currentPeriodStart ?? periodEnd };
    case "canceled":
      return {
        status: sub.cancellationReason && LAPSE_REASONS.has(sub.cancellationReason) ? "lapsed" : "cancelled",
        memberSince,
        expiresAt: sub.endedAt ?? sub.canceledAt ?? periodEnd,
      };
    default:
      return null;
  }
}
