import type { Db } from "@/lib/db/doors";
import { joinTopics, leaveTopic } from "@/lib/consent/topic-consent";
import { loadConsentState } from "@/lib/consent/load-consent-state";
import { PERSON_FIELDS, type ContactRow, type PersonField } from "@/lib/contacts/contact-row";
import { diffContact, writeAuditNote } from "@/lib/contacts/diff-and-audit";
import { customFieldOverwrites, diffCustomFields } from "@/lib/contacts/custom-fields/diff-custom-fields";
import { listCustomFields, writeCustomFieldValues } from "@/lib/contacts/custom-fields";
import type { CustomFieldValues } from "@/lib/contacts/custom-fields";
import { renderMerge, type MergeValues } from "@/lib/email/merge-tags";
import { createNotification } from "@/lib/notifications/create-notification";
import { WEBHOOK_API_VERSION } from "@/lib/webhooks/outbound/event-types";
import type { CreateTaskStep, NotifyMemberStep, SendWebhookStep, UpdateFieldStep } from "./steps";

/**
 * The steps that change a contact or tell someone (docs/decisions.md, "Campaign steps that change
 * a contact"; docs/api.md, "Campaign steps"). Each runs in the campaign batch's transaction
 * (lib/campaigns/run-enrollments.ts), so its effect and the enrollment's advance commit together:
 * exactly once, whatever crashes. Each answers the step-run outcome and its detail.
 */

export interface StepSubject {
  id: string;
  workspace_id: string;
  campaign_id: string;
  contact_id: string;
  version: number;
}

export interface StepResult {
  outcome:
    | "topic_joined"
    | "topic_left"
    | "task_created"
    | "field_updated"
    | "webhook_queued"
    | "notified"
    | "skipped";
  detail: string | null;
}

/** The merge values of the contact (the text steps' merge tags, read as text). */
export async function contactMerge(db: Db, e: StepSubject): Promise<MergeValues | null> {
  const [c] = await db<MergeValues[]>`
    select first_name, last_name, email, city, country from public.contacts
    where id = ${e.contact_id} and workspace_id = ${e.workspace_id}`;
  return c ?? null;
}

/**
 * join_topic: through the consent rules (flow 'campaign_join_topic': a campaign gives no consent,
 * so only a subscribed contact with no suppression joins), one ledger entry for the topic.
 */
export async function joinTopicStep(
  db: Db,
  e: StepSubject,
  topicId: string,
  campaignName: string,
): Promise<StepResult> {
  const state = await loadConsentState(db, { contactId: e.contact_id, workspaceId: e.workspace_id });
  if (!state) return { outcome: "skipped", detail: "no such contact" };
  const [topic] =
    await db`select id from public.email_topics where id = ${topicId} and workspace_id = ${e.workspace_id}`;
  if (!topic) return { outcome: "skipped", detail: "the topic no longer exists" };
  const joined = await joinTopics(db, state, {
    flow: "campaign_join_topic",
    topicIds: [topicId],
    source: `Campaign: ${campaignName}`,
  });
  if ("skip" in joined) return { outcome: "skipped", detail: joined.skip };
  return {
    outcome: joined.joined.length ? "topic_joined" : "skipped",
    detail: joined.joined.length ? null : "already on",
  };
}

/** leave_topic: the consent code's leaveTopic (leaving the last topic on is the spec's unsubscribe, 4.7). */
export async function leaveTopicStep(db: Db, e: StepSubject, topicId: string): Promise<StepResult> {
  const state = await loadConsentState(db, { contactId: e.contact_id, workspaceId: e.workspace_id });
  if (!state) return { outcome: "skipped", detail: "no such contact" };
  const left = await leaveTopic(db, state, { flow: "campaign_leave_topic", topicId });
  if (!left.changed) return { outcome: "skipped", detail: "not on the topic" };
  return { outcome: "topic_left", detail: left.everything ? "the last topic: unsubscribed" : null };
}

/** create_task: an open task on the contact, due in `due_in_days` (none: no date), assigned when named. */
export async function createTaskStep(db: Db, e: StepSubject, step: CreateTaskStep): Promise<StepResult> {
  const merge = (await contactMerge(db, e)) ?? {};
  const title = renderMerge(step.title, merge, "text").slice(0, 200);
  const [task] = await db<{ id: string }[]>`
    insert into public.tasks (workspace_id, contact_id, title, due_date, assigned_user_id)
    select ${e.workspace_id}, ${e.contact_id}, ${title},
           ${step.due_in_days === undefined ? null : db`current_date + ${step.due_in_days}::int`},
           (select m.user_id from public.workspace_members m
            where m.workspace_id = ${e.workspace_id} and m.user_id = ${step.assignee_user_id ?? null})
    returning id`;
  return { outcome: "task_created", detail: task.id };
}

/**
 * update_field: spec 4.10's diff-and-audit. A value equal to the stored one changes nothing; an
 * overwritten non-empty value gets the system note naming the field, its old and new value.
 */
