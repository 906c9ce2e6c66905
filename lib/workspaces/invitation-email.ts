import type { Db } from "@/lib/db/doors";
import { accountLinkUrl, INVITATION_DAYS } from "@/lib/auth/account-links";
import { sendEmail } from "@/lib/email/send-email";
import { escapeHtml } from "@/lib/html/escape";

/**
 * The invitation email, sent through the workspace's email path (its outbox in
 * development). The link's token is redacted from the stored copy, which the workspace's
 * members read, whatever delivers it (sendEmail). The workspace's name is quoted
 * as a name, cleaned and cut (quotedWorkspaceName).
 */
export async function sendInvitationEmail(
  db: Db,
  input: { workspaceId: string; workspaceName: string; email: string; role: string; token: string },
): Promise<void> {
  const url = accountLinkUrl("/invitations/accept", input.token);
  const name = quotedWorkspaceName(input.workspaceName);
  const lines = [
    `You are invited to join the workspace ${name} as ${input.role}.`,
    "The workspace's name was chosen by its members, not by us. This email asks for nothing but to accept: never a password, never a payment.",
    `Open this link within ${INVITATION_DAYS} days and accept, signed in with this email address (${input.email}). No account yet? Create one with this address first, then open the link again.`,
    "If you do not want to join, ignore this email.",
  ];
  await sendEmail(db, {
    workspaceId: input.workspaceId,
    contactId: null,
    to: input.email,
    kind: "transactional",
    subject: `You are invited to join the workspace ${name}`,
    text: [...lines, "", url].join("\n\n"),
    html:
      lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("") +
      `<p><a href="${escapeHtml(url)}">Open the invitation</a></p><p>${escapeHtml(url)}</p>`,
    redact: [input.token],
  });
}

/** Longest workspace name an invitation repeats; a longer one is cut with an ellipsis. */
export const INVITATION_NAME_MAX = 60;

/**
 * A workspace's name as an invitation repeats it. The name is any text a workspace's admin
 * typed, and the email leaves from our own sender to any address: so it is quoted as a name,
 * never as our words; control and invisible formatting characters (line breaks, bidi
 * overrides) are dropped; anything that reads as a link or an address is removed, so the
 * email carries no link but ours; and it is cut to INVITATION_NAME_MAX characters.
 */
export function quotedWorkspaceName(raw: string): string {
  const name = raw
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, " ")
    .replace(/\S*(?:[a-z][a-z0-9+.-]*:\/\/|www\.|@)\S*/giu, " ")
    .replace(/\S*[\p{L}\p{N}-]\.[\p{L}]{2,}\S*/gu, " ")
    .replace(/\s+/gu, " ")
    .trim();
  const cut =
    [...name].length > INVITATION_NAME_MAX
      ? `${[...name]
          .slice(0, INVITATION_NAME_MAX - 1)
          .join("")
          .trimEnd()}…`
      : name;
  return `“${cut || "unnamed"}”`;
}
