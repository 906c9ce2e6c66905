import type { Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { checkRateLimit } from "@/lib/rate-limit/check-rate-limit";
import { getBroadcast } from "./broadcasts";
import { previewValues, renderForRecipient } from "./email-template";
import type { MergeValues } from "./merge-tags";
import { sendEmail, type SendEmailResult } from "./send-email";

/** Test sends per member: [limit, window in seconds]. Enough to check a draft, too few to mail anyone. */
export const TEST_SEND_LIMIT = [10, 3600] as const;
export const TOO_MANY_TESTS = "Too many test emails in the last hour. Wait a while, then try again.";

/** Counts one test send against the member's bucket (as the service, in a transaction of its own). */
export async function testSendAllowed(db: Db, userId: string): Promise<boolean> {
  return (await checkRateLimit(db, `broadcast-test:user:${userId}`, ...TEST_SEND_LIMIT)).allowed;
}

/** The signed-in member's own address and name: where a test goes, and the sample a preview shows. */
export async function memberSample(db: Db, userId: string): Promise<MergeValues & { email: string }> {
  const [row] = await db<{ email: string | null; first_name: string | null; last_name: string | null }[]>`
    select email, first_name, last_name from public.user_profiles where id = ${userId}`;
  if (!row?.email) throw new AppError("not_found", "Your account has no email address.");
  return previewValues({ ...row, email: row.email }) as MergeValues & { email: string };
}

/**
 * "Send a test to me": the broadcast as a recipient would get it, merge tags filled with the
 * member's own name, to the member's own address only (never an address from the caller), as a
 * transactional email through sendEmail (recorded in the outbox like any other).
 */
export async function sendTestBroadcast(
  db: Db,
  input: { workspaceId: string; broadcastId: string; userId: string },
): Promise<SendEmailResult & { to: string }> {
  const broadcast = await getBroadcast(db, input);
  if (!broadcast) throw new AppError("not_found", "Broadcast not found.");
  const sample = await memberSample(db, input.userId);
  const { html, text } = renderForRecipient({ html: broadcast.body_html, text: broadcast.body_text }, sample);
  const sent = await sendEmail(db, {
    workspaceId: input.workspaceId,
    contactId: null,
    to: sample.email,
    kind: "transactional",
    subject: `[Test] ${broadcast.subject}`,
    html,
    text,
  });
  return { ...sent, to: sample.email };
}
