import { randomBytes } from "node:crypto";
import type { Db } from "@/lib/db/doors";
import type { DemoContact } from "./demo-contacts";
import { daysAgo, DAY_MS, type DemoRandom } from "./demo-random";

interface Ctx {
  workspaceId: string;
  userId: string;
  contacts: DemoContact[];
  rnd: DemoRandom;
  /** makes provider ids unique per demo workspace (they are unique across workspaces) */
  tag: string;
}

const hex = () => randomBytes(32).toString("hex");

/** Rows for one multi-row insert: postgres.js takes the columns of the first, so every row gets every key. */
function sameKeys<T extends Record<string, unknown>>(rows: T[]): T[] {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return rows.map((r) => Object.fromEntries(keys.map((k) => [k, r[k] ?? null])) as T);
}

/**
 * Two forms: "Newsletter signup" with direct and verified submissions, "Contact us" whose
 * existing-contact submissions wait for verification (staged).
 */
export async function seedDemoForms(db: Db, c: Ctx): Promise<void> {
  const ws = c.workspaceId;
  const [newsletter, contactUs] = await db<{ id: string }[]>`
    insert into public.forms ${db([
      { workspace_id: ws, name: "Newsletter signup", allowed_domains: ["example.com"], api_key: hex() },
      { workspace_id: ws, name: "Contact us", allowed_domains: [], api_key: hex() },
    ])} returning id`;
  const fromForms = c.contacts.filter((x) => x.source === "form");
  const submissions = fromForms.map((x) => {
    const at = daysAgo(c.rnd.next() * 89);
    return {
      workspace_id: ws,
      form_id: c.rnd.chance(0.7) ? newsletter.id : contactUs.id,
      contact_id: x.id,
      payload: { email: x.email, is_subscribed: x.is_subscribed },
      ip_address: `198.51.100.${c.rnd.int(1, 250)}`,
      submission_type: c.rnd.chance(0.3) ? "verified_email" : "direct",
      created_at: at,
    };
  });
  await db`insert into public.form_submissions ${db(submissions)}`;
  // each verified submission was staged first; the verify link consumed its pending row
  const consumed = submissions
    .filter((x) => x.submission_type === "verified_email")
    .map((x) => ({
      workspace_id: ws,
      form_id: x.form_id,
      email: x.payload.email,
      payload: x.payload,
      token: hex(),
      created_at: new Date(x.created_at.getTime() - 3_600_000),
    }));
  if (consumed.length) {
    await db`insert into public.pending_form_submissions ${db(consumed)}`;
    await db`delete from public.pending_form_submissions where token = any(${consumed.map((x) => x.token)})`;
  }
  // staged: existing contacts wrote again and have not clicked the link yet (or never did)
  const staged = c.contacts
    .filter(() => c.rnd.chance(0.06))
    .map((x, i) => {
      const at = i < 3 ? new Date(Date.now() - i * 3_600_000) : daysAgo(c.rnd.next() * 60);
      return {
        workspace_id: ws,
        form_id: c.rnd.chance(0.5) ? contactUs.id : newsletter.id,
        email: x.email,
        payload: { email: x.email, message: "Please call me back." },
        token: hex(),
        ip_address: "203.0.113.20",
        created_at: at,
        expires_at: new Date(at.getTime() + DAY_MS),
      };
    });
  if (staged.length) await db`insert into public.pending_form_submissions ${db(staged)}`;
}

/**
 * A published upcoming event with capacity and RSVPs (its RSVP page open), a
 * ticketing-linked event with paid registrations, and a past event.
 */
export async function seedDemoEvents(db: Db, c: Ctx): Promise<{ rsvpEventId: string }> {
  const ws = c.workspaceId;
  const at = (days: number, hour: number) => {
    const d = new Date(Date.now() + days * DAY_MS);
    d.setUTCHours(hour, 0, 0, 0);
    return d;
  };
  const [open, gala] = await db<{ id: string }[]>`
    insert into public.events ${db(
      sameKeys([
        {
          workspace_id: ws,
          name: "Spring Open House",
          location: "Community Hall, 12 Main St, Portland",
          description: "<p>Meet the team, see the workshop, and stay for coffee.</p>",
          start_time: at(12, 17),
          end_time: at(12, 20),
          timezone: "America/Los_Angeles",
          is_published: true,
          capacity: 60,
          ticket_class_count: 0,
        },
        {
          workspace_id: ws,
          name: "Summer Gala",
          location: "Riverside Pavilion",
          start_time: at(40, 1),
          end_time: at(40, 5),
          timezone: "America/Los_Angeles",
          is_published: true,
          external_event_id: `demo-${c.tag}`,
          eventbrite_url: "https://www.eventbrite.com/e/summer-gala",
          ticket_price: "25.00",
          ticket_class_count: 2,
          last_synced_at: new Date(),
          capacity: 200,
        },
        {
          workspace_id: ws,
          name: "Winter Workshop",
          location: "Online",
          start_time: at(-30, 18),
          end_time: at(-30, 20),
          timezone: "UTC",
          is_published: false,
          ticket_class_count: 0,
        },
      ]),
    )} returning id`;
  const rsvps = c.contacts.filter((x) => x.source === "event" || c.rnd.chance(0.04)).slice(0, 38);
  await db`insert into public.event_registrations ${db(
    rsvps.map((x, i) => ({
      workspace_id: ws,
      event_id: open.id,
      contact_id: x.id,
      amount_paid: 0,
      status: i % 13 === 12 ? "cancelled" : "registered",
      created_at: daysAgo(c.rnd.next() * 20),
    })),
  )}`;
  const attendees = c.contacts.filter((x) => x.source === "ticketing");
  await db`insert into public.event_registrations ${db(
    attendees.map((x, i) => ({
      workspace_id: ws,
      event_id: gala.id,
      contact_id: x.id,
      amount_paid: i % 10 === 9 ? 0 : 25,
      status: i % 10 === 9 ? "cancelled" : "registered",
      external_attendee_id: `demo-${c.tag}-${i}`,
      external_order_id: `order-${c.tag}-${i}`,
      created_at: daysAgo(c.rnd.next() * 30),
    })),
  )}`;
  return { rsvpEventId: open.id };
}

