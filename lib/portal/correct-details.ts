import type { Db } from "@/lib/db/doors";
import { PERSON_FIELDS, type ContactRow, type PersonField } from "@/lib/contacts/contact-row";
import { diffContact, writeAuditNote, type FieldChange } from "@/lib/contacts/diff-and-audit";
import { refused, type Result } from "@/lib/errors/app-error";
import { isUuid } from "@/lib/ids/uuid";
import type { Translator } from "@/lib/i18n/translator";
import { recordPortalAudit } from "./portal-audit";
import { sendEmailChangeEmail } from "./portal-emails";
import {
  EMAIL_CHANGE_LINK_MINUTES,
  looksLikePortalToken,
  newPortalToken,
  portalDigest,
  portalUrl,
} from "./portal-links";
import type { PortalSession } from "./portal-session";
import type { PortalDetails } from "./schemas";

/** Who the audit note names (spec 4.10 step 3): the contact, in the portal. */
const VIA = "the contact in the portal";

export const EMAIL_LINK_INVALID = "This confirmation link is not valid any more.";

/** The contact's details as the portal shows them. */
export async function portalDetails(
  db: Db,
  session: PortalSession,
): Promise<Pick<ContactRow, PersonField | "email">> {
  const [row] = await db<Pick<ContactRow, PersonField | "email">[]>`
    select email, ${db.unsafe(PERSON_FIELDS.join(", "))}
    from public.contacts where id = ${session.contactId} and workspace_id = ${session.workspaceId}`;
  return row;
}

/**
 * The contact corrects their details: spec 4.10's diff-and-audit with the contact as the actor.
 * Fields that differ are written (an empty value never clears one, as in 4.10), each change in the
 * system note with its old and new value and in the audit log by name. A new address is not written:
 * a confirmation goes to it (confirmEmailChange writes it once opened).
 */
export async function correctDetails(
  db: Db,
  session: PortalSession,
  input: { details: PortalDetails; ip: string | null; t: Translator },
): Promise<{ changed: PersonField[]; emailConfirmationSent: boolean }> {
  const [stored] = await db<ContactRow[]>`
    select id, workspace_id, email, ${db.unsafe(PERSON_FIELDS.join(", "))}
    from public.contacts where id = ${session.contactId} and workspace_id = ${session.workspaceId}
    for update`;
  const { updates } = diffContact(stored, input.details, "overwrite");
  const changed = Object.keys(updates) as PersonField[];
  if (changed.length > 0) {
    await db`update public.contacts set ${db(updates)}
             where id = ${stored.id} and workspace_id = ${session.workspaceId}`;
    const notes: FieldChange[] = changed.map((field) => ({
      field,
      from: stored[field] ?? "",
      to: updates[field]!,
    }));
    await writeAuditNote(db, stored, notes, VIA);
    await recordPortalAudit(db, {
      workspaceId: session.workspaceId,
      contactId: session.contactId,
      action: "contact.portal_details_corrected",
      after: { fields: changed },
      ip: input.ip,
    });
  }
  const newEmail = input.details.email;
  const emailConfirmationSent = newEmail !== stored.email;
  if (emailConfirmationSent) await requestEmailChange(db, session, { newEmail, ip: input.ip, t: input.t });
  return { changed, emailConfirmationSent };
}

/**
 * A new address waits for its confirmation: a single-use link to it. An address another contact of
 * the workspace has gets no email, and the page says the same either way (no contact learns who
 * else is a contact); confirming it would be refused anyway.
 */
async function requestEmailChange(
  db: Db,
  session: PortalSession,
  input: { newEmail: string; ip: string | null; t: Translator },
): Promise<void> {
  await recordPortalAudit(db, {
    workspaceId: session.workspaceId,
    contactId: session.contactId,
    action: "contact.portal_email_change_requested",
    ip: input.ip,
  });
  const [taken] = await db`
    select 1 from public.contacts where workspace_id = ${session.workspaceId} and email = ${input.newEmail}`;
  if (taken) return;
  const { token, digest } = newPortalToken();
  await db`
    insert into public.portal_links (workspace_id, contact_id, purpose, token_hash, portal_token, new_email, ip, expires_at)
    select workspace_id, id, 'email_change', ${digest}, portal_token, ${input.newEmail}, ${input.ip},
           now() + make_interval(mins => ${EMAIL_CHANGE_LINK_MINUTES})
    from public.contacts where id = ${session.contactId} and workspace_id = ${session.workspaceId}`;
  await sendEmailChangeEmail(
    db,
    {
      workspaceId: session.workspaceId,
      contactId: session.contactId,
      email: input.newEmail,
      workspaceName: session.workspaceName,
    },
    { url: portalUrl(session.workspaceId, "/confirm-email", { token, lang: input.t.locale }), token },
    input.t,
  );
}

/**
 * The new address is confirmed by opening its link (single use): the contact's email becomes it,
 * noted and audited as a correction by the contact. Refused when the link is spent, expired or of
 * another workspace, or when the address became another contact's meanwhile.
 */
export async function confirmEmailChange(
  db: Db,
  input: { workspaceId: string; token: unknown; ip: string | null },
): Promise<Result<{ contactId: string }>> {
  if (!isUuid(input.workspaceId) || !looksLikePortalToken(input.token))
    return refused("not_found", EMAIL_LINK_INVALID);
  const [link] = await db<{ contact_id: string; new_email: string }[]>`
    update public.portal_links set used_at = now()
    where token_hash = ${portalDigest(input.token)} and workspace_id = ${input.workspaceId}
      and purpose = 'email_change' and used_at is null and expires_at > now()
    returning contact_id, new_email`;
  if (!link) return refused("not_found", EMAIL_LINK_INVALID);
  const [before] = await db<{ id: string; workspace_id: string; email: string }[]>`
    select id, workspace_id, email from public.contacts
    where id = ${link.contact_id} and workspace_id = ${input.workspaceId} for update`;
  const [taken] = await db`
    select 1 from public.contacts where workspace_id = ${input.workspaceId} and email = ${link.new_email}`;
  if (!before || taken) return refused("contact_exists", EMAIL_LINK_INVALID);
  await db`update public.contacts set email = ${link.new_email}
           where id = ${before.id} and workspace_id = ${input.workspaceId}`;
  await writeAuditNote(db, before, [{ label: "Email", from: before.email, to: link.new_email }], VIA);
  await recordPortalAudit(db, {
    workspaceId: input.workspaceId,
    contactId: before.id,
    action: "contact.portal_email_changed",
    ip: input.ip,
  });
  return { data: { contactId: before.id } };
}
