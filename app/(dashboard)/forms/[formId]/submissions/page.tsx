import type { Metadata } from "next";
import Link from "next/link";
import { formatDateTime, isoInstant } from "@/lib/time/format";
import { listFormSubmissions, SUBMISSIONS_PAGE_SIZE } from "@/lib/forms/list-form-submissions";
import { DataTable } from "@/components/ui/data-table";
import { loadForm } from "../load-form";

export const metadata: Metadata = { title: "Form submissions" };

const TYPE_LABEL = { direct: "Direct", verified_email: "Verified email", api_key: "Form key" } as const;

export default async function SubmissionsPage({
  params,
  searchParams,
}: {
  params: Promise<{ formId: string }>;
  searchParams: Promise<{ page?: string }>;
}) {
  const page = Math.max(1, Number((await searchParams).page) || 1);
  const {
    ctx,
    form,
    data: list,
  } = await loadForm((await params).formId, (db, input) => listFormSubmissions(db, { ...input, page }));
  const zone = ctx.timeZone;
  const pages = Math.max(1, Math.ceil(list.total / SUBMISSIONS_PAGE_SIZE));
  const when = (d: Date) => <time dateTime={isoInstant(d)}>{formatDateTime(d, zone)}</time>;
  return (
    <>
      <p>
        <Link href={`/forms/${form.id}`}>← {form.name}</Link>
      </p>
      <h1>Submissions of “{form.name}”</h1>
      {list.pending.length > 0 && (
        <section className="card stack" aria-labelledby="pending-heading" style={{ marginBottom: "1rem" }}>
          <h2 id="pending-heading" style={{ margin: 0 }}>
            Awaiting email verification ({list.pending.length})
          </h2>
          <ul>
            {list.pending.map((p) => (
              <li key={p.id}>
                {p.email} — sent {when(p.created_at)}, link valid until {when(p.expires_at)}
              </li>
            ))}
          </ul>
        </section>
      )}
      {list.total === 0 ? (
        <div className="card empty">No submissions yet.</div>
      ) : (
        <>
          <DataTable
            rows={list.items}
            columns={[<>Time ({zone})</>, "Contact", "Type", "IP address", "Payload"]}
            caption={
              <>
                Submissions, newest first, page {page} of {pages}
              </>
            }
          >
            {(s) => (
              <tr key={s.id}>
                <td>{when(s.created_at)}</td>
                <td>
                  <Link href={`/contacts/${s.contact_id}`}>{s.contact_email}</Link>
                  {s.contact_name && <div className="hint">{s.contact_name}</div>}
                </td>
                <td>{TYPE_LABEL[s.submission_type]}</td>
                <td>{s.ip_address ?? "—"}</td>
                <td>
                  <details>
                    <summary>Show</summary>
                    <pre className="snippet">{JSON.stringify(s.payload, null, 2)}</pre>
                  </details>
                </td>
              </tr>
            )}
          </DataTable>
          <nav className="pagination" aria-label="Pages">
            {page > 1 && <Link href={`?page=${page - 1}`}>← Newer</Link>}
            <span>
              Page {page} of {pages} ({list.total} {list.total === 1 ? "submission" : "submissions"})
            </span>
            {page < pages && <Link href={`?page=${page + 1}`}>Older →</Link>}
          </nav>
        </>
      )}
    </>
  );
}
