import type { Claims } from "@/lib/db/doors";

/**
 * Step-up (docs/decisions.md "A second factor"): privacy export
 * and erasure, API key creation, role changes and webhook endpoint changes need the session's
 * latest authentication (its newest `amr` entry: a password or a code) to be at most this old.
 */
export const STEP_UP_WINDOW_SECONDS = 10 * 60;

/** When the session last proved its owner (Unix seconds), 0 when it cannot say. */
export function lastAuthenticatedAt(claims: Pick<Claims, "amr">): number {
  return Math.max(0, ...(claims.amr ?? []).map((entry) => entry.timestamp));
}

export function stepUpFresh(claims: Pick<Claims, "amr">, now = Date.now()): boolean {
  return now / 1000 - lastAuthenticatedAt(claims) <= STEP_UP_WINDOW_SECONDS;
}
