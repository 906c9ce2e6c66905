import Link from "next/link";
import { encodePosition } from "@/lib/contacts/get-contact-timeline";
import {
  TIMELINE_KINDS,
  type TimelineEntry,
  type TimelineKind,
  type TimelinePosition,
} from "@/lib/contacts/timeline/types";
import { sanitizeNoteHtml } from "@/lib/html/sanitize";
import { formatDateTime } from "@/lib/time/format";

const KIND_LABEL: Record<TimelineKind, string> = {
  note: "Note",
  consent: "Consent",
  form: "Form",
  event: "Event",
  payment: "Payment",
  email: "Email",
  campaign: "Campaign",
  change: "Change",
};

/** The kind filter's choices, as a person reads them. */
const FILTER_LABEL: Record<TimelineKind, string> = {
  note: "Notes",
  consent: "Consent",
  form: "Form submissions",
  event: "RSVPs and registrations",
  payment: "Purchases and refunds",
  email: "Emails",
  campaign: "Campaign steps",
  change: "Merges and source changes",
};

/** The timeline's URL with the kind filter kept, continuing after `before` when given. */
function timelineHref(contactId: string, kinds: readonly TimelineKind[], before?: TimelinePosition) {
  const params = new URLSearchParams();
  for (const k of kinds) params.append("kind", k);
  if (before) params.set("before", encodePosition(before));
  const query = params.toString();
  return `/contacts/${contactId}${query ? `?${query}` : ""}#timeline`;
}

/**
 * The kind filter: a plain GET form (works without JS), one checkbox per kind; none checked
 * shows every kind.
 */
function KindFilter({ contactId, kinds }: { contactId: string; kinds: readonly TimelineKind[] }) {
  return (
    <form method="get" action={`/contacts/${contactId}#timeline`} className="timeline-filter">
      <fieldset>
        <legend>Show only</legend>
        <div className="row" style={{ flexWrap: "wrap", gap: "0.25rem 1rem" }}>
          {TIMELINE_KINDS.map((k) => (
            <label key={k} className="check">
              <input type="checkbox" name="kind" value={k} defaultChecked={kinds.includes(k)} />
              {FILTER_LABEL[k]}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="row" style={{ gap: "0.75rem" }}>
        <button type="submit" className="secondary">
          Filter
        </button>
        {kinds.length > 0 && <Link href={timelineHref(contactId, [])}>Show every kind</Link>}
      </div>
    </form>
  );
}

/** The merged timeline, newest first, with a kind filter; older entries one link away. */
export function ContactTimeline({
  entries,
  next,
  contactId,
  timeZone,
  kinds = [],
}: {
  entries: TimelineEntry[];
  next: TimelinePosition | null;
  contactId: string;
  timeZone: string;
  kinds?: readonly TimelineKind[];
}) {
  return (
    <>
      <KindFilter contactId={contactId} kinds={kinds} />
      {entries.length === 0 ? (
        <p className="hint">
          {kinds.length ? "Nothing of these kinds on the timeline." : "Nothing on the timeline yet."}
        </p>
      ) : (
        <ol className="stack timeline" aria-label="Timeline">
          {entries.map((e) => (
            <li key={`${e.kind}-${e.id}`} className="card" style={{ padding: "0.8rem 1rem" }}>
              <div className="hint">
                <span className="badge">{KIND_LABEL[e.kind] ?? e.kind}</span> {e.author} ·{" "}
                <time dateTime={e.occurredAt.toISOString()}>{formatDateTime(e.occurredAt, timeZone)}</time>
              </div>
              <div className="timeline-body" dangerouslySetInnerHTML={{ __html: sanitizeNoteHtml(e.html) }} />
            </li>
          ))}
        </ol>
      )}
      {next && (
        <p>
          <Link href={timelineHref(contactId, kinds, next)}>Show older entries</Link>
        </p>
      )}
    </>
  );
}
