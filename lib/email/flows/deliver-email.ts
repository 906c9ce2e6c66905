import { withService } from "@/lib/db/doors";
import { done, failed, retry, type JobOutcome } from "@/lib/jobs/outcome";
import { readQueuedEmail, recordEmailDelivery } from "../queued-email";
import { sendThroughResend } from "../resend-client";
import { senderFor } from "../sender";
import { isPermanentRefusal } from "./pace-provider";

/** What a done attempt found: sent now, or nothing left to send (sent or cancelled before). */
export type DeliverEmailOutcome = "sent" | "skipped" | "done";

/**
 * The 'email-send' job (docs/decisions.md, "Emails delivered by a job"): one queued single email through
 * Resend. Fetch first, then write: the row is read in a short transaction, Resend is called outside any
 * transaction, and the outcome is recorded in another that re-checks the row is still 'queued'. Every attempt
 * sends the same idempotency key, so an attempt whose answer was lost is answered by Resend from
 * the first delivery. A refusal another attempt may cure answers `retry` (pg-boss retries it with
 * backoff) until the last attempt, which records 'failed' and fails the job; a permanent refusal
 * records 'failed' and fails the job at once (docs/decisions.md, "One job outcome"). `body` is the unredacted email when the stored
 * copy had its link's token redacted (account and invitation emails).
 */
export async function deliverEmail(
  emailSendId: string,
  options: { lastAttempt?: boolean; body?: { html?: string; text?: string } } = {},
): Promise<JobOutcome<{ outcome: DeliverEmailOutcome }>> {
  const found = await withService(async (db) => {
    const read = await readQueuedEmail(db, emailSendId);
    return read && "email" in read ? { ...read, sender: await senderFor(db, read.email.workspace_id) } : read;
  });
  if (!found) return done({ outcome: "done" });
  if ("skipped" in found) return done({ outcome: "skipped" });
  const { email, sender } = found;
  const answer = await sendThroughResend((resend) =>
    resend.emails.send(
      {
        from: sender.from,
        ...(sender.replyTo ? { replyTo: sender.replyTo } : {}),
        to: email.to_email,
        subject: email.subject,
        html: options.body?.html ?? email.html ?? "",
        text: options.body?.text ?? email.text_body ?? undefined,
        headers: email.headers,
      },
      { idempotencyKey: `email-send-${email.id}` },
    ),
  );
  const { data, error } = answer ?? {
    data: null,
    error: { name: "not_configured", message: "RESEND_API_KEY is not set", statusCode: null },
  };
  if (data) {
    await withService((db) => recordEmailDelivery(db, email.id, { providerId: data.id }));
    return done({ outcome: "sent" });
  }
  const message = error ? `${error.name}: ${error.message}` : "Resend gave no answer";
  if (!options.lastAttempt && !isPermanentRefusal(error?.statusCode))
    return retry("provider_failed", message);
  await withService((db) => recordEmailDelivery(db, email.id, { error: message }));
  return failed("provider_failed", message);
}
