import type { Sql } from "@/lib/db/client";

/**
 * The token of the newest link emailed to `to` whose path is `path`, read from the dev outbox's
 * whole copy (email_send_secrets: email_sends holds it redacted).
 */
export async function emailedToken(sql: Sql, to: string, path: string): Promise<string> {
  const rows = await sql`
    select coalesce(s.text_body, e.text_body) as text_body
    from email_sends e left join email_send_secrets s on s.email_send_id = e.id
    where e.to_email = ${to} and coalesce(s.text_body, e.text_body) like ${`%${path}?token=%`}
    order by e.created_at desc limit 1`;
  const match = new RegExp(`${path.replace(/[/]/g, "\\/")}\\?token=([A-Za-z0-9_-]{43})`).exec(
    rows[0]?.text_body ?? "",
  );
  if (!match) throw new Error(`no ${path} link emailed to ${to}`);
  return match[1];
}

/** Every email sent to an address: subject and whether it belongs to a workspace. */
export async function emailsTo(sql: Sql, to: string) {
  return sql<{ subject: string; workspace_id: string | null }[]>`
    select subject, workspace_id from email_sends where to_email = ${to} order by created_at`;
}
