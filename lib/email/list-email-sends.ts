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

/** The http(s) links of an email, so a person (or a test) can follow them outside the sandboxed preview. */
export function emailLinks(html: string | null): { href: string; text: string }[] {
  if (!html) return [];
  const links: { href: string; text: string }[] = [];
  for (const match of html.matchAll(/<a\b[^>]*\bhref\s*=\s*(["'])(.*?)\1[^>]*>([\s\S]*?)<\/a>/gi)) {
    const href = match[2].replaceAll("&amp;", "&");
    if (!/^https?:\/\//i.test(href)) continue;
    const text = match[3]
      .replace(/<[^>]*>/g, "")
      .replace(/&[a-z#0-9]+;/gi, " ")
      .trim();
    links.push({ href, text: text || href });
  }
  return links;
}
