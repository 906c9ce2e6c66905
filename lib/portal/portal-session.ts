import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import { isUuid } from "@/lib/ids/uuid";
import { recordPortalAudit } from "./portal-audit";
import { looksLikePortalToken, newPortalToken, portalDigest, PORTAL_SESSION_MINUTES } from "./portal-links";

/** Why a link does not open: expired, used, another workspace's, or never issued; one answer for all. */
export const LINK_INVALID = "This link is not valid any more: it has expired or was used already.";

/** A signed-in contact: the session's own contact and workspace, the only ones the portal reaches. */
export interface PortalSession {
  sessionId: string;
  workspaceId: string;
  workspaceName: string;
  contactId: string;
  email: string;
  expiresAt: Date;
  /** the contact's language (contacts.locale) and the workspace's default, for portalLocale */
  contactLocale: string | null;
  workspaceDefault: string;
}

/** Whether a sign-in link is open (its page offers to continue; nothing is spent). */
export async function portalLinkOpen(
  db: Db,
  input: { workspaceId: string; token: unknown },
): Promise<boolean> {
  if (!isUuid(input.workspaceId) || !looksLikePortalToken(input.token)) return false;
  const [row] = await db`
    select 1 from public.portal_links l
    join public.contacts c on c.id = l.contact_id and c.workspace_id = l.workspace_id
    where l.token_hash = ${portalDigest(input.token)} and l.workspace_id = ${input.workspaceId}
      and l.purpose = 'sign_in' and l.used_at is null and l.expires_at > now()
      and c.portal_token = l.portal_token`;
  return Boolean(row);
}

/**
 * Following the emailed link (docs/decisions.md, "Portal sessions"): the link is spent in the same
 * statement that checks it (used_at set only where it was null, so two requests with one link open
 * one session at most), and only while the contact's portal token is still the one it was issued
 * with. A session bound to that contact and workspace opens; its token goes to the cookie, its
 * digest to portal_sessions.
 */
export async function enterPortal(
  db: Db,
  input: { workspaceId: string; token: unknown; ip: string | null },
): Promise<Result<{ token: string; expiresAt: Date; contactId: string }>> {
  if (!isUuid(input.workspaceId) || !looksLikePortalToken(input.token))
    return refused("not_found", LINK_INVALID);
  const [link] = await db<{ contact_id: string }[]>`
    update public.portal_links l set used_at = now()
    from public.contacts c
    where l.token_hash = ${portalDigest(input.token)} and l.workspace_id = ${input.workspaceId}
      and l.purpose = 'sign_in' and l.used_at is null and l.expires_at > now()
      and c.id = l.contact_id and c.workspace_id = l.workspace_id and c.portal_token = l.portal_token
    returning l.contact_id`;
  if (!link) return refused("not_found", LINK_INVALID);
  const { token, digest } = newPortalToken();
  const [session] = await db<{ expires_at: Date }[]>`
    insert into public.portal_sessions (workspace_id, contact_id, token_hash, ip, expires_at)
    values (${input.workspaceId}, ${link.contact_id}, ${digest}, ${input.ip},
            now() + make_interval(mins => ${PORTAL_SESSION_MINUTES}))
    returning expires_at`;
  await recordPortalAudit(db, {
    workspaceId: input.workspaceId,
    contactId: link.contact_id,
    action: "contact.portal_signed_in",
    ip: input.ip,
  });
  return { data: { token, expiresAt: session.expires_at, contactId: link.contact_id } };
}

/**
 * The session a cookie's token names, for the workspace of the page's path only: a session of
 * another workspace, a revoked or expired one, or one whose contact is gone is none.
 */
export async function findPortalSession(
  db: Db,
  input: { workspaceId: string; token: unknown },
): Promise<PortalSession | null> {
  if (!isUuid(input.workspaceId) || !looksLikePortalToken(input.token)) return null;
  const [row] = await db<PortalSession[]>`
    select s.id as "sessionId", s.workspace_id as "workspaceId", w.name as "workspaceName",
           s.contact_id as "contactId", c.email, s.expires_at as "expiresAt",
           c.locale as "contactLocale", w.default_locale as "workspaceDefault"
    from public.portal_sessions s
    join public.contacts c on c.id = s.contact_id and c.workspace_id = s.workspace_id
    join public.workspaces w on w.id = s.workspace_id
    where s.token_hash = ${portalDigest(input.token)} and s.workspace_id = ${input.workspaceId}
      and s.revoked_at is null and s.expires_at > now()`;
  return row ?? null;
}

/** Sign-out: the session is revoked (its cookie is then worth nothing, wherever it was copied). */
export async function endPortalSession(db: Db, session: PortalSession, ip: string | null): Promise<void> {
  await db`update public.portal_sessions set revoked_at = now()
           where id = ${session.sessionId} and workspace_id = ${session.workspaceId} and revoked_at is null`;
  await recordPortalAudit(db, {
    workspaceId: session.workspaceId,
    contactId: session.contactId,
    action: "contact.portal_signed_out",
    ip,
  });
}
