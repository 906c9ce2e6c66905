import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import { ensurePrivacySalt } from "./erased-addresses";

export interface EraseContactInput {
  workspaceId: string;
  contactId: string;
  /** what the member typed: must be the contact's email address */
  confirmation: string;
  actorUserId: string | null;
}

/**
 * GDPR article 17, in the caller's transaction (as the system, after the caller's role was
 * checked). Nothing is written unless the typed confirmation is the contact's address.
 * 1. Rows that keep existing without the contact (spec 2.4.2 'set null': tasks, email sends,
 *    and notifications, automation runs) are made anonymous first, while they still point at
 *    the contact: no address, no copy of the email sent, no link to the contact; the email
 *    events of those sends lose the IP address, user agent and link query.
 * 2. Staged form submissions of the address are deleted; stored provider deliveries that
 *    carry the address keep their event id (so a replay stays a duplicate) but lose the payload.
 * 3. The contact is deleted; its 'cascade' dependents (tags, notes, registrations,
 *    suppressions, consent ledger, form submissions, ...) go with it.
 * 4. The salted hash of the address enters the erasure list, and the privacy log records
 *    the erasure by that hash; earlier log entries forget the contact id.
 */
export async function eraseContact(db: Db, input: EraseContactInput): Promise<Result<{ erasedAt: Date }>> {
  const ws = input.workspaceId;
  const [contact] = await db<{ id: string; email: string }[]>`
    select id, email from public.contacts where id = ${input.contactId} and workspace_id = ${ws} for update`;
  if (!contact) return refused("not_found", "Contact not found.");
  if (input.confirmation.trim().toLowerCase() !== contact.email.toLowerCase())
    return refused("invalid", "Type the contact's email address exactly to confirm the erasure.", {
      field: "confirmation",
    });
  const email = contact.email.toLowerCase();
  const id = contact.id;

  // engagement stays counted for its broadcast, without the person's address, agent or the
  // query of the links they followed (which may carry their identity)
  await db`
    update public.email_events e
    set ip = null, user_agent = null, link_url = nullif(regexp_replace(e.link_url, '[?#].*$', ''), '')
    from public.email_sends s
    where s.id = e.email_send_id and s.workspace_id = e.workspace_id and e.workspace_id = ${ws}
      and (s.contact_id = ${id} or lower(s.to_email) = ${email})`;
  await db`
    update public.email_sends set to_email = '', subject = '', html = null, text_body = null, headers = '{}'
    where workspace_id = ${ws} and (contact_id = ${id} or lower(to_email) = ${email})`;
  await db`
    update public.notifications set title = 'A contact was erased', body = '', action_url = null, action_label = null
    where workspace_id = ${ws} and (contact_id = ${id} or strpos(action_url, ${id}) > 0
      or strpos(lower(title || ' ' || body), ${email}) > 0)`;
  await db`
    update public.tasks
    set title = case kind when 'refund_review' then 'Refund review (contact erased)' else 'Task (contact erased)' end,
        description = null
    where workspace_id = ${ws} and contact_id = ${id}`;
  await db`update public.automation_runs set payload = '{}' where workspace_id = ${ws} and contact_id = ${id}`;
  await db`delete from public.pending_form_submissions where workspace_id = ${ws} and lower(email) = ${email}`;
  await db`
    update public.webhook_inbox set payload = '{"erased": true}', last_error = null
    where workspace_id = ${ws} and strpos(lower(payload::text), ${email}) > 0`;
  await db`update public.privacy_requests set contact_id = null where workspace_id = ${ws} and contact_id = ${id}`;

  await db`delete from public.contacts where id = ${id} and workspace_id = ${ws}`;

  await ensurePrivacySalt(db, ws);
  const [erased] = await db<{ erased_at: Date; address_hash: string }[]>`
    insert into public.erased_addresses (workspace_id, address_hash)
    values (${ws}, public.erased_address_hash(${ws}, ${email}))
    on conflict (workspace_id, address_hash) do update set erased_at = now()
    returning erased_at, address_hash`;
  await db`
    insert into public.privacy_requests (workspace_id, kind, address_hash, actor_user_id)
    values (${ws}, 'erase', ${erased.address_hash}, ${input.actorUserId})`;
  return { data: { erasedAt: erased.erased_at } };
}