/** Purchases over the period: one partially refunded, one fully, and an open refund review task. */
export async function seedDemoPurchases(db: Db, c: Ctx): Promise<void> {
  const ws = c.workspaceId;
  await db`insert into public.payproc_connections (workspace_id, payproc_account_id, auto_subscribe_purchasers)
           values (${ws}, ${`acct_demo_${c.tag}`}, true)`;
  const products = await db<{ id: string }[]>`
    insert into public.products ${db([
      { workspace_id: ws, name: "Pottery workshop", payproc_product_id: `prod_demo_${c.tag}_1` },
      { workspace_id: ws, name: "Annual membership", payproc_product_id: `prod_demo_${c.tag}_2` },
    ])} returning id`;
  const buyers = c.contacts.filter((x) => x.source === "payproc" || c.rnd.chance(0.03));
  const rows = buyers.map((x, i) => {
    const amount = i % 3 === 0 ? 120 : 45;
    return {
      workspace_id: ws,
      contact_id: x.id,
      product_id: products[i % 3 === 0 ? 1 : 0].id,
      amount_paid: amount,
      currency: "usd",
      external_payproc_transaction_id: `cs_demo_${c.tag}_${i}_prod_${i % 2}`,
      payproc_payment_intent_id: `pi_demo_${c.tag}_${i}`,
      status: i === 1 ? "refunded" : "succeeded",
      amount_refunded: i === 0 ? 20 : i === 1 ? amount : 0,
      transaction_date: daysAgo(c.rnd.next() * 85),
    };
  });
  await db`insert into public.transactions ${db(rows)}`;
  await db`insert into public.tasks (workspace_id, contact_id, title, description, kind, status, due_date, payproc_payment_intent_id)
           values (${ws}, ${buyers[2].id}, 'Review refund of $30.00',
                   'A refund of $30.00 matched no single purchase of this payment; check which product it was for.',
                   'refund_review', 'open', ${new Date(Date.now() + DAY_MS).toISOString().slice(0, 10)}, ${rows[2].payproc_payment_intent_id})`;
}

/** A bounce, a complaint and an administrator's block, each with its notification (spec 6.3). */
export async function seedDemoSuppressions(db: Db, c: Ctx): Promise<void> {
  const ws = c.workspaceId;
  const pool = c.contacts.filter((x) => x.source === "import" || x.source === "manual");
  const kinds: ["bounce" | "complaint" | "manual", DemoContact][] = [
    ["bounce", pool[3]],
    ["bounce", pool[9]],
    ["complaint", pool[15]],
    ["manual", pool[21]],
  ];
  await db`insert into public.contact_suppressions ${db(kinds.map(([reason, x]) => ({ workspace_id: ws, contact_id: x.id, reason })))}
           on conflict do nothing`;
  await db`update public.contacts set is_subscribed = false where id = ${kinds[2][1].id}`;
  const notes = kinds
    .filter(([reason]) => reason !== "manual")
    .map(([reason, x], i) => ({
      workspace_id: ws,
      contact_id: x.id,
      type: reason === "complaint" ? "email_complaint" : "email_bounce",
      title:
        reason === "complaint" ? `${x.email} reported your email as spam` : `Email to ${x.email} bounced`,
      body:
        reason === "complaint"
          ? "This suppression is permanent: no email will reach this contact again."
          : "",
      action_url: `/contacts/${x.id}`,
      action_label: "View Contact",
      created_at: daysAgo(i + 1),
    }));
  await db`insert into public.notifications ${db(notes)}`;
}

/** A sent broadcast to the subscribed contacts (kept in the outbox, as without RESEND_API_KEY). */
export async function seedDemoBroadcast(db: Db, c: Ctx): Promise<void> {
  const ws = c.workspaceId;
  const sentAt = daysAgo(9);
  const [b] = await db`
    insert into public.broadcasts (workspace_id, subject, body_html, audience, status, created_by, sent_at, created_at)
    values (${ws}, 'Spring news: open house and new workshops', '<p>Hello! Our spring open house is coming up.</p>',
            '{}', 'sent', ${c.userId}, ${sentAt}, ${sentAt}) returning id`;
  const to = c.contacts.filter((x) => x.is_subscribed);
  await db`insert into public.email_sends ${db(
    to.map((x) => ({
      workspace_id: ws,
      contact_id: x.id,
      broadcast_id: b.id,
      to_email: x.email,
      kind: "marketing",
      subject: "Spring news: open house and new workshops",
      status: "outbox",
      provider: "outbox",
      created_at: sentAt,
      sent_at: sentAt,
    })),
  )}`;
  await db`insert into public.notifications (workspace_id, type, title, body, action_url, action_label, created_at)
           values (${ws}, 'broadcast_sent', 'Broadcast sent: Spring news', ${`${to.length} recipients.`},
                   ${`/broadcasts/${b.id}`}, 'View broadcast', ${sentAt})`;
}
