import { appUrl } from "@/lib/config";
import { escapeHtml } from "@/lib/html/escape";
import { blockedFromMarketingOnly, type EligibilityInput, type EmailKind } from "@/lib/consent/eligibility";

export interface RenderInput {
  kind: EmailKind;
  contactId: string | null;
  html: string;
  text?: string;
}

/** What render needs to know of the recipient and their workspace. */
export interface RenderRecipient extends EligibilityInput {
  tracking_url: string | null;
  subscribe_footer_enabled: boolean;
  subscribe_footer_message: string;
  subscribe_footer_link_text: string;
}

export interface RenderedEmail {
  html: string;
  text?: string;
  headers: Record<string, string>;
}

export const UNSUBSCRIBE_TAG = "{{unsubscribe_url}}";

/** Spec 4.7: {tracking_url}/unsubscribe/{contact_id}, the platform URL when the workspace has none. */
export function unsubscribeUrl(trackingUrl: string | null, contactId: string): string {
  return `${(trackingUrl || appUrl()).replace(/\/+$/, "")}/unsubscribe/${contactId}`;
}

/** Spec 4.8: the footer links to {base_url}/api/subscribe/{contact_id}. */
export function subscribeUrl(contactId: string): string {
  return `${appUrl()}/api/subscribe/${contactId}`;
}

/**
 * Builds what is actually sent. Marketing: {{unsubscribe_url}} resolved (or an unsubscribe line
 * appended), List-Unsubscribe and List-Unsubscribe-Post headers (RFC 8058). Transactional: none
 * of that, the tag left as written (spec 4.7); the subscribe footer of 4.8 when the workspace has
 * it on and the contact may get transactional but not marketing email.
 */
export function renderEmail(input: RenderInput, r: RenderRecipient | null): RenderedEmail {
  let { html, text } = input;
  const headers: Record<string, string> = {};
  if (input.kind === "marketing" && input.contactId && r) {
    const url = unsubscribeUrl(r.tracking_url, input.contactId);
    const hadTag = html.includes(UNSUBSCRIBE_TAG);
    html = html.replaceAll(UNSUBSCRIBE_TAG, escapeHtml(url));
    text = text?.replaceAll(UNSUBSCRIBE_TAG, url);
    if (!hadTag)
      html += `<p style="font-size:12px;color:#666"><a href="${escapeHtml(url)}">Unsubscribe</a></p>`;
    if (text !== undefined && !text.includes(url)) text += `\n\nUnsubscribe: ${url}`;
    headers["List-Unsubscribe"] = `<${url}>`;
    headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click";
  } else if (
    input.kind === "transactional" &&
    input.contactId &&
    r?.subscribe_footer_enabled &&
    blockedFromMarketingOnly(r)
  ) {
    const url = subscribeUrl(input.contactId);
    html += `<p style="font-size:12px;color:#666">${escapeHtml(r.subscribe_footer_message)} <a href="${escapeHtml(url)}">${escapeHtml(r.subscribe_footer_link_text)}</a></p>`;
    if (text !== undefined)
      text += `\n\n${r.subscribe_footer_message} ${r.subscribe_footer_link_text}: ${url}`;
  }
  return { html, text, headers };
}
