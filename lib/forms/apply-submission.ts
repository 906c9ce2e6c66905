import { randomUUID } from "node:crypto";
import type { Db } from "@/lib/db/doors";
import { mergeContact } from "@/lib/contacts/merge-contact";
import { listCustomFields } from "@/lib/contacts/custom-fields/list-custom-fields";
import { customFieldValuesFrom } from "@/lib/contacts/custom-fields/values-from-payload";
import { decideConsent } from "@/lib/consent/consent-rules";
import { applyConsent } from "@/lib/consent/apply-consent";
import { resolveTopicIds } from "@/lib/consent/topics";
import { addNote } from "@/lib/notes/add-note";
import { fireTrigger } from "@/lib/automations/fire-trigger";
import type { CustomField } from "@/lib/contacts/custom-fields/types";
import type { FormRow } from "./form-row";
import type { SubmittedBody } from "@/lib/http/parse-body";
import type { SubmissionFields } from "./submission-fields";

export type SubmissionType = "direct" | "api_key" | "verified_email";

export interface ApplySubmissionInput {
  /** has_automations false (known from the form lookup) skips the automation query */
  form: Pick<FormRow, "id" | "workspace_id" | "name"> & {
    has_automations?: boolean;
    topic_ids?: string[];
    /** the form's language: it becomes the contact's when the contact has none */
    locale?: string | null;
  };
  fields: SubmissionFields;
  /** the complete submitted body, stored as it came */
  payload: SubmittedBody;
  ip: string | null;
  submissionType: SubmissionType;
  /** the workspace's custom field definitions when the caller already read them */
  customFields?: CustomField[];
}

export interface ApplySubmissionResult {
  contactId: string;
  created: boolean;
  submissionId: string;
}

/**
 * Writes a form submission to the contact: path B of spec 4.2.2 ('direct', 'api_key') and the
 * verified submission of 4.3 ('verified_email').
 * - Path B merges non-destructively (B.1: only empty fields are filled); a verified
 *   submission comes from the address's owner, so its changed fields win (4.10), audited.
 * - Consent (4.2.3) only when is_subscribed is truthy: a form grants consent, never
 *   withdraws it (docs/decisions.md, "Consent operations"). The 'form' rule depends on neither the stored
 *   contact nor its suppressions, so it is decided once; its columns go in the merge's single update and
 *   applyConsent then clears every suppression but a complaint and writes the ledger.
 * - The form's topics (docs/decisions.md, "Subscription topics") get the consent, one ledger entry
 *   each with the same proof; a form without topics gives the overall consent (the default topics).
 * - Concurrent creation of the same email is absorbed by mergeContact (B.3).
 * - notes / message become one note (B.4); the payload itself is never copied into notes.
 * - A form_submissions row with payload, IP and type, then the form's automations (6.2).
 * - Body keys equal to a custom field's key set that field, by the same merge rule as the person
 *   fields (docs/decisions.md, "Custom fields"); a value that does not fit is only kept in the payload.
 */
export async function applySubmission(db: Db, input: ApplySubmissionInput): Promise<ApplySubmissionResult> {
  const { form, fields, ip } = input;
  const decision = fields.isSubscribed
    ? decideConsent("form", { contact: null, suppressions: [], ip, source: fields.optInSource ?? form.id })
    : null;
  const consent = decision && !("skip" in decision) ? decision : null;
  const verified = input.submissionType === "verified_email";

  const customFields = input.customFields ?? (await listCustomFields(db, form.workspace_id));
  const { values } = customFieldValuesFrom(customFields, input.payload);
  const { contact, created } = await mergeContact(db, {
    customFields: { fields: customFields, values },
    workspaceId: form.workspace_id,
    email: fields.email,
    fields: fields.person,
    source: "form",
    mode: verified ? "overwrite" : "fill_empty",
    extra: consent?.columns,
    via: verified ? `verified submission of the form “${form.name}”` : `the form “${form.name}”`,
  });
  const topicIds =
    consent && form.topic_ids?.length
      ? await resolveTopicIds(db, form.workspace_id, form.topic_ids)
      : undefined;
  // Independent writes, pipelined on the transaction's connection.
  const submissionId = randomUUID();
  await Promise.all([
    consent &&
      applyConsent(db, {
        workspaceId: form.workspace_id,
        contactId: contact.id,
        // a created contact may hold its address's suppressions (docs/decisions.md,
        // "Suppressions belong to the address"): cleared as an existing contact's (spec 4.2.3)
        change: consent,
        topicIds,
      }),
    fields.note &&
      addNote(db, {
        workspaceId: form.workspace_id,
        contactId: contact.id,
        text: `Sent with the form “${form.name}”:\n\n${fields.note}`,
        createdBy: null,
      }),
    db`
      insert into public.form_submissions (id, workspace_id, form_id, contact_id, payload, ip_address, submission_type)
      values (${submissionId}, ${form.workspace_id}, ${form.id}, ${contact.id}, ${db.json(input.payload as never)},
              ${ip}, ${input.submissionType})`,
    // a form in a language sets the contact's when it has none (docs/decisions.md, "Recipient languages")
    form.locale &&
      db`update public.contacts set locale = ${form.locale}
         where id = ${contact.id} and workspace_id = ${form.workspace_id} and locale is null`,
  ]);
  if (form.has_automations !== false)
    await fireTrigger(db, {
      workspaceId: form.workspace_id,
      trigger: "form_submitted",
      contactId: contact.id,
      formId: form.id,
      payload: { form_id: form.id, submission_id: submissionId, submission_type: input.submissionType },
    });
  return { contactId: contact.id, created, submissionId };
}
