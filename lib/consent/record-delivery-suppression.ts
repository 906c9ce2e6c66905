import type { Db } from "@/lib/db/doors";
import { createNotification } from "@/lib/notifications/create-notification";
import { addSuppression } from "./suppressions";

export const PERMANENT_SUPPRESSION_WARNING =
  "This suppression is permanent: a spam complaint is never removed, and this contact will not receive any email (marketing or transactional) again.";

/**
 * Spec 6.1 / 6.3: a delivery failure creates a 'bounce' suppression, a spam report a 'complaint'
 * one (one per reason per contact). A newly created one makes one notification for the
 * workspace with a 'View Contact' link; the complaint's carries the permanent-suppression warning.
 */
export async function recordDeliverySuppression(
  db: Db,
  input: { workspaceId: string; contactId: string; reason: "bounce" | "complaint" },
): Promise<{ created: boolean }> {
  const { created } = await addSuppression(db, {
    ...input,
    flow: input.reason === "bounce" ? "email_bounce" : "email_complaint",
  });
  if (!created) return { created };
  const [contact] = await db`select email from public.contacts where id = ${input.contactId}`;
  const complaint = input.reason === "complaint";
  await createNotification(db, {
    workspaceId: input.workspaceId,
    contactId: input.contactId,
    type: complaint ? "email_complaint" : "email_bounce",
    title: complaint ? `${contact.email} reported your email as spam` : `Email to ${contact.email} bounced`,
    body: complaint
      ? `The contact has been suppressed. ${PERMANENT_SUPPRESSION_WARNING}`
      : "The contact has been suppressed: no more email (marketing or transactional) will be sent to this address until the bounce suppression is removed.",
    actionUrl: `/contacts/${input.contactId}`,
    actionLabel: "View Contact",
  });
  return { created };
}
