import { withService, type Db } from "@/lib/db/doors";
import { AppError, type AppErrorCode } from "@/lib/errors/app-error";
import { applySubmission } from "../apply-submission";
import { captchaConfig, captchaToken, withoutCaptchaFields } from "../captcha";
import { verifyCaptcha } from "../flows/verify-captcha";
import { authenticateSubmission, type SubmissionCredentials } from "../authenticate-submission";
import { findFormAndLimit, RateLimitUnavailable } from "../find-form-and-limit";
import { isUuid } from "@/lib/ids/uuid";
import type { PublicForm } from "../form-row";
import { parseBody, type RawBody, type SubmittedBody } from "@/lib/http/parse-body";
import { stageSubmission } from "../stage-submission";
import { honeypotTripped, submissionFields, type SubmissionFields } from "../submission-fields";
import { log } from "@/lib/observability/log";
import { listFormCustomFields } from "@/lib/contacts/custom-fields/list-custom-fields";
import type { CustomField } from "@/lib/contacts/custom-fields/types";

export interface SubmitFormRequest extends SubmissionCredentials {
  formId: string;
  ip: string | null;
  contentType: string | null;
  /** the body, read (at most 64 KiB + 1 byte) before any database work; judged at step 4 */
  body: RawBody;
  /** `?lang=` and `Accept-Language`: the language of a verification email (docs/decisions.md, "Recipient languages") */
  language?: { lang?: string | null; acceptLanguage?: string | null };
}

export type SubmitFormResult =
  | { outcome: "rejected"; error: AppError }
  | { outcome: "honeypot" }
  | { outcome: "accepted"; contactId: string; created: boolean }
  | { outcome: "pending_verification" };

export const UNKNOWN_FORM = "This form does not exist.";
const unknownForm = () =>
  ({ outcome: "rejected", error: new AppError("not_found", UNKNOWN_FORM), form: null }) as const;

/** The form the result is about, for CORS and the redirect; null when it is unknown. */
export type SubmitFormResponse = SubmitFormResult & { form: PublicForm | null };

/** The pipeline stopped before storing anything: the form needs this captcha token checked. */
type CaptchaNeeded = { outcome: "captcha"; token: string; form: PublicForm };

/** Whether a captcha was checked for this request (the second run after a valid token). */
type Captcha = "unchecked" | "passed";

/**
 * POST /api/forms/{form_id}: the pipeline of spec 4.2 in one short transaction (the body is
 * already in memory, so the transaction never waits for a client). The limiter's per-key
 * lock is held to its end, which only serialises requests of one form from one address.
 * 4.2.1 fail-open: when the limiter fails, the whole pipeline runs again without it.
 */
export async function submitForm(request: SubmitFormRequest): Promise<SubmitFormResponse> {
  if (!isUuid(request.formId)) return unknownForm(); // 1, without a query
  const first = await runOnce(request, "unchecked");
  if (first.outcome !== "captcha") return first;
  // The provider is asked outside any transaction; with a valid token the pipeline runs again,
  // without the limiter (this request was counted by the first run).
  if (!(await verifyCaptcha(first.token, request.ip)))
    return { outcome: "rejected", error: new AppError("captcha_failed"), form: first.form };
  const second = await withService((db) => runPipeline(db, request, false, "passed"));
  if (second.outcome === "captcha") throw new Error("captcha asked for twice");
  return second;
}

async function runOnce(request: SubmitFormRequest, captcha: Captcha) {
  try {
    return await withService((db) => runPipeline(db, request, true, captcha));
  } catch (error) {
    if (!(error instanceof RateLimitUnavailable)) throw error;
    log.error({ err: error.cause }, "rate-limit check failed; allowing the request (fail-open)");
    return withService((db) => runPipeline(db, request, false, captcha));
  }
}

/** The steps in order, each ending the pipeline when it fails. Nothing is stored before step 7. */
async function runPipeline(
  db: Db,
  request: SubmitFormRequest,
  limited: boolean,
  captcha: Captcha,
): Promise<SubmitFormResponse | CaptchaNeeded> {
  // the workspace's custom fields (step 7) leave in the same socket write as the form's lookup
  const [found, fieldDefinitions] = await Promise.allSettled([
    findFormAndLimit(db, { formId: request.formId, ip: request.ip, limited }), // 1-2
    listFormCustomFields(db, request.formId),
  ]);
  if (found.status === "rejected") throw found.reason; // the limiter's failure aborted both
  if (fieldDefinitions.status === "rejected") throw fieldDefinitions.reason;
  const gate = found.value;
  if (!gate.form) return unknownForm();
  const { form, limit } = gate;
  const reject = (error: AppError) => ({ outcome: "rejected", error, form }) as const;
  const refuse = (code: AppErrorCode, message?: string) => reject(new AppError(code, message));
  if (!limit.allowed)
    return reject(
      new AppError("rate_limited", "Too many submissions. Try again in a minute.", {
        retryAfter: limit.retryAfterSeconds,
      }),
    );

  const auth = authenticateSubmission(form, request); // 3
  if ("error" in auth) return reject(auth.error);
  const parsed = parseBody(request.contentType, request.body); // 4
  if ("error" in parsed) return reject(parsed.error);
  const body = parsed.data;
  if (honeypotTripped(body)) return { outcome: "honeypot", form }; // 5
  // captcha_required: a widget token unless the request carries the form key (docs/decisions.md, "Captcha")
  if (form.captcha_required && !auth.data.byKey && captcha !== "passed") {
    if (!captchaConfig())
      return refuse("unavailable", "This form requires a captcha, which is not set up yet.");
    const token = captchaToken(body);
    if (!token) return refuse("captcha_required");
    return { outcome: "captcha", token, form };
  }
  const fields = submissionFields(body); // 6
  if ("error" in fields) return reject(fields.error);

  const result = await acceptSubmission(db, {
    form,
    customFields: fieldDefinitions.value,
    fields: fields.data,
    payload: withoutCaptchaFields(body),
    ip: request.ip,
    byKey: auth.data.byKey,
    language: request.language,
  }); // 7
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
    customFields?: CustomField[];
    fields: SubmissionFields;
    payload: SubmittedBody;
    ip: string | null;
    byKey: boolean;
    language?: { lang?: string | null; acceptLanguage?: string | null };
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
        language: input.language,
      });
      return { outcome: "pending_verification" };
    }
  }
  const applied = await applySubmission(db, {
    form,
    customFields: input.customFields,
    fields,
    payload: input.payload,
    ip: input.ip,
    submissionType: input.byKey ? "api_key" : "direct",
  });
  return { outcome: "accepted", contactId: applied.contactId, created: applied.created };
}
