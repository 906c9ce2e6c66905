import type { Metadata } from "next";
import Link from "next/link";
import { DateTime } from "@/components/ui/date-time";
import { requireMember } from "@/lib/auth/context";
import { withReadUser } from "@/lib/db/doors";
import { emailLinks, listEmailSends, OUTBOX_PAGE_SIZE } from "@/lib/email/list-email-sends";

export const metadata: Metadata = { title: "Outbox" };

/**
 * Every email of the workspace, sent or skipped. Without RESEND_API_KEY this is the dev outbox:
 * the rendered email is shown in a sandboxed iframe (srcdoc, no scripts, no same-origin), never
 * as raw HTML in the page, and its links are listed to follow.
 */
export default async function OutboxPage({ searchParams }: { searchParams: Promise<{ page?: string }> }) {
  const page = Math.max(1, Number.parseInt((await searchParams).page ?? "1", 10) || 1);
  const ctx = await requireMember();
  const { rows, total } = await withReadUser(ctx.claims, (db) =>
    listEmailSends(db, { workspaceId: ctx.workspace.workspaceId, page }),
  );
  const pages = Math.max(1, Math.ceil(total / OUTBOX_PAGE_SIZE));
  const emails = rows.map((row) => ({ ...row, links: emailLinks(row.html) }));
  return (
    <div className="stack">
      <div className="topbar">
        <h1>Outbox</h1>
        <Link href="/settings/email">Email settings</Link>
      </div>
      {rows.length === 0 ? (
        <div className="card empty">No email yet.</div>
      ) : (
        <ul className="stack" aria-label="Emails" style={{ listStyle: "none", padding: 0 }}>
          {emails.map((email) => (
            <li key={email.id} className="card stack" data-testid="outbox-email">
              <div className="row">
                <strong>{email.subject || "(no subject)"}</strong>
                <span className="badge">{email.kind}</span>
                <span
                  className={`badge ${email.status === "skipped" || email.status === "failed" ? "unsubscribed" : "subscribed"}`}
                >
                  {email.status}
                </span>
              </div>
              <div className="hint">
                To {email.to_email} · <DateTime value={email.created_at} timeZone={ctx.timeZone} />
                {email.skip_reason &&
                  ` · ${email.status === "failed" ? "error" : "skipped"}: ${email.skip_reason}`}
              </div>
              <details>
                <summary>Show email</summary>
                <div className="stack">
                  {email.html && (
                    <iframe
                      className="email-preview"
                      title={`Email: ${email.subject}`}
                      sandbox=""
                      srcDoc={email.html}
                    />
                  )}
                  {Object.keys(email.headers ?? {}).length > 0 && (
                    <pre className="hint">
                      {Object.entries(email.headers)
                        .map(([k, v]) => `${k}: ${v}`)
                        .join("\n")}
                    </pre>
                  )}
                  {email.links.length > 0 && (
                    <nav aria-label={`Links in ${email.subject}`}>
                      <ul>
                        {email.links.map((link) => (
                          <li key={link.href}>
                            <a href={link.href} target="_blank" rel="noopener noreferrer">
                              {link.text}
                            </a>{" "}
                            <span className="hint">{link.href}</span>
                          </li>
                        ))}
                      </ul>
                    </nav>
                  )}
                </div>
              </details>
            </li>
          ))}
        </ul>
      )}
      {pages > 1 && (
        <nav className="pagination" aria-label="Pages">
          {page > 1 && <Link href={`/settings/email/outbox?page=${page - 1}`}>Previous</Link>}
          <span>
            Page {page} of {pages}
          </span>
          {page < pages && <Link href={`/settings/email/outbox?page=${page + 1}`}>Next</Link>}
        </nav>
      )}
    </div>
  );
}
