import type { Sql } from "@/lib/db/client";
import { createContact, unique } from "./factories";

/**
 * A person with at least one row in every table that references a contact (spec 2.4.2 and
 * the rest), plus a staged form submission and a stored delivery carrying the address: what
 * a privacy export must contain and an erasure must remove or make anonymous.
 */
export async function createPersonEverywhere(
  sql: Sql,
  workspaceId: string,
  email = `${unique("person")}@example.test`,
): Promise<{ id: string; email: string }> {
  const ws = workspaceId;
  const c = await createContact(sql, ws, {
    email,
    first_name: "Pia",
    last_name: "Person",
    phone: "2025550199",
  });
  const id = c.id;
  // a custom field value: the object on the contact, and its typed rows (contact_field_values)
  await sql`insert into custom_fields (workspace_id, key, label, field_type)
            values (${ws}, 'nickname', 'Nickname', 'text') on conflict (workspace_id, key) do nothing`;
  await sql`update contacts set custom_fields = '{"nickname": "Pia"}' where id = ${id}`;
  const [tag] =
    await sql`insert into tags (workspace_id, name) values (${ws}, ${unique("tag")}) returning id`;
  await sql`insert into contact_tags (workspace_id, contact_id, tag_id) values (${ws}, ${id}, ${tag.id})`;
  await sql`insert into notes (workspace_id, contact_id, type, content, content_text)
            values (${ws}, ${id}, 'contact', ${`<p>Wrote from ${email}</p>`}, ${`Wrote from ${email}`})`;
  const [company] = await sql`insert into companies (workspace_id, name) values (${ws}, 'Acme') returning id`;
  await sql`insert into company_contacts (workspace_id, company_id, contact_id) values (${ws}, ${company.id}, ${id})`;
  await sql`insert into deals (workspace_id, contact_id, title) values (${ws}, ${id}, 'Big deal')`;
  await sql`insert into tasks (workspace_id, contact_id, title, description, kind)
            values (${ws}, ${id}, ${`Call ${email}`}, 'About the refund', 'refund_review')`;
  const [appt] =
    await sql`insert into appointments (workspace_id, title) values (${ws}, 'Meeting') returning id`;
  await sql`insert into appointment_external_attendees (workspace_id, appointment_id, contact_id)
            values (${ws}, ${appt.id}, ${id})`;
  const [event] = await sql`insert into events (workspace_id, name, start_time, end_time)
            values (${ws}, 'Fair', now() + interval '1 day', now() + interval '2 days') returning id`;
  const [campaign] =
    await sql`insert into campaigns (workspace_id, name, event_id) values (${ws}, 'Drip', ${event.id}) returning id`;
  await sql`insert into campaign_enrollments (workspace_id, campaign_id, contact_id, event_id)
            values (${ws}, ${campaign.id}, ${id}, ${event.id})`;
  await sql`insert into event_registrations (workspace_id, event_id, contact_id, amount_paid) values (${ws}, ${event.id}, ${id}, 10)`;
  await sql`insert into transactions (workspace_id, contact_id, amount_paid, external_payproc_transaction_id)
            values (${ws}, ${id}, 25, ${unique("cs_test")})`;
  const [send] =
    await sql`insert into email_sends (workspace_id, contact_id, to_email, kind, subject, html, text_body, headers)
            values (${ws}, ${id}, ${email}, 'transactional', 'Hi Pia', ${`<p>to ${email}</p>`}, ${`to ${email}`},
                    ${sql.json({ "List-Unsubscribe": `<http://crm.test/unsubscribe/${id}>` })}) returning id`;
  // what became of it (email_events carry the send's contact: migration 20261127000700)
  await sql`insert into email_events (workspace_id, email_send_id, type, occurred_at)
            values (${ws}, ${send.id}, 'delivered', now())`;
  await sql`insert into contact_suppressions (workspace_id, contact_id, reason) values (${ws}, ${id}, 'bounce')`;
  const [agreement] =
    await sql`insert into agreements (workspace_id, title) values (${ws}, 'NDA') returning id`;
  await sql`insert into agreement_contacts (workspace_id, agreement_id, contact_id) values (${ws}, ${agreement.id}, ${id})`;
  await sql`insert into consent_events (workspace_id, contact_id, action, flow, ip) values (${ws}, ${id}, 'subscribed', 'form', '203.0.113.9')`;
  const [topic] =
    await sql`insert into email_topics (workspace_id, key, name) values (${ws}, ${unique("topic")}, 'Newsletter') returning id`;
  await sql`insert into contact_topics (workspace_id, contact_id, topic_id, subscribed) values (${ws}, ${id}, ${topic.id}, true)`;
  const [form] = await sql`insert into forms (workspace_id, name) values (${ws}, 'Signup') returning id`;
  await sql`insert into form_submissions (workspace_id, form_id, contact_id, payload, ip_address)
            values (${ws}, ${form.id}, ${id}, ${sql.json({ email, first_name: "Pia" })}, '203.0.113.9')`;
  await sql`insert into pending_form_submissions (workspace_id, form_id, email, payload, token)
            values (${ws}, ${form.id}, ${email}, ${sql.json({ email })}, ${unique("tok")})`;
  await sql`insert into notifications (workspace_id, contact_id, type, title, body, action_url)
            values (${ws}, ${id}, 'bounce', ${`Bounce: ${email}`}, 'Delivery failed', ${`/contacts/${id}`})`;
  const [automation] =
    await sql`insert into automations (workspace_id, name, trigger_type, form_id, action_type)
            values (${ws}, 'Tag', 'form_submitted', ${form.id}, 'add_tag') returning id`;
  await sql`insert into automation_runs (workspace_id, automation_id, contact_id, trigger_type, status, payload)
            values (${ws}, ${automation.id}, ${id}, 'form_submitted', 'succeeded', ${sql.json({ email })})`;
  // a campaign's segment entry (who was enrolled from it) and recurring money: a plan, the
  // subscription and the membership derived from it (DESIGN section 9)
  await sql`insert into campaign_segment_members (workspace_id, campaign_id, contact_id) values (${ws}, ${campaign.id}, ${id})`;
  const [plan] = await sql`insert into plans (workspace_id, payproc_price_id, name)
            values (${ws}, ${unique("price")}, 'Friends') returning id`;
  const [subscription] = await sql`
    insert into subscriptions (workspace_id, contact_id, plan_id, payproc_subscription_id, payproc_customer_id,
                               status, started_at, synced_through)
    values (${ws}, ${id}, ${plan.id}, ${unique("sub")}, ${unique("cus")}, 'active', now(), now()) returning id`;
  await sql`insert into memberships (workspace_id, subscription_id, contact_id, plan_id, status, member_since)
            values (${ws}, ${subscription.id}, ${id}, ${plan.id}, 'active', now())`;
  // "not a duplicate" pairs naming the person on either side (docs/decisions.md, "Merging contacts")
  for (const side of ["contact_id", "other_contact_id"]) {
    const other = await createContact(sql, ws, { email: `${unique("lookalike")}@example.test` });
    const pair = side === "contact_id" ? [id, other.id] : [other.id, id];
    await sql`insert into duplicate_dismissals (workspace_id, contact_id, other_contact_id)
              values (${ws}, ${pair[0]}, ${pair[1]})`;
  }
  await sql`insert into webhook_inbox (provider, event_id, event_type, workspace_id, payload, status)
            values ('payproc', ${unique("evt")}, 'checkout.session.completed', ${ws},
                    ${sql.json({ customer_details: { email } })}, 'done')`;
  return c;
}

