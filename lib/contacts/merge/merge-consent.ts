import type { ContactRow } from "@/lib/contacts/contact-row";

export type ConsentFields = Pick<
  ContactRow,
  "is_subscribed" | "opt_in_timestamp" | "opt_in_source" | "opt_in_ip" | "unsubscribed_at"
>;

/**
 * The consent of the merged contact (docs/decisions.md, "Merging contacts"), the strictest of the
 * two: a withdrawal on either side (unsubscribed_at set, or an 'unsubscribe' suppression) wins
 * over an opt-in on the other, because both records are the same person (spec 3.3, 8.3). The
 * merged contact is subscribed only when at least one side is and neither withdrew; its opt-in
 * proof is the subscribed side's (A's first). Suppressions are not decided here: every reason
 * on either side is kept (merge-dependents.ts), so a bounce, complaint or manual block on either
 * blocks all email, as spec 8.3 says. A member may subscribe the merged contact again through
 * the manual subscribe flow (spec 4.9).
 */
export function mergeConsent(
  a: ConsentFields,
  b: ConsentFields,
  suppressionReasons: readonly string[],
): ConsentFields {
  const withdrawals = [a.unsubscribed_at, b.unsubscribed_at].filter((d): d is Date => d !== null);
  const withdrew = withdrawals.length > 0 || suppressionReasons.includes("unsubscribe");
  const proof = a.opt_in_timestamp || a.is_subscribed ? a : b.opt_in_timestamp || b.is_subscribed ? b : a;
  const evidence = {
    opt_in_timestamp: proof.opt_in_timestamp,
    opt_in_source: proof.opt_in_source,
    opt_in_ip: proof.opt_in_ip,
  };
  if (withdrew) {
    const latest = withdrawals.sort((x, y) => y.getTime() - x.getTime())[0] ?? new Date();
    return { ...evidence, is_subscribed: false, unsubscribed_at: latest };
  }
  return { ...evidence, is_subscribed: a.is_subscribed || b.is_subscribed, unsubscribed_at: null };
}

/** Spec 3.4's cleanly subscribed state, as the consent ledger and the webhooks read it. */
export const subscribedState = (c: ConsentFields) => c.is_subscribed && c.unsubscribed_at === null;
