/**
 * The recipient pages (DESIGN.md section 9, "Portal and languages"): a path and whom it is for.
 * proxy.ts hands the root layout the path and `?lang=` of a request for one of them, so its
 * `<html lang>` is the page's language (lib/i18n/flows/page-locale.ts). No database or Next import here:
 * the proxy loads this file.
 */
export type PageScope = "contact" | "event" | null;

const PAGES: { pattern: RegExp; scope: PageScope }[] = [
  { pattern: /^\/unsubscribe\/([^/]+)$/, scope: "contact" },
  { pattern: /^\/subscribe\/(?:confirmed|error)$/, scope: null },
  { pattern: /^\/subscribe\/([^/]+)$/, scope: "contact" },
  { pattern: /^\/rsvp\/([^/]+)$/, scope: "event" },
  { pattern: /^\/rsvp\/([^/]+)\/claim$/, scope: "event" },
  { pattern: /^\/verified$/, scope: null },
];

/** The request headers proxy.ts sets for a recipient page (and removes from every other request). */
export const RECIPIENT_PATH_HEADER = "x-recipient-path";
export const RECIPIENT_LANG_HEADER = "x-recipient-lang";

/** Whom the recipient page at `pathname` is for, or null for a page that is not a recipient's. */
export function matchRecipientPath(pathname: string): { scope: PageScope; id: string | null } | null {
  for (const { pattern, scope } of PAGES) {
    const match = pattern.exec(pathname);
    if (!match) continue;
    let id: string | null = null;
    if (scope && match[1]) {
      try {
        id = decodeURIComponent(match[1]);
      } catch {
        id = null;
      }
    }
    return { scope, id };
  }
  return null;
}
