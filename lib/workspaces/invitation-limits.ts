import type { Db } from "@/lib/db/doors";
import { checkRateLimit } from "@/lib/rate-limit/check-rate-limit";

/**
 * How many invitation emails (new or resent) may leave per inviter and per workspace, as
 * [limit, window in seconds]. An invitation is email from our own sender to any address, so
 * both buckets bound what one account, or one workspace's several admins, can send: far above
 * a team being set up, far below a mailing.
 */
export const INVITATION_LIMITS = {
  perInviter: [20, 3600],
  perWorkspace: [100, 86_400],
} as const;

export const TOO_MANY_INVITATIONS = "Too many invitations were sent. Wait a while, then try again.";

/**
 * Counts one invitation email against the inviter's and the workspace's buckets; true when both
 * still have room. As the service, in a transaction of its own (check_rate_limit is service-only,
 * and a refused action must not roll the count back).
 */
export async function invitationAllowed(
  db: Db,
  who: { userId: string; workspaceId: string },
): Promise<boolean> {
  const byInviter = await checkRateLimit(db, `invite:user:${who.userId}`, ...INVITATION_LIMITS.perInviter);
  const byWorkspace = await checkRateLimit(
    db,
    `invite:workspace:${who.workspaceId}`,
    ...INVITATION_LIMITS.perWorkspace,
  );
  return byInviter.allowed && byWorkspace.allowed;
}
