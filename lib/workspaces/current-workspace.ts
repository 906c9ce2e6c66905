import type { Membership } from "./list-memberships";

/**
 * The workspace a member works in: the one chosen in the switcher (kept in a cookie, and
 * only if they still belong to it), else the one they joined first, which for a new user
 * is their own from sign-up. Never the one whose name sorts first: anyone could name a
 * workspace "!Acme" (docs/decisions.md, "Invitations instead of direct adds").
 */
export function currentWorkspace(memberships: Membership[], chosen: string | undefined): Membership | null {
  if (memberships.length === 0) return null;
  const picked = memberships.find((m) => m.workspaceId === chosen);
  return picked ?? memberships.reduce((a, b) => (b.joinedAt < a.joinedAt ? b : a));
}
