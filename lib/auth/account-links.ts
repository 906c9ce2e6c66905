import { appUrl } from "@/lib/config";
import { looksLikeToken, newVerificationToken, verificationDigest } from "@/lib/forms/verification-token";

/**
 * The emailed links (docs/decisions.md, "Sign-up by emailed link": sign-up confirmation, password reset,
 * workspace invitation): 256 random bits, base64url, sent only in the email; the database keeps the SHA-256
 * hex digest. The same token shape as the form verification links (lib/forms/verification-token).
 */
export const newLinkToken = newVerificationToken;
export const linkDigest = verificationDigest;
export const looksLikeLinkToken = looksLikeToken;

export const SIGN_UP_LINK_HOURS = 24;
export const RESET_LINK_MINUTES = 60;
export const INVITATION_DAYS = 7;

export function accountLinkUrl(
  path: "/confirm-email" | "/reset-password" | "/invitations/accept",
  token: string,
) {
  return `${appUrl()}${path}?token=${encodeURIComponent(token)}`;
}

/** A `next` path after sign-in: only a path of this site (never `//host` or a full URL). */
export function safeNextPath(next: unknown): string | null {
  if (typeof next !== "string" || !/^\/(?![/\\])[\x21-\x7e]*$/.test(next)) return null;
  return next;
}
