import { appUrl } from "@/lib/config";
import { escapeHtml } from "@/lib/html/escape";
import { htmlMessage, textMessage } from "@/lib/i18n/rich";
import { translator, type Translator } from "@/lib/i18n/translator";

/** Spec 4.2.2 A.2: the link is {base_url}/api/forms/verify?token=<token>. */
export function verificationUrl(token: string): string {
  return `${appUrl()}/api/forms/verify?token=${encodeURIComponent(token)}`;
}

/**
 * The verification email of a staged submission (transactional; spec 6.4), in the recipient's
 * language (docs/decisions.md, "Recipient languages"; English when none is given).
 */
export function verificationEmail(input: {
  workspaceName: string;
  formName: string;
  token: string;
  t?: Translator;
}) {
  const t = input.t ?? translator("en");
  const url = verificationUrl(input.token);
  const names = { form: input.formName, workspace: input.workspaceName };
  const subject = textMessage(t, "verificationEmail.subject", names);
  const text = [
    textMessage(t, "verificationEmail.intro", names),
    "",
    textMessage(t, "verificationEmail.openWithin"),
    url,
    "",
    textMessage(t, "verificationEmail.notYou"),
  ].join("\n");
  const html =
    `<p>${htmlMessage(t, "verificationEmail.intro", names)}</p>` +
    `<p><a href="${escapeHtml(url)}">${htmlMessage(t, "verificationEmail.button")}</a></p>` +
    `<p>${htmlMessage(t, "verificationEmail.orOpen", { url })}</p>` +
    `<p>${htmlMessage(t, "verificationEmail.notYou")}</p>`;
  return { subject, html, text };
}
