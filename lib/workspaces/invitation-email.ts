import type { Db } from "@/lib/db/doors";
import { accountLinkUrl, INVITATION_DAYS } from "@/lib/auth/account-links";
import { sendEmail } from "@/lib/email/send-email";
import { escapeHtml } from "@/lib/html/escape";

/**
 * The invitation email, sent through the workspace's email path (its outbox in
 * development). The link's token is redacted from the stored copy when Resend delivers
 * it; in the outbox it stays readable, and is harmless to other members there: only the
 * invited address, signed in and confirmed, can accept it.
 */
export async function sendInvitationEmail(
  db: Db,
  input: { workspaceId: string; workspaceName: string; email: string; role: string; token: string },
): Promise<void> {
  const url = accountLinkUrl("/invitations/accept", input.token);
  const lines = [
    `You are invited to join ${input.workspaceName} as ${input.role}.`,
    `Open this link within ${INVITATION_DAYS} days and accept, signed in with this email address (${input.email}). No account yet? Create one with this address first, then open the link again.`,
    "If you do not want to join, ignore this email.",
  ];
  await sendEmail(db, {
    workspaceId: input.workspaceId,
    contactId: null,
    to: input.email,
    kind: "transactional",
    subject: `You are invited to join ${input.workspaceName}`,
    text: [...lines, "", url].join("\n\n"),
    html:
      lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("") +
      `<p><a href="${escapeHtml(url)}">Open the invitation</a></p><p>${escapeHtml(url)}</p>`,
    redact: [input.token],
  });
}