export async function updateFieldStep(
  db: Db,
  e: StepSubject,
  step: UpdateFieldStep,
  campaignName: string,
): Promise<StepResult> {
  const via = `the campaign "${campaignName}"`;
  const contact = { id: e.contact_id, workspace_id: e.workspace_id };
  if (step.field) {
    const field = step.field;
    const [stored] = await db<Pick<ContactRow, PersonField>[]>`
      select ${db([...PERSON_FIELDS])} from public.contacts where id = ${e.contact_id} and workspace_id = ${e.workspace_id}
      for update`;
    if (!stored) return { outcome: "skipped", detail: "no such contact" };
    const { updates, overwritten } = diffContact(stored, { [field]: String(step.value) }, "overwrite");
    if (Object.keys(updates).length === 0) return { outcome: "skipped", detail: "unchanged" };
    await db`update public.contacts set ${db(updates)} where id = ${e.contact_id} and workspace_id = ${e.workspace_id}`;
    await writeAuditNote(db, contact, overwritten, via);
    return { outcome: "field_updated", detail: field };
  }
  const key = step.custom_field!;
  const fields = await listCustomFields(db, e.workspace_id);
  const field = fields.find((f) => f.key === key);
  if (!field) return { outcome: "skipped", detail: `the custom field "${key}" no longer exists` };
  const [stored] = await db<{ custom_fields: CustomFieldValues }[]>`
    select custom_fields from public.contacts where id = ${e.contact_id} and workspace_id = ${e.workspace_id}`;
  if (!stored) return { outcome: "skipped", detail: "no such contact" };
  const { updates } = diffCustomFields(
    [field],
    stored.custom_fields ?? {},
    { [key]: step.value },
    "overwrite",
  );
  if (Object.keys(updates).length === 0) return { outcome: "skipped", detail: "unchanged" };
  const written = await writeCustomFieldValues(db, {
    workspaceId: e.workspace_id,
    contactId: e.contact_id,
    values: updates,
  });
  if ("error" in written) return { outcome: "skipped", detail: written.error.message };
  await writeAuditNote(db, contact, customFieldOverwrites([field], written.data), via);
  return { outcome: "field_updated", detail: `custom_fields.${key}` };
}

/**
 * send_webhook: a `campaign.step` event through the outbound webhooks (docs/decisions.md,
 * "Outbound webhooks"): one delivery row per enabled endpoint of the workspace subscribed to the
 * event type (only the endpoint named, when one is, subscribed or not), which the webhook pump
 * signs and delivers with its retries. The webhook-id is derived from (enrollment, step, version,
 * endpoint), so a receiver sees one message for the step whatever happens.
 */
export async function sendWebhookStep(db: Db, e: StepSubject, step: SendWebhookStep): Promise<StepResult> {
  const [contact] = await db<{ email: string; first_name: string | null; last_name: string | null }[]>`
    select email, first_name, last_name from public.contacts where id = ${e.contact_id} and workspace_id = ${e.workspace_id}`;
  const payload = {
    type: "campaign.step",
    api_version: WEBHOOK_API_VERSION,
    timestamp: new Date().toISOString(),
    workspace_id: e.workspace_id,
    data: {
      campaign_id: e.campaign_id,
      version: e.version,
      enrollment_id: e.id,
      step_id: step.id,
      label: step.label ?? null,
      contact: contact
        ? {
            id: e.contact_id,
            email: contact.email,
            first_name: contact.first_name,
            last_name: contact.last_name,
          }
        : { id: e.contact_id, email: null, first_name: null, last_name: null },
    },
  };
  const messageBase = `${e.id}:${step.id}:${e.version}`;
  const rows = await db<{ id: string }[]>`
    insert into public.webhook_deliveries (workspace_id, endpoint_id, message_id, event_type, payload)
    select w.workspace_id, w.id, ${"msg_"} || md5(${messageBase} || ':' || w.id::text), 'campaign.step', ${db.json(payload)}
    from public.webhook_endpoints w
    where w.workspace_id = ${e.workspace_id} and w.enabled
      and ${step.endpoint_id ? db`w.id = ${step.endpoint_id}` : db`'campaign.step' = any (w.event_types)`}
    returning id`;
  if (rows.length === 0) return { outcome: "skipped", detail: "no enabled endpoint" };
  return { outcome: "webhook_queued", detail: `${rows.length} endpoint${rows.length === 1 ? "" : "s"}` };
}

/** notify_member: a dashboard notification (spec 6.3) about the contact, to the member named or to every member. */
export async function notifyMemberStep(
  db: Db,
  e: StepSubject,
  step: NotifyMemberStep,
  campaignName: string,
): Promise<StepResult> {
  let userId: string | null = null;
  if (step.user_id) {
    const [member] = await db`select user_id from public.workspace_members
                              where workspace_id = ${e.workspace_id} and user_id = ${step.user_id}`;
    if (!member) return { outcome: "skipped", detail: "no longer a member" };
    userId = step.user_id;
  }
  const merge = (await contactMerge(db, e)) ?? {};
  await createNotification(db, {
    workspaceId: e.workspace_id,
    userId,
    contactId: e.contact_id,
    type: "campaign",
    title: renderMerge(step.title, merge, "text").slice(0, 200),
    body: step.body ? renderMerge(step.body, merge, "text") : `From the campaign "${campaignName}".`,
    actionUrl: `/contacts/${e.contact_id}`,
    actionLabel: "View Contact",
  });
  return { outcome: "notified", detail: userId };
}
