import type { Claims } from "@/lib/db/doors";

/**
 * Step-up (docs/decisions.md "A second factor", "Step-up everywhere it guards"): privacy export and
 * erasure, API keys, roles and invitations to owner or admin, members' removal, webhook endpoints,
 * the workspace's two-factor requirement, CSV exports, backfills and the account's own second
 * factor need the session's latest proof of its owner to be at most this old.
 */
export const STEP_UP_WINDOW_SECONDS = 10 * 60;

/** The `amr` methods that prove the second factor (ours, and Supabase's MFA names). */
function isSecondFactor(method: string): boolean {
  return method === "totp" || method === "recovery" || method.startsWith("mfa/");
}

/**
 * When the session last proved its owner (Unix seconds), 0 when it cannot say. A two-factor
 * session (aal2) proves it only with its second factor: a password given again (a password
 * change) is one factor, and a stolen session may know it.
 */
export function lastAuthenticatedAt(claims: Pick<Claims, "amr" | "aal">): number {
  const entries = (claims.amr ?? []).filter((entry) => claims.aal !== "aal2" || isSecondFactor(entry.method));
  return Math.max(0, ...entries.map((entry) => entry.timestamp));
}

export function stepUpFresh(claims: Pick<Claims, "amr" | "aal">, now = Date.now()): boolean {
  return now / 1000 - lastAuthenticatedAt(claims) <= STEP_UP_WINDOW_SECONDS;
}