/** Every table of schema public with a foreign key to contacts.id, and that column. */
export async function contactReferences(sql: Sql): Promise<{ table: string; column: string }[]> {
  return sql<{ table: string; column: string }[]>`
    select c.conrelid::regclass::text as table, a.attname as column
    from pg_constraint c
    cross join lateral unnest(c.conkey, c.confkey) as k(col, refcol)
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.col
    join pg_attribute r on r.attrelid = c.confrelid and r.attnum = k.refcol
    where c.contype = 'f' and c.confrelid = 'public.contacts'::regclass and r.attname = 'id'
    order by 1`;
}

/** Rows anywhere in schema public whose text mentions any of the needles (case-insensitive). */
export async function rowsMentioning(sql: Sql, needles: string[], except: string[] = []) {
  const tables = await sql<{ name: string }[]>`
    select relname as name from pg_class
    where relnamespace = 'public'::regnamespace and relkind in ('r', 'p') and not (relname = any(${except}))
    order by 1`;
  const found: { table: string; row: string }[] = [];
  for (const { name } of tables) {
    const rows = await sql`
      select t::text as row from ${sql(`public.${name}`)} t
      where exists (select 1 from unnest(${needles.map((n) => n.toLowerCase())}::text[]) n where strpos(lower(t::text), n) > 0)`;
    for (const r of rows) found.push({ table: name, row: r.row });
  }
  return found;
}
