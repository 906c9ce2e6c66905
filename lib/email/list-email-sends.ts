import { Tokenizer } from "htmlparser2";
import type { Db } from "@/lib/db/doors";

export interface EmailSendRow {
  id: string;
  contact_id: string | null;
  to_email: string;
  kind: "marketing" | "transactional";
  subject: string;
  status: string;
  skip_reason: string | null;
  provider: string | null;
  html: string | null;
  headers: Record<string, string>;
  created_at: Date;
}

export const OUTBOX_PAGE_SIZE = 25;

/** The workspace's email log (the dev outbox and everything sent or skipped), newest first. */
export async function listEmailSends(
  db: Db,
  input: { workspaceId: string; page: number },
): Promise<{ rows: EmailSendRow[]; total: number }> {
  const offset = (Math.max(1, input.page) - 1) * OUTBOX_PAGE_SIZE;
  const rows = await db<EmailSendRow[]>`
    select id, contact_id, to_email, kind, subject, status, skip_reason, provider, html, headers, created_at
    from public.email_sends where workspace_id = ${input.workspaceId}
    order by created_at desc, id
    limit ${OUTBOX_PAGE_SIZE} offset ${offset}`;
  const [{ n }] =
    await db`select count(*)::int as n from public.email_sends where workspace_id = ${input.workspaceId}`;
  return { rows, total: n };
}

/** At most this many links of one email are listed, each text at most TEXT_MAX characters. */
export const LINKS_MAX = 50;
const TEXT_MAX = 200;
/** A longer href is not listed (no real link in our emails comes close). */
const HREF_MAX = 2048;
/** Only the first 512 KB of an email is read for links (mail clients clip at about 100 KB). */
export const HTML_READ_MAX = 512 * 1024;

type Link = { href: string; text: string };

/**
 * The http(s) links of an email, so a person (or a test) can follow them outside the sandboxed
 * preview. Any member can write an email_sends row, so the HTML is hostile input: it is read by
 * htmlparser2's tokenizer, one pass linear in the input, rather than a pattern (which
 * backtracks) or htmlparser2's Parser (whose open-element stack is quadratic in the nesting
 * depth); what is kept is bounded (docs/decisions.md, "Stored email HTML is read by a
 * tokenizer"). As a browser does, an <a> opened inside another closes the first, one left open
 * ends with the email, the first href of a tag counts, and comments are not text.
 */
export function emailLinks(html: string | null): Link[] {
  if (!html) return [];
  const source = html.slice(0, HTML_READ_MAX);
  const links: Link[] = [];
  let tag = "";
  let attribute = "";
  let value = "";
  let href: string | null = null;
  let open: Link | null = null;
  const close = () => {
    if (open && links.length < LINKS_MAX) {
      const text = open.text.replace(/\s+/g, " ").trim().slice(0, TEXT_MAX);
      links.push({ href: open.href, text: text || open.href });
    }
    open = null;
  };
  const appendText = (text: string) => {
    if (open && open.text.length <= TEXT_MAX) open.text += text.slice(0, TEXT_MAX + 1 - open.text.length);
  };
  const appendValue = (text: string) => {
    if (value.length <= HREF_MAX) value += text.slice(0, HREF_MAX + 1 - value.length);
  };
  const endOpenTag = () => {
    if (tag !== "a") return;
    close();
    const target = href?.trim() ?? "";
    if (target.length <= HREF_MAX && /^https?:\/\//i.test(target)) open = { href: target, text: "" };
  };
  const inHref = () => tag === "a" && attribute === "href" && href === null;
  const tokenizer = new Tokenizer(
    { decodeEntities: true },
    {
      onopentagname(start, end) {
        tag = source.slice(start, end).toLowerCase();
        href = null;
      },
      onattribname(start, end) {
        attribute = end - start === 4 ? source.slice(start, end).toLowerCase() : "";
        value = "";
      },
      onattribdata(start, end) {
        if (inHref()) appendValue(source.slice(start, Math.min(end, start + HREF_MAX + 1)));
      },
      onattribentity(codepoint) {
        if (inHref()) appendValue(String.fromCodePoint(codepoint));
      },
      onattribend() {
        if (inHref()) href = value;
        attribute = "";
      },
      onopentagend: endOpenTag,
      onselfclosingtag: endOpenTag,
      onclosetag(start, end) {
        if (end - start === 1 && source.slice(start, end).toLowerCase() === "a") close();
        tag = "";
      },
      ontext(start, end) {
        if (open) appendText(source.slice(start, Math.min(end, start + TEXT_MAX + 1)));
      },
      ontextentity(codepoint) {
        appendText(String.fromCodePoint(codepoint));
      },
      oncdata() {},
      oncomment() {},
      ondeclaration() {},
      onprocessinginstruction() {},
      onend() {},
    },
  );
  tokenizer.write(source);
  tokenizer.end();
  close();
  return links;
}
