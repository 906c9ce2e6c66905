import { asService, type Db } from "@/lib/db/doors";
import { sendEmail } from "@/lib/email/send-email";
import type { Result } from "@/lib/errors/app-error";
import type { EventRow } from "../event-row";
import { recipientLocale } from "@/lib/i18n/recipient-locale";
import { translator } from "@/lib/i18n/translator";
import { rsvpConfirmationEmail } from "../rsvp/rsvp-confirmation-email";
import { issueTicket } from "../tickets/issue-ticket";
import { claimOffer } from "./offers";

/**
 * A waitlist offer claimed through its link (GET /rsvp/{event_id}/claim?token=…, which posts to
 * POST /api/rsvp/{event_id}/claim): the seat becomes a registration and its confirmation goes out
 * as an RSVP's does, with its signed ticket, in the contact's language. Refusals (wrong token, used, expired) change nothing.
 */
export async function claimOfferAndConfirm(
  db: Db,
  input: { eventId: string; token: string; now?: Date },
): Promise<Result<{ registrationId: string }>> {
  const claimed = await claimOffer(db, input);
  if ("error" in claimed) return claimed;
  return asService(db, async () => {
    const [event] = await db<EventRow[]>`select * from public.events where id = ${input.eventId}`;
    const [contact] = await db<{ email: string; first_name: string | null }[]>`
      select email, first_name from public.contacts
      where id = ${claimed.data.contactId} and workspace_id = ${claimed.data.workspaceId}`;
    const ids = { workspaceId: claimed.data.workspaceId, contactId: claimed.data.contactId };
    const t = translator(await recipientLocale(db, ids), event.timezone);
    const ticket = await issueTicket(db, { ...ids, registrationId: claimed.data.registrationId });
    await sendEmail(db, {
      ...ids,
      to: contact.email,
      kind: "transactional",
      ...rsvpConfirmationEmail(event, contact.first_name, t, ticket),
    });
    return { data: { registrationId: claimed.data.registrationId } };
  });
}
