import sanitizeHtml from "sanitize-html";

/**
 * The one sanitiser of user HTML (docs/decisions.md, "Stored HTML and secret links"). Every
 * place that stores or renders HTML a person wrote (event descriptions, notes) goes through
 * here, on the server and in the browser alike (the event editor imports it too): what a
 * member wrote straight to the database through the REST API is cleaned where it is shown,
 * not only where the app itself writes it. sanitize-html (htmlparser2 underneath) is a
 * kept library and runs in both. Whole emails are not user HTML in this sense: they are
 * shown only in sandboxed frames (no scripts, no same origin).
 */

/**
 * Spec 2.7: events.description is rich-text HTML. Formatting, lists, headings and links
 * survive; scripts, styles, event handlers and non-http(s)/mailto links do not. Links open
 * safely in a new tab.
 */
const RICH_TEXT: sanitizeHtml.IOptions = {
  allowedTags: [
    "p",
    "br",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "a",
    "ul",
    "ol",
    "li",
    "h2",
    "h3",
    "h4",
    "blockquote",
    "code",
    "pre",
    "hr",
    "span",
    "div",
  ],
  allowedAttributes: { a: ["href", "title", "target", "rel"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowProtocolRelative: false,
  transformTags: {
    a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer nofollow", target: "_blank" }),
  },
};

/** Notes: simple formatting and links only. */
const NOTE: sanitizeHtml.IOptions = {
  allowedTags: ["p", "br", "strong", "b", "em", "i", "u", "ul", "ol", "li", "a", "blockquote", "code"],
  allowedAttributes: { a: ["href", "rel", "target"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowProtocolRelative: false,
  transformTags: { a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer", target: "_blank" }) },
};

/** Rich text (event descriptions) as it may be stored and shown; null when nothing is left. */
export function sanitizeRichText(html: string | null | undefined): string | null {
  const clean = sanitizeHtml(html ?? "", RICH_TEXT).trim();
  return clean === "" ? null : clean;
}

/**
 * Note HTML as it is rendered. Notes are stored escaped by the code that writes them; this
 * is the second wall, for HTML written by any other path.
 */
export function sanitizeNoteHtml(html: string | null | undefined): string {
  return sanitizeHtml(html ?? "", NOTE);
}
