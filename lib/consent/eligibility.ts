import type { SuppressionReason } from "./email-status";

export type EmailKind = "marketing" | "transactional";

const HARD: SuppressionReason[] = ["bounce", "complaint", "manual"];

export interface EligibilityInput {
  is_subscribed: boolean;
  unsubscribed_at: Date | string | null;
  suppressions: readonly SuppressionReason[];
}

/**
 * Spec 8.3. Hard suppressions (bounce, complaint, manual) block all email. Marketing needs
 * is_subscribed true, unsubscribed_at null and no suppression of any reason.
 * Returns null when the email may be sent, else the reason it is skipped.
 */
export function ineligibilityReason(kind: EmailKind, contact: EligibilityInput): string | null {
  const hard = HARD.find((reason) => contact.suppressions.includes(reason));
  if (hard) return `${hard} suppression`;
  if (kind === "transactional") return null;
  if (contact.suppressions.length > 0) return `${contact.suppressions[0]} suppression`;
  if (contact.unsubscribed_at) return "unsubscribed";
  if (!contact.is_subscribed) return "not opted in";
  return null;
}

/** Spec 4.8: eligible for transactional email but blocked from marketing. */
export function blockedFromMarketingOnly(contact: EligibilityInput): boolean {
  return (
    ineligibilityReason("transactional", contact) === null &&
    ineligibilityReason("marketing", contact) !== null
  );
}
