import { withService, type Db } from "@/lib/db/doors";
import { applySubmission } from "./apply-submission";
import { authenticateSubmission, type SubmissionCredentials } from "./authenticate-submission";
import { findFormAndLimit } from "./find-form-and-limit";
import type { PublicForm } from "./form-row";
import { parseBody, type RawBody, type SubmittedBody } from "./parse-body";
import { stageSubmission } from "./stage-submission";
import { honeypotTripped, submissionFields, type SubmissionFields } from "./submission-fields";

export interface SubmitFormRequest extends SubmissionCredentials {
  formId: string;
  ip: string | null;
  contentType: string | null;
  /** read only at step 4, so a request stopped earlier never has its body read */
  readBody: () => Promise<RawBody>;
}

export type SubmitFormResult =
  | { outcome: "rejected"; status: 400 | 403 | 404 | 413 | 415 | 429; error: string; retryAfter?: number }
  | { outcome: "honeypot" }
  | { outcome: "accepted"; contactId: string; created: boolean }
  | { outcome: "pending_verification" };

/** The form the result is about, for CORS and the redirect; null when it is unknown. */
export type SubmitFormResponse = SubmitFormResult & { form: PublicForm | null };

/**
 * POST /api/forms/{form_id}: the pipeline of spec 4.2, each step ending it when it fails.
 * 1-2 in one short transaction (the limiter's per-key lock ends with it; fail-open),
 * 3-6 without the database, 7 and the writes in a second transaction. Nothing is stored
 * by a request that stops before step 7.
 */
export async function submitForm(request: SubmitFormRequest): Promise<SubmitFormResponse> {
  const gate = await findFormAndLimit(request.formId, request.ip); // 1-2
  if (!gate.form) return { outcome: "rejected", status: 404, error: "This form does not exist.", form: null };
  const { form, limit } = gate;
  const reject = (status: 400 | 403 | 413 | 415 | 429, error: string, retryAfter?: number) =>
    ({ outcome: "rejected", status, error, retryAfter, form }) as const;
  if (!limit.allowed)
    return reject(429, "Too many submissions. Try again in a minute.", limit.retryAfterSeconds);

  const auth = authenticateSubmission(form, request); // 3
  if (!auth.ok) return reject(403, auth.error);
  const parsed = parseBody(request.contentType, await request.readBody()); // 4
  if (!parsed.ok) return reject(parsed.status, parsed.error);
  if (honeypotTripped(parsed.body)) return { outcome: "honeypot", form }; // 5
  const fields = submissionFields(parsed.body); // 6
  if (!fields.ok) return reject(400, fields.error);

  const result = await withService((db) =>
    acceptSubmission(db, {
      form,
      fields: fields.fields,
      payload: parsed.body,
      ip: request.ip,
      byKey: auth.byKey,
    }),
  );
  return { ...result, form };
}

/**
 * Step 7, the verification check of spec 4.2.2: path A (stage and email) when the form
 * requires verification, the request has no key and the email is already a contact;
 * otherwise path B.
 */
export async function acceptSubmission(
  db: Db,
  input: {
    form: PublicForm;
    fields: SubmissionFields;
    payload: SubmittedBody;
    ip: string | null;
    byKey: boolean;
  },
): Promise<SubmitFormResult> {
  const { form, fields } = input;
  if (form.require_verification && !input.byKey) {
    const [existing] = await db`
      select id from public.contacts where workspace_id = ${form.workspace_id} and email = ${fields.email}`;
    if (existing) {
      await stageSubmission(db, {
        form,
        contactId: existing.id,
        email: fields.email,
        payload: input.payload,
        ip: input.ip,
      });
      return { outcome: "pending_verification" };
    }
  }
  const applied = await applySubmission(db, {
    form,
    fields,
    payload: input.payload,
    ip: input.ip,
    submissionType: input.byKey ? "api_key" : "direct",
  });
  return { outcome: "accepted", contactId: applied.contactId, created: applied.created };
}
