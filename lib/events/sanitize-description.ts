import sanitizeHtml from "sanitize-html";

/**
 * Spec 2.7: events.description is rich-text HTML. Whatever is stored has been through this:
 * formatting, lists, headings and links survive; scripts, styles, event handlers and
 * non-http(s)/mailto links do not. Links open safely in a new tab.
 */
const OPTIONS: sanitizeHtml.IOptions = {
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

export function sanitizeDescription(html: string | null | undefined): string | null {
  const clean = sanitizeHtml(html ?? "", OPTIONS).trim();
  return clean === "" ? null : clean;
}
