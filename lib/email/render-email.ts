import { appUrl } from "@/lib/config";
import { signLink, signLinkSql, type LinkSubject } from "@/lib/crypto/signed-link";
import type { Db } from "@/lib/db/doors";
import type { Fragment } from "@/lib/segments/compile";
import { escapeHtml } from "@/lib/html/escape";
import { blockedFromMarketingOnly, type EligibilityInput, type EmailKind } from "@/lib/consent/eligibility";
import { hasUnsubscribeTag, mergeSql, renderMerge, UNSUBSCRIBE_URL, type MergeValues } from "./merge-tags";

export interface RenderInput {
  kind: EmailKind;
  contactId: string | null;
  html: string;
  text?: string;
  /** a marketing email's merge tag values (merge-tags.ts); the unsubscribe link is added here */
  merge?: MergeValues;
  /** a broadcast's subscription topic: its unsubscribe link leaves that topic only */
  topicId?: string | null;
}

/** What render needs to know of the recipient and their workspace. */
export interface RenderRecipient extends EligibilityInput {
  /** the contact's workspace, which its links are signed for */
  workspace_id: string;
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

/**
 * Spec 4.7: {tracking_url}/unsubscribe/{contact_id}, the platform URL when the workspace has none,
 * signed for the preference centre (`?sig=`, docs/decisions.md "Signed recipient links");
 * `&topic=<id>` for an email sent to a subscription topic (docs/decisions.md, "Subscription topics").
 */
export function unsubscribeUrl(
  trackingUrl: string | null,
  subject: LinkSubject,
  topicId?: string | null,
): string {
  const topic = topicId ? `&topic=${topicId}` : "";
  const sig = signLink("preferences", subject);
  return `${(trackingUrl || appUrl()).replace(/\/+$/, "")}/unsubscribe/${subject.contactId}?sig=${sig}${topic}`;
}

/** Spec 4.8: the footer links to {base_url}/api/subscribe/{contact_id}, signed (`?sig=`). */
export function subscribeUrl(subject: LinkSubject): string {
  return `${appUrl()}/api/subscribe/${subject.contactId}?sig=${signLink("subscribe", subject)}`;
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
    const url = unsubscribeUrl(
      r.tracking_url,
      { workspaceId: r.workspace_id, contactId: input.contactId },
      input.topicId,
    );
    const hadTag = hasUnsubscribeTag(html);
    const values = { ...input.merge, [UNSUBSCRIBE_URL]: url };
    html = renderMerge(html, values, "html");
    text = text === undefined ? undefined : renderMerge(text, values, "text");
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
    const url = subscribeUrl({ workspaceId: r.workspace_id, contactId: input.contactId });
    html += `<p style="font-size:12px;color:#666">${escapeHtml(r.subscribe_footer_message)} <a href="${escapeHtml(url)}">${escapeHtml(r.subscribe_footer_link_text)}</a></p>`;
    if (text !== undefined)
      text += `\n\n${r.subscribe_footer_message} ${r.subscribe_footer_link_text}: ${url}`;
  }
  return { html, text, headers };
}

/**
 * `case <lang> when 'es' then … else <own> end` over a broadcast's translations: each language's value,
 * else the broadcast's own (the rendering here, the subject in send-broadcast.ts). No translations: `own`.
 */
export function languageCase<T extends { lang: string }>(
  db: Db,
  lang: Fragment,
  translations: T[],
  each: (t: T) => Fragment,
  own: Fragment,
): Fragment {
  if (translations.length === 0) return own;
  const whens = translations.reduce((acc, t) => db`${acc} when ${t.lang}::text then ${each(t)}`, db``);
  return db`case ${lang} ${whens} else ${own} end`;
}

/**
 * renderEmail for a broadcast's marketing email, as SQL over a batch of contacts (`b.id`,
 * `b.skip`: the 8.3 skip reason or null, and the contact fields merge tags read) and their
 * workspace (`w.id`, `w.tracking_url`): the columns html, text_body and headers, computed where the rows
 * are inserted. The same rule in two spellings; a test holds them to the same output. With
 * `translations`, a row whose `b.lang` is one of their codes gets that html and text instead
 * (docs/decisions.md, "Recipient languages").
 */
export function renderedMarketingSql(
  db: Db,
  html: string,
  text: string | null,
  topicId?: string | null,
  translations: { lang: string; html: string; text: string | null }[] = [],
) {
  const base = appUrl();
  const url = db`e.url`;
  const footerOf = (template: string) =>
    hasUnsubscribeTag(template)
      ? db``
      : db`|| '<p style="font-size:12px;color:#666"><a href="' || e.url_html || '">Unsubscribe</a></p>'`;
  /** the variant for the row's language, else the broadcast's own */
  const byLanguage = (own: Fragment, each: (t: (typeof translations)[number]) => Fragment) =>
    languageCase(db, db`b.lang`, translations, each, own);
  const mergedHtml = byLanguage(
    db`${mergeSql(db, html, "html", url)} ${footerOf(html)}`,
    (t) => db`${mergeSql(db, t.html, "html", url)} ${footerOf(t.html)}`,
  );
  const mergedText = (template: string | null) =>
    template === null ? db`null::text` : mergeSql(db, template, "text", url);
  const anyText = text !== null || translations.some((t) => t.text !== null);
  // The link and the text body are computed once a row: `offset 0` keeps each subquery from being
  // pulled up into its readers, which would repeat its expression (the link's HMAC) at every reference.
  const textBody = !anyText
    ? db`null::text`
    : db`case when strpos(t.body, e.url) > 0 then t.body else t.body || E'\\n\\nUnsubscribe: ' || e.url end`;
  const textPart = !anyText
    ? db``
    : db`cross join lateral (select ${byLanguage(mergedText(text), (t) => mergedText(t.text))} as body offset 0) t`;
  return db`(
    select case when b.skip is not null then ${html}::text else ${mergedHtml} end as html,
           case when b.skip is not null then ${text}::text else ${textBody} end as text_body,
           case when b.skip is not null then '{}'::jsonb
                else jsonb_build_object('List-Unsubscribe', '<' || e.url || '>',
                                        'List-Unsubscribe-Post', 'List-Unsubscribe=One-Click')
           end as headers
    from (select u.url,
                 replace(replace(replace(replace(replace(u.url, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#39;') as url_html
          from (select rtrim(coalesce(nullif(w.tracking_url, ''), ${base}::text), '/') || '/unsubscribe/' || b.id
                       || '?sig=' || ${signLinkSql(db, "preferences", db`w.id`, db`b.id`)}
                       || coalesce('&topic=' || ${topicId ?? null}::text, '') as url
                offset 0) u) e
    ${textPart}
  )`;
}
