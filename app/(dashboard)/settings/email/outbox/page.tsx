import type { Metadata } from "next";
import { requireMember } from "@/lib/auth/context";
import { withUser } from "@/lib/db/doors";
import { formatDateTime, isoDateTime } from "@/lib/dates/format-date-time";
import { viewerTimezone } from "@/lib/dates/viewer-timezone";
import { listOutbox } from "@/lib/email/list-outbox";

export const metadata: Metadata = { title: "Email outbox" };

/**
 * The dev outbox (DESIGN 4): every email of the workspace, sent or skipped. The stored HTML is
 * rendered in a fully sandboxed iframe, never into the page; its links are listed beside it.
 */
export default async function OutboxPage() {
  const ctx = await requireMember();
  const { emails, zone } = await withUser(ctx.claims, async (db) => ({
    emails: await listOutbox(db, ctx.workspace.workspaceId),
    zone: await viewerTimezone(db),
  }));
  return (
    <>
      <h1>Email outbox</h1>
      <p className="hint">The newest 50 emails of this workspace, sent or skipped.</p>
      {emails.length === 0 ? (
        <div className="card empty">No emails yet.</div>
      ) : (
        <ul className="stack" style={{ listStyle: "none", padding: 0 }}>
          {emails.map((e) => (
            <li key={e.id} className="card stack" data-testid="outbox-email">
              <div className="row">
                <strong>{e.subject}</strong>
                <span className="badge">{e.kind}</span>
                <span className="badge">{e.status}</span>
              </div>
              <div className="hint">
                To {e.to_email} ·{" "}
                <time dateTime={isoDateTime(e.created_at)}>{formatDateTime(e.created_at, zone)}</time>
                {e.skip_reason && ` · ${e.skip_reason}`}
              </div>
              {e.links.length > 0 && (
                <div>
                  Links:{" "}
                  {e.links.map((href) => (
                    <a key={href} href={href} style={{ marginRight: "0.75rem", wordBreak: "break-all" }}>
                      {href}
                    </a>
                  ))}
                </div>
              )}
              {e.html && (
                <details>
                  <summary>Show email</summary>
                  <iframe
                    title={`Email: ${e.subject}`}
                    sandbox=""
                    srcDoc={e.html}
                    style={{ width: "100%", minHeight: "16rem", border: "1px solid var(--border)" }}
                  />
                </details>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
