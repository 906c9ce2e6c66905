import { randomBytes, randomUUID } from "node:crypto";
import type { Sql } from "@/lib/db/client";
import { unique, type TestWorkspace } from "./factories";

export type Row = Record<string, unknown>;

interface TableShape {
  /** required columns besides workspace_id and the links */
  fields?: (ws: TestWorkspace) => Row;
  /** column -> parent table; the parent row is created in the same workspace */
  links?: Record<string, string>;
  /** the columns that identify a row (default: id) */
  key?: string[];
  /** a column and a new value: the write an UPDATE test makes */
  change: Row;
}

const hex64 = () => randomBytes(32).toString("hex");
const PAST = new Date("2000-01-01T00:00:00Z");

/** Every workspace-scoped table: how to make a valid row of it in a given workspace. */
export const TABLES: Record<string, TableShape> = {
  // first: a suppression makes the workspace's salt when there is none (address_suppressions)
  privacy_salts: {
    fields: () => ({ salt: randomBytes(32) }),
    key: ["workspace_id"],
    change: { salt: randomBytes(32) },
  },
  contacts: { fields: () => ({ email: `${unique("c")}@example.test` }), change: { first_name: "Changed" } },
  tags: { fields: () => ({ name: unique("tag") }), change: { color: "red" } },
  custom_fields: {
    fields: () => ({ key: `f_${randomBytes(4).toString("hex")}`, label: "Field", field_type: "text" }),
    change: { label: "Changed" },
  },
  contact_tags: {
    links: { contact_id: "contacts", tag_id: "tags" },
    key: ["contact_id", "tag_id"],
    change: { created_at: PAST },
  },
  products: { fields: () => ({ name: "Ticket" }), change: { name: "Changed" } },
  segments: {
    fields: () => ({
      name: unique("segment"),
      filter: { version: 1, root: { kind: "group", op: "and", conditions: [] } },
    }),
    change: { name: "Changed" },
  },
  tasks: { links: { contact_id: "contacts" }, change: { title: "Changed" } },
  notes: {
    fields: () => ({ content: "<p>Hi</p>", content_text: "Hi" }),
    links: { contact_id: "contacts", task_id: "tasks" },
    change: { content_text: "Changed" },
  },
  companies: { fields: () => ({ name: "Acme" }), change: { name: "Changed" } },
  company_contacts: {
    links: { company_id: "companies", contact_id: "contacts" },
    key: ["company_id", "contact_id"],
    change: { created_at: PAST },
  },
  deals: {
    fields: () => ({ title: "Deal" }),
    links: { contact_id: "contacts" },
    change: { title: "Changed" },
  },
  deal_payments: {
    fields: () => ({ label: "Deposit" }),
    links: { deal_id: "deals" },
    change: { label: "Changed" },
  },
  appointments: { fields: () => ({ title: "Meeting" }), change: { title: "Changed" } },
  appointment_external_attendees: {
    links: { appointment_id: "appointments", contact_id: "contacts" },
    change: { created_at: PAST },
  },
  agreements: { fields: () => ({ title: "Contract" }), change: { title: "Changed" } },
  agreement_contacts: {
    links: { agreement_id: "agreements", contact_id: "contacts" },
    key: ["agreement_id", "contact_id"],
    change: { created_at: PAST },
  },
  transactions: {
    fields: () => ({ amount_paid: "10.00" }),
    links: { contact_id: "contacts", product_id: "products" },
    change: { status: "refunded" },
  },
  contact_suppressions: {
    fields: () => ({ reason: "manual" }),
    links: { contact_id: "contacts" },
    change: { created_at: PAST },
  },
  consent_events: {
    fields: () => ({ action: "subscribed", flow: "test" }),
    links: { contact_id: "contacts", topic_id: "email_topics" },
    change: { flow: "changed" },
  },
  email_topics: {
    fields: () => ({ key: unique("topic"), name: "Newsletter" }),
    change: { name: "Changed" },
  },
  contact_topics: {
    fields: () => ({ subscribed: true }),
    links: { contact_id: "contacts", topic_id: "email_topics" },
    key: ["contact_id", "topic_id"],
    change: { subscribed: false },
  },
  broadcasts: {
    fields: () => ({ subject: "News" }),
    links: { segment_id: "segments", topic_id: "email_topics" },
    change: { subject: "Changed" },
  },
  broadcast_variants: {
    fields: () => ({ position: 0, subject: "Variant A" }),
    links: { broadcast_id: "broadcasts" },
    change: { subject: "Changed" },
  },
  email_sends: {
    // campaign_step and campaign_version go with campaign_enrollment_id (email_sends_campaign_origin_check)
    fields: () => ({
      to_email: "to@example.test",
      kind: "transactional",
      campaign_step: "s",
      campaign_version: 1,
    }),
    links: {
      contact_id: "contacts",
      broadcast_id: "broadcasts",
      campaign_enrollment_id: "campaign_enrollments",
    },
    change: { subject: "Changed" },
  },
  email_events: {
    fields: () => ({ type: "delivered", occurred_at: new Date() }),
    links: { email_send_id: "email_sends", broadcast_id: "broadcasts", contact_id: "contacts" },
    change: { is_machine: true },
  },
  email_send_stats: {
    links: { email_send_id: "email_sends", broadcast_id: "broadcasts" },
    key: ["email_send_id"],
    change: { opened_at: PAST },
  },
  // a workspace's own sending domain (docs/decisions.md, "Sending domains and warm-up")
  sending_domains: {
    fields: () => ({ domain: `${randomBytes(4).toString("hex")}.example.test`, status: "pending" }),
    change: { status: "verified" },
  },
  sending_domain_days: {
    fields: () => ({ day: "2000-01-01", sent: 1 }),
    links: { sending_domain_id: "sending_domains" },
    key: ["sending_domain_id", "day"],
    change: { sent: 0 },
  },
  // the contact portal's links and sessions (docs/decisions.md, "Portal sessions"): service only
  portal_links: {
    fields: () => ({
      purpose: "sign_in",
      token_hash: hex64(),
      portal_token: randomUUID(),
      expires_at: new Date(Date.now() + 60_000),
    }),
    links: { contact_id: "contacts" },
    change: { used_at: PAST },
  },
  portal_sessions: {
    fields: () => ({ token_hash: hex64(), expires_at: new Date(Date.now() + 60_000) }),
    links: { contact_id: "contacts" },
    change: { revoked_at: PAST },
  },
  // recurring money (DESIGN section 9 "Recurring"): written only by the payment webhook
  plans: {
    fields: () => ({ payproc_price_id: `price_${randomBytes(6).toString("hex")}`, name: "Membership" }),
    change: { name: "Changed" },
  },
  subscriptions: {
    fields: () => ({
      payproc_subscription_id: `sub_${randomBytes(8).toString("hex")}`,
      payproc_customer_id: "cus_test",
      status: "active",
      started_at: PAST,
      synced_through: PAST,
    }),
    links: { contact_id: "contacts", plan_id: "plans" },
    change: { status: "canceled" },
  },
  memberships: {
    fields: () => ({ status: "active", member_since: PAST }),
    links: { subscription_id: "subscriptions", contact_id: "contacts", plan_id: "plans" },
    change: { status: "lapsed" },
  },
  notifications: {
    fields: () => ({ type: "test", title: "Hello" }),
    links: { contact_id: "contacts" },
    change: { title: "Changed" },
  },
  notification_reads: {
    fields: (ws) => ({ user_id: ws.owner.id }),
    links: { notification_id: "notifications" },
    key: ["notification_id", "user_id"],
    change: { read_at: PAST },
  },
  forms: { fields: () => ({ name: "Signup" }), change: { name: "Changed" } },
  form_submissions: {
    fields: () => ({ payload: '{"email":"a@example.test"}' }),
    links: { form_id: "forms", contact_id: "contacts" },
    change: { submission_type: "api_key" },
  },
  pending_form_submissions: {
    fields: () => ({ email: "p@example.test", payload: "{}", token: hex64() }),
    links: { form_id: "forms" },
    change: { email: "changed@example.test" },
  },
  events: { fields: () => ({ name: "Gala" }), change: { name: "Changed" } },
  event_registrations: {
    links: { event_id: "events", contact_id: "contacts" },
    change: { status: "cancelled" },
  },
  event_ticket_types: {
    fields: () => ({ name: "General admission" }),
    links: { event_id: "events" },
    change: { name: "Changed" },
  },
  event_check_ins: {
    fields: () => ({ checked_in_at: new Date(), source: "scanner" }),
    links: {
      event_id: "events",
      registration_id: "event_registrations",
      checked_in_by_api_key_id: "api_keys",
    },
    change: { device_id: "changed" },
  },
  ticketing_connections: {
    fields: () => ({ access_token: "token" }),
    change: { organization_name: "Changed" },
  },
  payproc_connections: { change: { auto_subscribe_purchasers: true } },
  api_keys: { fields: () => ({ name: "Key", key_hash: hex64() }), change: { name: "Changed" } },
  campaigns: {
    fields: () => ({ name: "Drip" }),
    links: { event_id: "events", enroll_segment_id: "segments" },
    change: { name: "Changed" },
  },
  campaign_enrollments: {
    links: { campaign_id: "campaigns", contact_id: "contacts", event_id: "events" },
    change: { status: "completed" },
  },
  campaign_versions: {
    fields: () => ({ version: 1, steps: "[]" }),
    links: { campaign_id: "campaigns" },
    change: { goals: "[]" },
  },
  campaign_step_runs: {
    fields: () => ({ version: 1, step_id: "welcome", outcome: "sent" }),
    links: { enrollment_id: "campaign_enrollments", campaign_id: "campaigns" },
    change: { detail: "changed" },
  },
  campaign_segment_members: {
    links: { campaign_id: "campaigns", contact_id: "contacts" },
    change: { seen_at: "2026-01-01T00:00:00Z" },
  },
  automations: {
    fields: () => ({ name: "Auto", trigger_type: "form_submitted", action_type: "add_tag" }),
    links: { form_id: "forms", product_id: "products", event_id: "events", segment_id: "segments" },
    change: { name: "Changed" },
  },
  automation_runs: {
    fields: () => ({ trigger_type: "form_submitted", status: "succeeded" }),
    links: { automation_id: "automations", contact_id: "contacts" },
    change: { error: "changed" },
  },
  // privacy requests (GDPR articles 15 and 17)
  erased_addresses: {
    fields: () => ({ address_hash: hex64() }),
    key: ["workspace_id", "address_hash"],
    change: { erased_at: PAST },
  },
  privacy_requests: { fields: () => ({ kind: "export" }), change: { kind: "erase" } },
  // the home dashboard's kept form counts (written by triggers; a row of the past here)
  form_daily_counts: {
    fields: () => ({ day: "2000-01-01", submissions: 1 }),
    links: { form_id: "forms" },
    key: ["workspace_id", "form_id"], // one row per form in these tests (a date would not compare as text)
    change: { submissions: 2 },
  },
  workspace_invitations: {
    fields: () => ({
      email: `${unique("invitee")}@example.test`,
      token_hash: hex64(),
      expires_at: new Date(Date.now() + 86_400_000),
    }),
    change: { role: "admin" },
  },
  webhook_endpoints: {
    fields: () => ({
      url: "https://hooks.example.test/crm",
      event_types: ["contact.created"],
      secret_ciphertext: "v1.x.y.z",
    }),
    change: { description: "Changed" },
  },
  webhook_deliveries: {
    fields: () => ({ event_type: "contact.created", payload: {} }),
    links: { endpoint_id: "webhook_endpoints" },
    change: { attempts: 1 },
  },
  duplicate_dismissals: {
    links: { contact_id: "contacts", other_contact_id: "contacts" },
    key: ["contact_id", "other_contact_id"],
    change: { created_at: PAST },
  },
  import_mappings: {
    fields: () => ({
      header_digest: hex64(),
      headers: ["Email"],
      mapping: { email: { target: "field", name: "email" } },
    }),
    change: { headers: ["E-mail"] },
  },
  contact_imports: {
    fields: () => ({
      file_name: "contacts.csv",
      file_size: 20,
      content: Buffer.from("Email\na@example.test\n"),
    }),
    change: { rows_done: 1 },
  },
};

/** A valid, not yet inserted row of `table` in `ws`; its parents are inserted (as superuser). */
export async function buildRow(
  sql: Sql,
  table: string,
  ws: TestWorkspace,
  overrides: Row = {},
): Promise<Row> {
  const shape = TABLES[table];
  const row: Row = { workspace_id: ws.id, ...shape.fields?.(ws) };
  for (const [column, parent] of Object.entries(shape.links ?? {})) {
    if (!(column in overrides)) row[column] = (await insertRow(sql, parent, ws)).id;
  }
  return { ...row, ...overrides };
}

/** Inserts a valid row of `table` in `ws` (as superuser) and returns it. */
export async function insertRow(
  sql: Sql,
  table: string,
  ws: TestWorkspace,
  overrides: Row = {},
): Promise<Row> {
  const row = await buildRow(sql, table, ws, overrides);
  const [inserted] = await sql`insert into ${sql(table)} ${sql(row)} returning *`;
  return inserted;
}

/** The identifying columns of a row, as a jsonb value to match with `to_jsonb(t) @> key`. */
export function keyOf(table: string, row: Row): Record<string, string> {
  return Object.fromEntries((TABLES[table].key ?? ["id"]).map((k) => [k, String(row[k])]));
}
