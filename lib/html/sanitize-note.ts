import sanitizeHtml from "sanitize-html";

/**
 * Note HTML as it is rendered. Notes are stored escaped by the code that writes them; this
 * is the second wall, for HTML written by any other path: simple formatting and links only.
 */
export function sanitizeNoteHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ["p", "br", "strong", "b", "em", "i", "u", "ul", "ol", "li", "a", "blockquote", "code"],
    allowedAttributes: { a: ["href", "rel", "target"] },
    allowedSchemes: ["http", "https", "mailto"],
    transformTags: { a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer", target: "_blank" }) },
  });
}
