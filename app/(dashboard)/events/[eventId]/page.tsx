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
import {
  cancelRegistrationAction,
  checkInRegistrationAction,
  deleteEventAction,
  deleteTicketTypeAction,
  saveTicketTypeAction,
} from "../actions";
import { listTicketTypes, type TicketTypeRow } from "@/lib/events/ticket-types/ticket-types";
import { seatsTaken } from "@/lib/events/rsvp/seats";
import { TicketTypeForm } from "@/components/events/ticket-type-form";
import { utcToZonedInput } from "@/lib/time/format";
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
  const [result, shown, types, taken] = await withUser(ctx.claims, (db) =>
    Promise.all([
      getEventById(db, { workspaceId, eventId }),
      listEventRegistrations(db, { workspaceId, eventId, ...filter }),
      listTicketTypes(db, eventId),
      seatsTaken(db, eventId),
    ]),
  );
  if ("error" in result) notFound();
  const { event, registrations } = result.data;
  const isAdmin = ADMIN_ROLES.includes(ctx.workspace.role);
  const active = registrations.filter((r) => r.status === "registered").length;
  const waiting = registrations.filter((r) => r.status === "waitlisted").length;
  const offers = registrations.filter((r) => r.status === "offered").length;
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
                : `${taken.event} of ${event.capacity} seats taken · ${Math.max(0, event.capacity - taken.event)} left`}
              {offers > 0 && ` · ${offers} held for waitlist offers`}
            </dd>
          </div>
          <div>
            <dt className="hint">Waitlist</dt>
            <dd>
              {event.waitlist_enabled
                ? `On · ${waiting} waiting · offers last ${event.offer_hours} h`
                : waiting > 0
                  ? `Off · ${waiting} still waiting`
                  : "Off"}
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
      {!event.external_event_id && (
        <TicketTypes
          eventId={event.id}
          timezone={event.timezone}
          types={types}
          taken={taken.byType}
          isAdmin={isAdmin}
        />
      )}
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
            <option value="waitlisted">Waitlisted</option>
            <option value="offered">Offered a seat</option>
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
        columns={[
          "Contact",
          "Email",
          "Ticket type",
          "Status",
          "Amount paid",
          `Registered (${zone})`,
          "Attended",
          ...(isAdmin ? [""] : []),
        ]}
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
            <td>{r.ticket_type_name ?? "—"}</td>
            <td>
              <span className={`badge ${r.status === "registered" ? "subscribed" : "unsubscribed"}`}>
                {STATUS_LABELS[r.status]}
              </span>
              {r.status === "offered" && r.offer_expires_at && (
                <span className="hint"> until {formatDateTime(r.offer_expires_at, zone)}</span>
              )}
            </td>
            <td>{money(r.amount_paid)}</td>
            <td>{formatDateTime(r.created_at, zone)}</td>
            <CheckInCell registration={r} zone={zone} />
            {isAdmin && (
              <td>
                {r.status !== "cancelled" && !r.external_attendee_id && (
                  <ConfirmAction
                    label="Cancel"
                    title="Cancel this registration?"
                    body={`${r.email} loses their place; a freed seat goes to the first on the waitlist.`}
                    confirmLabel="Cancel registration"
                    action={cancelRegistrationAction}
                    fields={{ registrationId: r.id }}
                  />
                )}
              </td>
            )}
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

const STATUS_LABELS: Record<Registration["status"], string> = {
  registered: "Registered",
  cancelled: "Cancelled",
  waitlisted: "Waitlisted",
  offered: "Offered a seat",
};

/**
 * The event's ticket types (docs/decisions.md, "Ticket types"): seats taken of each, and for owners
 * and admins a form per type and one to add a type. A hidden type's RSVP link carries its code.
 */
function TicketTypes({
  eventId,
  timezone,
  types,
  taken,
  isAdmin,
}: {
  eventId: string;
  timezone: string;
  types: TicketTypeRow[];
  taken: Map<string, number>;
  isAdmin: boolean;
}) {
  const values = (t: TicketTypeRow): Record<string, string> => ({
    name: t.name,
    description: t.description ?? "",
    capacity: t.capacity === null ? "" : String(t.capacity),
    price_cents: String(t.price_cents),
    sales_start: t.sales_start_at ? utcToZonedInput(t.sales_start_at, timezone) : "",
    sales_end: t.sales_end_at ? utcToZonedInput(t.sales_end_at, timezone) : "",
    is_hidden: t.is_hidden ? "on" : "",
    access_code: t.access_code ?? "",
    access_code_limit: t.access_code_limit === null ? "" : String(t.access_code_limit),
    sort_order: String(t.sort_order),
  });
  return (
    <section className="card stack" aria-label="Ticket types">
      <h2>Ticket types</h2>
      {types.length === 0 && <p className="hint">One kind of seat. Add types to offer several.</p>}
      {types.map((t) => (
        <details key={t.id}>
          <summary>
            <strong>{t.name}</strong> · {taken.get(t.id) ?? 0}
            {t.capacity === null ? " taken" : ` of ${t.capacity} taken`}
            {t.price_cents > 0 && ` · $${(t.price_cents / 100).toFixed(2)}`}
            {t.is_hidden && " · hidden"}
            {t.access_code &&
              ` · code used ${t.access_code_uses}${t.access_code_limit === null ? "" : ` of ${t.access_code_limit}`}`}
          </summary>
          {t.is_hidden && t.access_code && (
            <p className="hint">
              RSVP link: <code>{`/rsvp/${eventId}?code=${encodeURIComponent(t.access_code)}`}</code>
            </p>
          )}
          {isAdmin && (
            <>
              <TicketTypeForm
                action={saveTicketTypeAction.bind(null, eventId)}
                ticketTypeId={t.id}
                initial={{ values: values(t) }}
                submitLabel={`Save ${t.name}`}
              />
              <ConfirmAction
                label="Remove"
                title="Remove this ticket type?"
                body={`"${t.name}" is removed. A type with registrations cannot be removed.`}
                confirmLabel="Remove ticket type"
                action={deleteTicketTypeAction}
                fields={{ eventId, ticketTypeId: t.id }}
              />
            </>
          )}
        </details>
      ))}
      {isAdmin && (
        <details>
          <summary>Add a ticket type</summary>
          <TicketTypeForm
            action={saveTicketTypeAction.bind(null, eventId)}
            initial={{ values: { price_cents: "0", sort_order: String(types.length) } }}
            submitLabel="Add ticket type"
          />
        </details>
      )}
    </section>
  );
}
