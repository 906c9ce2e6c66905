import type { Db } from "@/lib/db/doors";

export interface OutboxEmail {
  id: string;
  to_email: string;
  kind: "marketing" | "transactional";
  subject: string;
  status: string;
  skip_reason: string | null;
  html: string | null;
  created_at: Date;
  links: string[];
}

/** The http(s) links of an email's HTML, so a person (or a browser test) can follow them. */
export function emailLinks(html: string | null): string[] {
  const links = new Set<string>();
  for (const match of (html ?? "").matchAll(/href="(https?:\/\/[^"]+)"/g))
    links.add(match[1].replaceAll("&amp;", "&").replaceAll("&quot;", '"').replaceAll("&#39;", "'"));
  return [...links];
}

/** The workspace's newest emails, sent or skipped (DESIGN 4: the dev outbox is readable). */
export async function listOutbox(db: Db, workspaceId: string, limit = 50): Promise<OutboxEmail[]> {
  const rows = await db<Omit<OutboxEmail, "links">[]>`
    select id, to_email, kind, subject, status, skip_reason, html, created_at
    from public.email_sends where workspace_id = ${workspaceId}
    order by created_at desc, id desc limit ${limit}`;
  return rows.map((row) => ({ ...row, links: emailLinks(row.html) }));
}
