import type postgres from "postgres";
import type { Db } from "@/lib/db/doors";
import { escapeHtml } from "@/lib/html/escape";

/**
 * Merge tags (docs/decisions.md, "Email templates and scheduled broadcasts"): `{{ name }}` or
 * `{{ name | "fallback" }}` in a broadcast's Markdown. A tag's value is always text: escaped for
 * HTML in the HTML part and stripped of control characters in the text part, so a contact whose
 * name is `<script>` gets that name shown, never run or parsed. Unknown names are refused when
 * the broadcast is saved (`unknown_merge_tag`), so a typo never reaches a recipient as `{{frist_name}}`.
 */

/**
 * The contact columns a tag may name. The broadcast's batch reads them onto its rows (`b`,
 * send-broadcast.ts), where mergeSql finds them.
 */
export const CONTACT_FIELDS = ["first_name", "last_name", "email", "city", "country"] as const;

/** The recipient's unsubscribe link (spec 4.7): resolved by the send, never from a contact field. */
export const UNSUBSCRIBE_URL = "unsubscribe_url";

/**
 * Custom fields, once they exist: a hook that names the extra tags (`field.<key>`) a workspace
 * may use. Until the custom fields land it names none.
 */
export function customFieldTags(): string[] {
  return [];
}

export const MERGE_TAG_NAMES: readonly string[] = [...CONTACT_FIELDS, UNSUBSCRIBE_URL];

export interface MergeTag {
  name: string;
  fallback: string;
}

/** A template split at its tags: text, tag, text, …, text (always one more text than tags). */
export interface MergeTemplate {
  texts: string[];
  tags: MergeTag[];
}

const FALLBACK_MAX = 200;
// `{{`, a name, optionally `| "fallback"` (no quote or brace inside), `}}`
const TAG = /\{\{\s*([A-Za-z_][A-Za-z0-9_.]*)\s*(?:\|\s*"([^"{}]*)"\s*)?\}\}/g;

export class MergeTagError extends Error {
  constructor(
    readonly code: "unknown_merge_tag",
    message: string,
  ) {
    super(message);
  }
}

/**
 * Splits `source` at its merge tags. A `{{` that does not open a well-formed tag, a name that is
 * not a known tag, or a fallback over 200 characters is refused with a message naming it.
 */
export function parseMergeTemplate(
  source: string,
  known: readonly string[] = MERGE_TAG_NAMES,
): MergeTemplate {
  const texts: string[] = [];
  const tags: MergeTag[] = [];
  let last = 0;
  for (const match of source.matchAll(TAG)) {
    const before = source.slice(last, match.index);
    refuseStrayBraces(before);
    const [, name, fallback = ""] = match;
    if (!known.includes(name) && !customFieldTags().includes(name))
      throw new MergeTagError(
        "unknown_merge_tag",
        `Unknown merge tag {{${name}}}. Use one of: ${[...known, ...customFieldTags()].map((n) => `{{${n}}}`).join(", ")}.`,
      );
    if (fallback.length > FALLBACK_MAX)
      throw new MergeTagError(
        "unknown_merge_tag",
        `Keep the fallback of {{${name}}} under ${FALLBACK_MAX} characters.`,
      );
    texts.push(before);
    tags.push({ name, fallback });
    last = match.index + match[0].length;
  }
  const rest = source.slice(last);
  refuseStrayBraces(rest);
  texts.push(rest);
  return { texts, tags };
}

function refuseStrayBraces(text: string) {
  const stray = text.indexOf("{{");
  if (stray >= 0)
    throw new MergeTagError(
      "unknown_merge_tag",
      `A merge tag is not written right near "${text.slice(stray, stray + 30)}": write {{first_name}} or {{first_name | "friend"}}.`,
    );
}

/** The tag in the one form the renderers read back (a fallback holds no quote or brace). */
export function canonicalTag(tag: MergeTag): string {
  return tag.fallback ? `{{${tag.name}|"${tag.fallback}"}}` : `{{${tag.name}}}`;
}

/** Whether a stored template places the unsubscribe link itself (else the send appends one). */
export function hasUnsubscribeTag(template: string): boolean {
  return parseStored(template).tags.some((tag) => tag.name === UNSUBSCRIBE_URL);
}

/** Control characters (but tab and newline) out of a value placed in the text part. */
export function textValue(value: string): string {
  return value.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "").replace(/[\r\n]+/g, " ");
}

export type MergeValues = Partial<Record<string, string | null>>;

/**
 * Renders a template in canonical form (stored body_html or body_text) for one recipient: every
 * tag becomes its value, or its fallback when the value is empty, escaped for `part`. Text
 * around the tags is kept as written (it is the template's own HTML). The SQL twin is
 * mergeSql; a test holds the two to the same output.
 */
export function renderMerge(template: string, values: MergeValues, part: "html" | "text"): string {
  const { texts, tags } = parseStored(template);
  let out = texts[0];
  tags.forEach((tag, i) => {
    const value = values[tag.name];
    const chosen = value ? value : part === "html" ? unescapeFallback(tag.fallback) : tag.fallback;
    out += (part === "html" ? escapeHtml(chosen) : textValue(chosen)) + texts[i + 1];
  });
  return out;
}

/** Stored templates were checked when saved: read back leniently, an unknown tag kept as text. */
function parseStored(template: string): MergeTemplate {
  const texts: string[] = [];
  const tags: MergeTag[] = [];
  let last = 0;
  for (const match of template.matchAll(TAG)) {
    if (!MERGE_TAG_NAMES.includes(match[1]) && !customFieldTags().includes(match[1])) continue;
    texts.push(template.slice(last, match.index));
    tags.push({ name: match[1], fallback: match[2] ?? "" });
    last = match.index + match[0].length;
  }
  texts.push(template.slice(last));
  return { texts, tags };
}

/** In the HTML part a fallback was stored escaped (templateHtml): it is escaped again on output. */
function unescapeFallback(fallback: string): string {
  return fallback
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&#39;", "'")
    .replaceAll("&quot;", '"')
    .replaceAll("&amp;", "&");
}

/** The SQL twin of escapeHtml. */
type Fragment = postgres.PendingQuery<postgres.Row[]>;
const escapeHtmlSql = (db: Db, value: Fragment) =>
  db`replace(replace(replace(replace(replace(${value}, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#39;')`;

/** The SQL twin of textValue. */
const textValueSql = (db: Db, value: Fragment) =>
  db`regexp_replace(regexp_replace(${value}, '[\\x01-\\x08\\x0b-\\x1f\\x7f]', '', 'g'), '[\\r\\n]+', ' ', 'g')`;

/**
 * renderMerge as SQL over a contact `c` and its unsubscribe link (`url`: an SQL expression),
 * for the broadcast's set-based batch insert (send-broadcast.ts).
 */
export function mergeSql(db: Db, template: string, part: "html" | "text", url: Fragment) {
  const { texts, tags } = parseStored(template);
  let out = db`${texts[0]}::text`;
  tags.forEach((tag, i) => {
    const column = tag.name === UNSUBSCRIBE_URL ? url : db`b.${db(tag.name)}`;
    const fallback = part === "html" ? unescapeFallback(tag.fallback) : tag.fallback;
    const chosen = db`coalesce(nullif(${column}::text, ''), ${fallback}::text)`;
    const escaped = part === "html" ? escapeHtmlSql(db, chosen) : textValueSql(db, chosen);
    out = db`${out} || ${escaped} || ${texts[i + 1]}::text`;
  });
  return out;
}
