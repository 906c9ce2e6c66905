import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ADMIN_ROLES, requireMember } from "@/lib/auth/context";
import { withUser } from "@/lib/db/doors";
import { getEventById } from "@/lib/events/get-event-by-id";
import { listEventRegistrations } from "@/lib/events/list-event-registrations";
import type { EventRegistrationItem as Registration } from "@/lib/events/get-event-by-id";
import { registrationFilterSchema } from "@/lib/events/schemas";
import { sanitizeRichText } from "@/lib/html/sanitize";
import { displayPrice } from "@/lib/events/ticket-pricing";
import { formatDateTime, formatEventDateTime } from "@/lib/time/format";
import { ConfirmAction } from "@/components/confirm-action";
import { DataTable } from "@/components/ui/data-table";
import { eventPageInput, type EventPageProps } from "@/lib/events/event-page-props";
import { checkInRegistrationAction, deleteEventAction } from "../actions";
import { notFoundUnlessUuid } from "@/lib/ids/not-found-unless-uuid";
import { asFormAction } from "@/lib/http/form-state";
import { CheckInCounts } from "@/components/events/check-in-counts";

export const metadata: Metadata = { title: "Event" };

const money = (amount: string) => `$${Number(amount).toFixed(2)}`;

export default async function EventPage(props: EventPageProps) {
  const { eventId, query: q } = await eventPageInput(props);
  const ctx = await requireMember();
  notFoundUnlessUuid(eventId);
  const zone = ctx.timeZone;
  const filter = registrationFilterSchema.parse(q);
  const workspaceId = ctx.workspace.workspaceId;
  const [result, shown] = await withUser(ctx.claims, (db) =>
    Promise.all([
      getEventById(db, { workspaceId, eventId }),
      listEventRegistrations(db, { workspaceId, eventId, ...filter }),
    ]),
  );
  if ("error" in result) notFound();
  const { event, registrations } = result.data;
  const isAdmin = ADMIN_ROLES.includes(ctx.workspace.role);
  const active = registrations.filter((r) => r.status === "registered").length;
  const attended = registrations.filter((r) => r.status === "registered" && r.checked_in_at).length;
  const filterQuery = new URLSearchParams(
    Object.entries(filter).filter((e): e is [string, string] => Boolean(e[1])),
  ).toString();
  return (
    <>
      <p>
        <Link href="/events">← Events</Link>
      </p>
      <div className="topbar">
        <h1>{event.name}</h1>
        <div className="row">
          <Link className="button" href={`/events/${event.id}/scan`}>
            Scan tickets
          </Link>
          {isAdmin && (
            <Link className="button secondary" href={`/events/${event.id}/edit`}>
              Edit
            </Link>
          )}
          {isAdmin && (
            <ConfirmAction
              label="Delete"
              title="Delete this event?"
              body={`"${event.name}" and its ${registrations.length} registration(s) will be deleted. This cannot be undone.`}
              confirmLabel="Delete event"
              action={deleteEventAction}
              fields={{ eventId: event.id }}
            />
          )}
        </div>
      </div>
      {q.saved && (
        <div role="status" className="alert success">
          Saved.
        </div>
      )}
      {q.error && (
        <div role="alert" className="alert error">
          The event could not be deleted.
        </div>
      )}
      <section className="card stack" aria-label="Details">
        <dl className="stack">
          <div>
            <dt className="hint">When ({event.timezone})</dt>
            <dd>
              {formatEventDateTime(event.start_time, event.timezone)} –{" "}
              {formatEventDateTime(event.end_time, event.timezone)}
              {zone !== event.timezone && (
                <span className="hint"> · your time: {formatEventDateTime(event.start_time, zone)}</span>
              )}
            </dd>
          </div>
          <div>
            <dt className="hint">Where</dt>
            <dd>{event.location ?? "—"}</dd>
          </div>
          <div>
            <dt className="hint">Price</dt>
            <dd>{displayPrice(event.ticket_price, event.ticket_class_count)}</dd>
          </div>
          <div>
            <dt className="hint">Capacity</dt>
            <dd>
              {event.capacity === null
                ? "Unlimited"
                : `${active} of ${event.capacity} seats taken · ${Math.max(0, event.capacity - active)} left`}
            </dd>
          </div>
          <div>
            <dt className="hint">At the door</dt>
            <dd>
              <CheckInCounts eventId={event.id} initial={{ registered: active, checkedIn: attended }} />
            </dd>
          </div>
          <div>
            <dt className="hint">Public listing</dt>
            <dd>
              {event.is_published ? "Published" : "Not published"}
              {event.website_title && ` · “${event.website_title}”`}
            </dd>
          </div>
          <div>
            <dt className="hint">Registration</dt>
            <dd>
              {event.external_event_id ? (
                <>
                  On Eventbrite{" "}
                  {event.eventbrite_url && (
                    <a href={event.eventbrite_url} target="_blank" rel="noopener noreferrer">
                      (event page)
                    </a>
                  )}
                  {event.last_synced_at && (
                    <span className="hint"> · synced {formatDateTime(event.last_synced_at, zone)}</span>
                  )}
                </>
              ) : (
                <Link href={`/rsvp/${event.id}`}>RSVP page</Link>
              )}
              {event.is_published && (
                <>
                  {" · "}
                  <a href={`/rsvp/${event.id}/calendar.ics`} download>
                    Calendar file (.ics)
                  </a>
                </>
              )}
            </dd>
          </div>
        </dl>
        {event.description && (
          <div dangerouslySetInnerHTML={{ __html: sanitizeRichText(event.description) ?? "" }} />
        )}
      </section>
      <h2>
        Registrations ({active} active
        {registrations.length > active ? `, ${registrations.length - active} cancelled` : ""})
      </h2>
      <form className="row" method="get" role="search" aria-label="Filter registrations">
        <label>
          Search
          <input name="search" type="search" defaultValue={filter.search ?? ""} placeholder="Name or email" />
        </label>
        <label>
          Status
          <select name="status" defaultValue={filter.status ?? ""}>
            <option value="">All</option>
            <option value="registered">Registered</option>
            <option value="cancelled">Cancelled</option>
          </select>
        </label>
        <label>
          Checked in
          <select name="checked_in" defaultValue={filter.checked_in ?? ""}>
            <option value="">All</option>
            <option value="yes">Checked in</option>
            <option value="no">Not checked in</option>
          </select>
        </label>
        <button type="submit" className="secondary">
          Filter
        </button>
        <a
          className="button secondary"
          href={`/api/events/${event.id}/registrations.csv?${filterQuery}`}
          download
        >
          Export CSV
        </a>
      </form>
      <DataTable
        rows={shown}
        caption="Registrations"
        columns={["Contact", "Email", "Status", "Amount paid", `Registered (${zone})`, "Attended"]}
        empty={registrations.length === 0 ? "No registrations yet." : "No registration matches."}
      >
        {(r) => (
          <tr key={r.id}>
            <td>
              <Link href={`/contacts/${r.contact_id}`}>
                {[r.first_name, r.last_name].filter(Boolean).join(" ") || r.email}
              </Link>
            </td>
            <td>{r.email}</td>
            <td>
              <span className={`badge ${r.status === "registered" ? "subscribed" : "unsubscribed"}`}>
                {r.status === "registered" ? "Registered" : "Cancelled"}
              </span>
            </td>
            <td>{money(r.amount_paid)}</td>
            <td>{formatDateTime(r.created_at, zone)}</td>
            <CheckInCell registration={r} zone={zone} />
          </tr>
        )}
      </DataTable>
    </>
  );
}

/** Attendance (docs/decisions.md, "Segments"): a toggle any member may use. */
function CheckInCell({ registration: r, zone }: { registration: Registration; zone: string }) {
  const name = [r.first_name, r.last_name].filter(Boolean).join(" ") || r.email;
  return (
    <td>
      <form action={asFormAction(checkInRegistrationAction)} className="row">
        <input type="hidden" name="registrationId" value={r.id} />
        <input type="hidden" name="checkedIn" value={r.checked_in_at ? "0" : "1"} />
        {r.checked_in_at && <span>Checked in {formatDateTime(r.checked_in_at, zone)}</span>}
        <button type="submit" className="secondary">
          {r.checked_in_at ? "Undo check-in" : "Check in"}
          <span className="sr-only">: {name}</span>
        </button>
      </form>
    </td>
  );
}
