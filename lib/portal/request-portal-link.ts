import type { Db } from "@/lib/db/doors";
import { portalTranslator, type PortalLocaleSources } from "./portal-locale";
import { recordPortalAudit } from "./portal-audit";
import { sendPortalLinkEmail } from "./portal-emails";
import { newPortalToken, PORTAL_LINK_MINUTES, portalUrl } from "./portal-links";

/**
 * DESIGN.md section 9: `POST /api/portal/{workspace_id}/link` with an address. A contact of that
 * workspace with that address gets a single-use link to `{base_url}/portal/{workspace_id}/enter`,
 * valid PORTAL_LINK_MINUTES (docs/decisions.md, "Portal sessions"):
 * - its portal token rotates, and the link is bound to the new value: an earlier link of the
 *   contact stops working, so only the newest one opens;
 * - the link's digest is stored, the token only in the email (redacted from the members' copy);
 * - the issue is audited on the contact.
 * Any other address (another workspace's, unknown, malformed) does nothing: the caller answers the
 * same either way, and this does its work inside the one transaction with no provider call, so the
 * answer takes about as long (the email is queued, never sent here).
 */
export async function requestPortalLink(
  db: Db,
  input: {
    workspaceId: string;
    email: string;
    ip: string | null;
    locale: Pick<PortalLocaleSources, "lang" | "acceptLanguage">;
  },
): Promise<void> {
  const email = input.email.trim().toLowerCase();
  const { token, digest } = newPortalToken();
  const [contact] = await db<
    {
      id: string;
      email: string;
      portal_token: string;
      workspace_name: string;
      locale: string | null;
      default_locale: string;
    }[]
  >`
    update public.contacts c set portal_token = gen_random_uuid()
    from public.workspaces w
    where w.id = c.workspace_id and c.workspace_id = ${input.workspaceId} and c.email = ${email}
    returning c.id, c.email, c.portal_token, w.name as workspace_name, c.locale, w.default_locale`;
  if (!contact) return;
  // the page's choice, then the contact's own language, then the browser's, then the workspace's
  const t = portalTranslator({
    ...input.locale,
    contactLocale: contact.locale,
    workspaceDefault: contact.default_locale,
  });
  await db`
    insert into public.portal_links (workspace_id, contact_id, purpose, token_hash, portal_token, ip, expires_at)
    values (${input.workspaceId}, ${contact.id}, 'sign_in', ${digest}, ${contact.portal_token}, ${input.ip},
            now() + make_interval(mins => ${PORTAL_LINK_MINUTES}))`;
  await sendPortalLinkEmail(
    db,
    {
      workspaceId: input.workspaceId,
      contactId: contact.id,
      email: contact.email,
      workspaceName: contact.workspace_name,
    },
    { url: portalUrl(input.workspaceId, "/enter", { token, lang: t.locale }), token },
    t,
  );
  await recordPortalAudit(db, {
    workspaceId: input.workspaceId,
    contactId: contact.id,
    action: "contact.portal_link_sent",
    ip: input.ip,
  });
}
