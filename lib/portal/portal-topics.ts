import type { Db } from "@/lib/db/doors";
import { signLink } from "@/lib/crypto/signed-link";
import { getPreferenceCentre, savePreferences, type PreferenceCentre } from "@/lib/consent/topic-consent";
import { unsubscribeContact } from "@/lib/consent/unsubscribe-contact";
import type { Result } from "@/lib/errors/app-error";
import { recordPortalAudit } from "./portal-audit";
import type { PortalSession } from "./portal-session";

/** What the portal's topics section shows: the preference centre of the session's contact. */
export async function portalTopics(
  db: Db,
  session: PortalSession,
): Promise<(PreferenceCentre & { subscribed: boolean; subscribeSignature: string }) | null> {
  const centre = await getPreferenceCentre(db, session.contactId);
  if (!centre) return null;
  const [row] = await db<{ subscribed: boolean }[]>`
    select is_subscribed and unsubscribed_at is null as subscribed
    from public.contacts where id = ${session.contactId} and workspace_id = ${session.workspaceId}`;
  const subject = { workspaceId: session.workspaceId, contactId: session.contactId };
  return { ...centre, subscribed: row.subscribed, subscribeSignature: signLink("subscribe", subject) };
}

/**
 * Topics and consent in the portal: the preference centre's save (docs/decisions.md, "Subscription
 * topics"), with the ledger entries it writes. The session proves the person as the email link's
 * signature does, so the portal signs for its own contact; the contact id is the session's.
 */
export async function savePortalTopics(
  db: Db,
  session: PortalSession,
  input: { topicIds: readonly unknown[]; ip: string | null },
): Promise<Result<{ joined: number; left: number }>> {
  const subject = { workspaceId: session.workspaceId, contactId: session.contactId };
  const result = await savePreferences(db, {
    contactId: session.contactId,
    topicIds: input.topicIds,
    ip: input.ip,
    signature: signLink("preferences", subject),
  });
  if ("data" in result && result.data.joined + result.data.left > 0)
    await recordPortalAudit(db, {
      workspaceId: session.workspaceId,
      contactId: session.contactId,
      action: "contact.portal_topics_changed",
      after: result.data,
      ip: input.ip,
    });
  return result;
}

/** A workspace without topics: the spec's unsubscribe from everything (4.7), from the portal. */
export async function portalUnsubscribe(db: Db, session: PortalSession, ip: string | null): Promise<void> {
  const result = await unsubscribeContact(db, {
    contactId: session.contactId,
    workspaceId: session.workspaceId,
    flow: "unsubscribe_link",
    ip,
  });
  if ("data" in result && result.data.changed)
    await recordPortalAudit(db, {
      workspaceId: session.workspaceId,
      contactId: session.contactId,
      action: "contact.portal_topics_changed",
      after: { unsubscribed: true },
      ip,
    });
}
