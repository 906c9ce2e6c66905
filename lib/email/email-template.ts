import { randomBytes } from "node:crypto";
import { Marked } from "marked";
import mjml2html from "mjml";
import sanitizeHtml from "sanitize-html";
import { escapeHtml } from "@/lib/html/escape";
import type { Branding } from "./branding";
import {
  canonicalTag,
  MergeTagError,
  parseMergeTemplate,
  renderMerge,
  UNSUBSCRIBE_URL,
  type MergeTag,
  type MergeValues,
} from "./merge-tags";

/**
 * A broadcast written in Markdown, in the workspace's branded layout (docs/decisions.md, "Email
 * templates and scheduled broadcasts"): Markdown (marked, raw HTML shown as text, the output
 * sanitised) inside an MJML layout (responsive tables that mail clients render), with the
 * workspace's logo, colours and postal address footer. Merge tags pass through as opaque tokens
 * and come out in canonical form (merge-tags.ts), resolved per recipient at send time.
 */

export interface CompiledTemplate {
  html: string;
  text: string;
}

const HEX = /^#[0-9a-f]{6}$/;
const color = (value: string, fallback: string) => (HEX.test(value) ? value : fallback);

/** Markdown with raw HTML disabled: an HTML block or tag in the source is shown as its text. */
const markdown = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html: ({ text }) => escapeHtml(text),
  },
});

/** The HTML a broadcast's Markdown may keep, by kind: blocks, inline formatting, lists, tables. */
const BLOCK_TAGS = ["p", "br", "hr", "h1", "h2", "h3", "h4", "blockquote", "pre", "code"];
const INLINE_TAGS = ["strong", "em", "del", "a", "img"];
const LIST_TAGS = ["ul", "ol", "li"];
const TABLE_TAGS = ["table", "thead", "tbody", "tr", "th", "td"];

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [...BLOCK_TAGS, ...INLINE_TAGS, ...LIST_TAGS, ...TABLE_TAGS],
  allowedAttributes: { a: ["href", "title"], img: ["src", "alt", "title"] },
  allowedSchemes: ["https", "http", "mailto"],
  allowedSchemesByTag: { img: ["https"] },
};

/** A token a Markdown renderer and MJML leave as it is (letters and digits only). */
const tokenOf = (nonce: string, i: number) => `MERGE${nonce}T${i}X`;

/**
 * Compiles a broadcast's Markdown into its HTML and text parts, tags in canonical form. Refuses
 * (MergeTagError) an unknown or malformed tag, and a tag other than {{unsubscribe_url}} as a
 * link's address: a contact's name never becomes where a link goes.
 */
export async function compileTemplate(source: string, branding: Branding): Promise<CompiledTemplate> {
  const { texts, tags } = parseMergeTemplate(source);
  const nonce = randomBytes(6).toString("hex");
  const withTokens = texts.reduce(
    (out, text, i) => out + text + (i < tags.length ? tokenOf(nonce, i) : ""),
    "",
  );
  const content = sanitizeHtml(markdown.parse(withTokens) as string, SANITIZE);
  tags.forEach((tag, i) => {
    const inAddress = new RegExp(`(href|src)="[^"]*${tokenOf(nonce, i)}`).test(content);
    if (inAddress && tag.name !== UNSUBSCRIBE_URL)
      throw new MergeTagError(
        "unknown_merge_tag",
        `{{${tag.name}}} cannot be a link's address; only {{unsubscribe_url}} can.`,
      );
  });
  const footerToken = tokenOf(nonce, tags.length);
  const all: MergeTag[] = [...tags, { name: UNSUBSCRIBE_URL, fallback: "" }];
  const { html, errors } = await mjml2html(layout(content, branding, footerToken), {
    validationLevel: "soft",
    keepComments: false,
  });
  if (!html) throw new Error(`MJML rendered nothing: ${errors.map((e) => e.formattedMessage).join("; ")}`);
  const replaceTokens = (text: string, fallbackOf: (tag: MergeTag) => string) =>
    all.reduce(
      (out, tag, i) =>
        out.replaceAll(tokenOf(nonce, i), canonicalTag({ name: tag.name, fallback: fallbackOf(tag) })),
      text,
    );
  const address = branding.postal_address?.trim();
  const text = `${withTokens.trim()}\n\n--\n${address ? `${branding.name}\n${address}\n` : ""}Unsubscribe: ${footerToken}\n`;
  return {
    // in the HTML part a fallback is stored escaped, as the HTML around it
    html: replaceTokens(html, (tag) => escapeHtml(tag.fallback)),
    text: replaceTokens(text, (tag) => tag.fallback),
  };
}

function layout(content: string, b: Branding, unsubscribeToken: string): string {
  const brand = color(b.brand_color, "#1f2937");
  const accent = color(b.brand_accent_color, "#2563eb");
  const name = escapeHtml(b.name);
  const header = b.brand_logo_url?.startsWith("https://")
    ? `<mj-image src="${escapeHtml(b.brand_logo_url)}" alt="${name}" width="160px" padding="16px" />`
    : `<mj-text color="#ffffff" font-size="20px" font-weight="bold">${name}</mj-text>`;
  const address = (b.postal_address ?? "").trim().split(/\r?\n/).map(escapeHtml).join("<br />");
  return `<mjml>
  <mj-head>
    <mj-attributes>
      <mj-all font-family="Helvetica, Arial, sans-serif" />
      <mj-text font-size="16px" line-height="1.5" color="#1f2937" />
    </mj-attributes>
    <mj-style inline="inline">a { color: ${accent}; } h1, h2, h3 { color: ${brand}; }</mj-style>
  </mj-head>
  <mj-body background-color="#f3f4f6" width="600px">
    <mj-section background-color="${brand}"><mj-column>${header}</mj-column></mj-section>
    <mj-section background-color="#ffffff"><mj-column><mj-text>${content}</mj-text></mj-column></mj-section>
    <mj-section><mj-column>
      <mj-text font-size="12px" color="#6b7280" align="center">${name}${address ? `<br />${address}` : ""}<br /><a href="${unsubscribeToken}">Unsubscribe</a></mj-text>
    </mj-column></mj-section>
  </mj-body>
</mjml>`;
}

/** Sample values a preview shows: the member's own name where the contact's would go. */
export function previewValues(sample: {
  first_name?: string | null;
  last_name?: string | null;
  email: string;
}): MergeValues {
  return { ...sample, [UNSUBSCRIBE_URL]: "#unsubscribe" };
}

/** A compiled template as one recipient sees it (the preview, the test send). */
export function renderForRecipient(compiled: CompiledTemplate, values: MergeValues): CompiledTemplate {
  return {
    html: renderMerge(compiled.html, values, "html"),
    text: renderMerge(compiled.text, values, "text"),
  };
}
