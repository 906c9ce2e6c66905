import { appUrl } from "@/lib/config";
import { escapeHtml } from "@/lib/html/escape";

/** Spec 4.2.2 A.2: the link is {base_url}/api/forms/verify?token=<token>. */
export function verificationUrl(token: string): string {
  return `${appUrl()}/api/forms/verify?token=${encodeURIComponent(token)}`;
}

/** The verification email of a staged submission (transactional; spec 6.4). */
export function verificationEmail(input: { workspaceName: string; formName: string; token: string }) {
  const url = verificationUrl(input.token);
  const subject = `Confirm your details for ${input.workspaceName}`;
  const text = [
    `Someone, hopefully you, sent the form “${input.formName}” of ${input.workspaceName} with this email address.`,
    "",
    `To confirm it was you and apply your details, open this link within 24 hours:`,
    url,
    "",
    "If it was not you, ignore this email: nothing changes.",
  ].join("\n");
  const html =
    `<p>Someone, hopefully you, sent the form “${escapeHtml(input.formName)}” of ${escapeHtml(input.workspaceName)} with this email address.</p>` +
    `<p><a href="${escapeHtml(url)}">Confirm my details</a></p>` +
    `<p>Or open this link within 24 hours: ${escapeHtml(url)}</p>` +
    `<p>If it was not you, ignore this email: nothing changes.</p>`;
  return { subject, html, text };
}
