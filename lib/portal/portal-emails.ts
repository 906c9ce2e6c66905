import type { Db } from "@/lib/db/doors";
import { sendEmail } from "@/lib/email/send-email";
import { escapeHtml } from "@/lib/html/escape";
import type { Translator } from "@/lib/i18n/translator";
import { EMAIL_CHANGE_LINK_MINUTES, PORTAL_LINK_MINUTES } from "./portal-links";

interface LinkEmail {
  subject: string;
  paragraphs: string[];
  link: { url: string; label: string };
}

function render(mail: LinkEmail, lang: string) {
  const text = [...mail.paragraphs, mail.link.url].join("\n\n");
  const html =
    `<div lang="${escapeHtml(lang)}">` +
    mail.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("") +
    `<p><a href="${escapeHtml(mail.link.url)}">${escapeHtml(mail.link.label)}</a></p>` +
    `<p>${escapeHtml(mail.link.url)}</p></div>`;
  return { subject: mail.subject, text, html };
}

/**
 * Sends one of the portal's links to a contact (transactional: it answers the person's request), in
 * their language. The link's token is redacted from the copy members read (sendEmail's `redact`).
 */
async function sendLinkEmail(
  db: Db,
  to: { workspaceId: string; contactId: string; email: string },
  mail: LinkEmail,
  token: string,
  lang: string,
): Promise<void> {
  await sendEmail(db, {
    workspaceId: to.workspaceId,
    contactId: to.contactId,
    to: to.email,
    kind: "transactional",
    ...render(mail, lang),
    redact: [token],
  });
}

/** The sign-in link of {base_url}/portal/{workspace_id}/enter (DESIGN.md section 9). */
export function sendPortalLinkEmail(
  db: Db,
  to: { workspaceId: string; contactId: string; email: string; workspaceName: string },
  link: { url: string; token: string },
  t: Translator,
): Promise<void> {
  const values = { workspace: to.workspaceName, minutes: PORTAL_LINK_MINUTES };
  return sendLinkEmail(
    db,
    to,
    {
      subject: t.t("portal.linkEmail.subject", values),
      paragraphs: [
        t.t("portal.linkEmail.intro", values),
        t.t("portal.linkEmail.expiry", values),
        t.t("portal.linkEmail.ignore"),
      ],
      link: { url: link.url, label: t.t("portal.linkEmail.action") },
    },
    link.token,
    t.locale,
  );
}

/** The confirmation of a new address, sent to that address (spec 4.10 as the portal applies it). */
export function sendEmailChangeEmail(
  db: Db,
  to: { workspaceId: string; contactId: string; email: string; workspaceName: string },
  link: { url: string; token: string },
  t: Translator,
): Promise<void> {
  const values = { workspace: to.workspaceName, hours: EMAIL_CHANGE_LINK_MINUTES / 60 };
  return sendLinkEmail(
    db,
    to,
    {
      subject: t.t("portal.emailChangeEmail.subject", values),
      paragraphs: [
        t.t("portal.emailChangeEmail.intro", values),
        t.t("portal.emailChangeEmail.expiry", values),
        t.t("portal.emailChangeEmail.ignore"),
      ],
      link: { url: link.url, label: t.t("portal.emailChangeEmail.action") },
    },
    link.token,
    t.locale,
  );
}
