import { appUrl } from "@/lib/config";
import { looksLikeLinkToken, linkDigest, newLinkToken } from "@/lib/auth/account-links";

/**
 * The portal's emailed links and sessions (DESIGN.md section 9, "Portal and languages"; docs/decisions.md,
 * "Portal sessions"): the same token shape as the account links (256 random bits, base64url, only in
 * the email or the cookie; the database keeps the SHA-256 hex digest).
 */
export const PORTAL_LINK_MINUTES = 15;
export const EMAIL_CHANGE_LINK_MINUTES = 60 * 24;
/** A portal session lives an hour from its link, not renewed: a shared computer forgets it soon. */
export const PORTAL_SESSION_MINUTES = 60;
export const PORTAL_COOKIE = "crm_portal";

export const newPortalToken = newLinkToken;
export const portalDigest = linkDigest;
export const looksLikePortalToken = (value: unknown): value is string =>
  typeof value === "string" && looksLikeLinkToken(value);

/** `{base_url}/portal/{workspace_id}{path}` with its query (the contract's paths). */
export function portalUrl(
  workspaceId: string,
  path: "" | "/enter" | "/me" | "/confirm-email" = "",
  query: Record<string, string | null | undefined> = {},
): string {
  const search = new URLSearchParams(
    Object.entries(query).filter((entry): entry is [string, string] => Boolean(entry[1])),
  ).toString();
  return `${appUrl()}/portal/${workspaceId}${path}${search ? `?${search}` : ""}`;
}

/** The path of a portal page (for redirects inside the site), with its query. */
export function portalPath(
  workspaceId: string,
  path: "" | "/enter" | "/me" | "/confirm-email" = "",
  query: Record<string, string | null | undefined> = {},
): string {
  return portalUrl(workspaceId, path, query).slice(appUrl().length);
}
