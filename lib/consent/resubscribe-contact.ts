import type { Db } from "@/lib/db/doors";
import { verifyLink } from "@/lib/crypto/signed-link";
import { changeContactConsent } from "./change-contact-consent";
import { loadConsentState } from "./load-consent-state";
import { refused, type Refused } from "@/lib/errors/app-error";

/** Why a re-subscribe was refused: a fixed set of codes, each with its own page text. */
export type ResubscribeError = "not_found" | "complaint" | "bounce";

export const RESUBSCRIBE_ERROR_MESSAGES: Record<ResubscribeError, string> = {
  not_found: "This subscribe link is not valid. It may have been mistyped or the contact removed.",
  complaint:
    "This address reported our email as spam, so it cannot be re-subscribed. Please contact us directly if this was a mistake.",
  bounce:
    "Email to this address could not be delivered (it bounced), so it cannot be re-subscribed. Please contact us to update your address.",
};

/** A refusal with its reason, the page's own code (`/subscribe/error?reason=`). */
export type ResubscribeRefused = Refused & { reason: ResubscribeError };

function refusal(reason: ResubscribeError): ResubscribeRefused {
  const code = reason === "not_found" ? "not_found" : "suppressed";
  return { ...refused(code, RESUBSCRIBE_ERROR_MESSAGES[reason]), reason };
}

export function isResubscribeError(value: unknown): value is ResubscribeError {
  return typeof value === "string" && Object.hasOwn(RESUBSCRIBE_ERROR_MESSAGES, value);
}

/**
 * Spec 4.6, GET /api/subscribe/{contact_id}: refused past a bounce or complaint suppression;
 * otherwise is_subscribed true, unsubscribed_at null, 'unsubscribe' and 'manual' suppressions
 * deleted, opt-in IP and time recorded. An already subscribed contact keeps its consent proof
 * and has only a stale unsubscribed_at or leftover soft suppressions cleaned (step 3).
 *
 * A member's 'manual' block is cleared only by a link we signed for the contact (`?sig=`, the
 * subscribe footer of 4.8; docs/decisions.md "Signed recipient links"): with the contact id alone
 * the link is refused as unknown and nothing changes.
 */
export async function resubscribeContact(
  db: Db,
  input: { contactId: string; ip?: string | null; signature?: unknown },
): Promise<{ data: { changed: boolean } } | ResubscribeRefused> {
  const state = await loadConsentState(db, { contactId: input.contactId });
  if (!state) return refusal("not_found");
  if (state.suppressions.includes("complaint")) return refusal("complaint");
  if (state.suppressions.includes("bounce")) return refusal("bounce");
  const subject = { workspaceId: state.workspace_id, contactId: state.id };
  if (state.suppressions.includes("manual") && !verifyLink("subscribe", subject, input.signature))
    return refusal("not_found");

  const clean =
    state.is_subscribed &&
    !state.unsubscribed_at &&
    !state.suppressions.some((r) => r === "unsubscribe" || r === "manual");
  if (clean) return { data: { changed: false } };

  const refused = await changeContactConsent(db, "resubscribe_link", state, { ip: input.ip });
  if (refused) throw new Error(refused.skip);
  return { data: { changed: true } };
}
