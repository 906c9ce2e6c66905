import { withService } from "@/lib/db/doors";
import { readQueuedEmail, recordEmailDelivery } from "../queued-email";
import { emailFrom, resendClient } from "../resend-client";

export type DeliverEmailOutcome = "sent" | "skipped" | "done" | "failed" | "retry";

/** Resend refusals that another attempt cannot change (a bad address, a bad key). */
function isPermanent(statusCode: number | null | undefined): boolean {
  return statusCode != null && statusCode >= 400 && statusCode < 500 && ![408, 409, 429].includes(statusCode);
}

/**
 * The 'email-send' job (docs/decisions.md, "Emails delivered by a job"): one queued single email through
 * Resend. Fetch first, then write: the row is read in a short transaction, Resend is called outside any
 * transaction, and the outcome is recorded in another that re-checks the row is still 'queued'. Every attempt
 * sends the same idempotency key, so an attempt whose answer was lost is answered by Resend from
 * the first delivery. A refusal another attempt may cure answers 'retry' (the job fails the
 * attempt and pg-boss retries it with backoff) until the last attempt, which records 'failed';
 * a permanent refusal records 'failed' at once. `body` is the unredacted email when the stored
 * copy had its link's token redacted (account and invitation emails).
 */
export async function deliverEmail(
  emailSendId: string,
  options: { lastAttempt?: boolean; body?: { html?: string; text?: string } } = {},
): Promise<{ outcome: DeliverEmailOutcome; error?: string }> {
  const found = await withService((db) => readQueuedEmail(db, emailSendId));
  if (!found) return { outcome: "done" };
  if ("skipped" in found) return { outcome: "skipped" };
  const { email } = found;
  const resend = resendClient();
  const { data, error } = resend
    ? await resend.emails.send(
        {
          from: emailFrom(),
          to: email.to_email,
          subject: email.subject,
          html: options.body?.html ?? email.html ?? "",
          text: options.body?.text ?? email.text_body ?? undefined,
          headers: email.headers,
        },
        { idempotencyKey: `email-send-${email.id}` },
      )
    : {
        data: null,
        error: { name: "not_configured", message: "RESEND_API_KEY is not set", statusCode: null },
      };
  if (data) {
    await withService((db) => recordEmailDelivery(db, email.id, { providerId: data.id }));
    return { outcome: "sent" };
  }
  const message = error ? `${error.name}: ${error.message}` : "Resend gave no answer";
  if (!options.lastAttempt && !isPermanent(error?.statusCode)) return { outcome: "retry", error: message };
  await withService((db) => recordEmailDelivery(db, email.id, { error: message }));
  return { outcome: "failed", error: message };
}
