import type { Db } from "@/lib/db/doors";
import { appUrl } from "@/lib/config";
import { sendEmail } from "@/lib/email/send-email";
import { escapeHtml } from "@/lib/html/escape";
import { accountLinkUrl, RESET_LINK_MINUTES, SIGN_UP_LINK_HOURS } from "./account-links";

export interface AccountEmail {
  subject: string;
  text: string;
  html: string;
}

function email(subject: string, paragraphs: string[], link?: { url: string; label: string }): AccountEmail {
  const text = [...paragraphs, ...(link ? [link.url] : [])].join("\n\n");
  const html =
    paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("") +
    (link
      ? `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p><p>${escapeHtml(link.url)}</p>`
      : "");
  return { subject, text, html };
}

export function signUpEmail(token: string): AccountEmail {
  return email(
    "Confirm your email address",
    [
      "Someone, hopefully you, created an account with this email address.",
      `To confirm it, open this link within ${SIGN_UP_LINK_HOURS} hours and enter the password you chose.`,
      "If it was not you, ignore this email: no account is created.",
    ],
    { url: accountLinkUrl("/confirm-email", token), label: "Confirm my email address" },
  );
}

/** Sign-up with an address that already has an account: the owner learns it, the visitor nothing. */
export function existingAccountEmail(): AccountEmail {
  return email("You already have an account", [
    "Someone, hopefully you, tried to create an account with this email address, but it already has one.",
    `Sign in at ${appUrl()}/sign-in, or choose a new password at ${appUrl()}/forgot-password.`,
    "If it was not you, ignore this email: nothing changed.",
  ]);
}

export function resetPasswordEmail(token: string): AccountEmail {
  return email(
    "Choose a new password",
    [
      "Someone, hopefully you, asked to reset the password of the account with this email address.",
      `Open this link within ${RESET_LINK_MINUTES} minutes to choose a new one. It signs out every session of the account.`,
      "If it was not you, ignore this email: your password stays as it is.",
    ],
    { url: accountLinkUrl("/reset-password", token), label: "Choose a new password" },
  );
}

/**
 * Sends an account email through the one email path (Resend, or the dev outbox) as an
 * email_sends row with no workspace, so no workspace member can read it. A link's token is
 * redacted from the stored copy either way (sendEmail). In the dev outbox (no RESEND_API_KEY)
 * the server log prints it, with the link only in development (sendEmail's logOutboxEmail).
 */
export async function sendAccountEmail(
  db: Db,
  to: string,
  mail: AccountEmail,
  token?: string,
): Promise<void> {
  await sendEmail(db, {
    workspaceId: null,
    contactId: null,
    to,
    kind: "transactional",
    ...mail,
    redact: token ? [token] : [],
  });
}
