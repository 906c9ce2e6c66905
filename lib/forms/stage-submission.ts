import type { Db } from "@/lib/db/doors";
import { sendEmail } from "@/lib/email/send-email";
import type { PublicForm } from "./form-row";
import type { SubmittedBody } from "@/lib/http/parse-body";
import { verificationEmail } from "./verification-email";
import { newVerificationToken } from "./verification-token";
import { recipientLocale } from "@/lib/i18n/recipient-locale";
import { translator } from "@/lib/i18n/translator";

export interface StageSubmissionInput {
  form: Pick<PublicForm, "id" | "workspace_id" | "name" | "workspace_name"> & { locale?: string | null };
  contactId: string;
  email: string;
  payload: SubmittedBody;
  ip: string | null;
  /** the submission's `?lang=` and `Accept-Language`: the email's language after the contact's own */
  language?: { lang?: string | null; acceptLanguage?: string | null };
}

/**
 * Spec 4.2.2 A (double opt-in): the payload is staged in pending_form_submissions under the
 * digest of a single-use token, and the verification email carries the token. The contact
 * is not touched. A newer submission of the same form and email replaces a staged one, so
 * an older link can never apply older details over newer ones. Rows that expired more than
 * a week ago are swept here (their 410 page is kept for a week, then a link reads as unknown).
 */
export async function stageSubmission(db: Db, input: StageSubmissionInput): Promise<{ pendingId: string }> {
  const { token, digest } = newVerificationToken();
  // the email's language (docs/decisions.md, "Recipient languages"): ?lang=, the contact's locale
  // (else the form's), Accept-Language, the workspace's default
  const locale = await recipientLocale(db, {
    contactId: input.contactId,
    workspaceId: input.form.workspace_id,
    formLocale: input.form.locale,
    lang: input.language?.lang,
    acceptLanguage: input.language?.acceptLanguage,
  });
  const email = verificationEmail({
    workspaceName: input.form.workspace_name,
    formName: input.form.name,
    token,
    t: translator(locale),
  });
  // Pipelined on the transaction's connection, executed in this order.
  const [, , [pending]] = await Promise.all([
    db`delete from public.pending_form_submissions where expires_at < now() - interval '7 days'`,
    db`delete from public.pending_form_submissions where form_id = ${input.form.id} and email = ${input.email}`,
    db`
      insert into public.pending_form_submissions (workspace_id, form_id, email, payload, token, ip_address)
      values (${input.form.workspace_id}, ${input.form.id}, ${input.email}, ${db.json(input.payload as never)},
              ${digest}, ${input.ip})
      returning id`,
    sendEmail(db, {
      workspaceId: input.form.workspace_id,
      contactId: input.contactId,
      to: input.email,
      kind: "transactional",
      ...email,
      // members read the workspace's email log: the link would let them confirm for the person
      redact: [token],
    }),
  ]);
  return { pendingId: pending.id };
}
