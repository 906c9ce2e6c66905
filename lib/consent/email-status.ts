export type SuppressionReason = "bounce" | "complaint" | "unsubscribe" | "manual";
export type EmailStatus = "Spam" | "Bounced" | "Unsubscribed" | "Subscribed" | "Not Opted In";

/**
 * Spec 3.4: the email status badge, derived, highest priority first.
 * Spam (complaint) > Bounced (bounce) > Unsubscribed (unsubscribed_at set) > Subscribed > Not Opted In.
 */
export function emailStatus(
  contact: { is_subscribed: boolean; unsubscribed_at: Date | string | null },
  suppressions: readonly { reason: string }[] | readonly string[],
): EmailStatus {
  const reasons = new Set(suppressions.map((s) => (typeof s === "string" ? s : s.reason)));
  if (reasons.has("complaint")) return "Spam";
  if (reasons.has("bounce")) return "Bounced";
  if (contact.unsubscribed_at) return "Unsubscribed";
  if (contact.is_subscribed) return "Subscribed";
  return "Not Opted In";
}
