import Link from "next/link";
import { encodePosition } from "@/lib/contacts/get-contact-timeline";
import type { TimelineEntry, TimelinePosition } from "@/lib/contacts/timeline/types";
import { sanitizeNoteHtml } from "@/lib/html/sanitize";
import { formatDateTime } from "@/lib/time/format";

const KIND_LABEL: Record<string, string> = { note: "Note", consent: "Consent", email: "Email" };

/** The merged timeline, newest first; older entries one link away. */
export function ContactTimeline({
  entries,
  next,
  contactId,
  timeZone,
}: {
  entries: TimelineEntry[];
  next: TimelinePosition | null;
  contactId: string;
  timeZone: string;
}) {
  if (entries.length === 0) return <p className="hint">Nothing on the timeline yet.</p>;
  return (
    <>
      <ol className="stack" style={{ listStyle: "none", padding: 0, margin: 0 }} aria-label="Timeline">
        {entries.map((e) => (
          <li key={`${e.kind}-${e.id}`} className="card" style={{ padding: "0.8rem 1rem" }}>
            <div className="hint">
              <span className="badge">{KIND_LABEL[e.kind] ?? e.kind}</span> {e.author} ·{" "}
              <time dateTime={e.occurredAt.toISOString()}>{formatDateTime(e.occurredAt, timeZone)}</time>
            </div>
            <div dangerouslySetInnerHTML={{ __html: sanitizeNoteHtml(e.html) }} />
          </li>
        ))}
      </ol>
      {next && (
        <p>
          <Link href={`/contacts/${contactId}?before=${encodePosition(next)}#timeline`}>
            Show older entries
          </Link>
        </p>
      )}
    </>
  );
}
