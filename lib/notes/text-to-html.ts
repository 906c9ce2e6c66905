import { escapeHtml } from "@/lib/html/escape";

/**
 * A member's plain-text note as the HTML stored in notes.content: the text escaped, blank
 * lines separating <p> paragraphs, single line breaks kept as <br>.
 */
export function textToHtml(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .trim()
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, "<br>")}</p>`)
    .join("");
}
