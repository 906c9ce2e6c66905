import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { ADMIN_ROLES, requireMember } from "@/lib/auth/context";
import { withUser } from "@/lib/db/doors";
import { getEventById } from "@/lib/events/get-event-by-id";
import { utcToZonedInput } from "@/lib/time/format";
import { timeZones } from "@/lib/time/zones";
import { EventForm } from "@/components/events/event-form";
import { updateEventAction } from "../../actions";
import { isUuid } from "@/lib/ids/uuid";

export const metadata: Metadata = { title: "Edit event" };

export default async function EditEventPage({ params }: { params: Promise<{ eventId: string }> }) {
  const { eventId } = await params;
  const ctx = await requireMember();
  if (!ADMIN_ROLES.includes(ctx.workspace.role)) redirect(`/events/${eventId}`);
  const result = isUuid(eventId)
    ? await withUser(ctx.claims, (db) =>
        getEventById(db, { workspaceId: ctx.workspace.workspaceId, eventId }),
      )
    : null;
  if (!result || "error" in result) notFound();
  const { event } = result.data;
  const values: Record<string, string> = {
    name: event.name,
    description: event.description ?? "",
    location: event.location === "Online" ? "" : (event.location ?? ""),
    online: event.location === "Online" ? "on" : "",
    start: utcToZonedInput(event.start_time, event.timezone),
    end: utcToZonedInput(event.end_time, event.timezone),
    timezone: event.timezone,
    is_published: event.is_published ? "on" : "",
    website_title: event.website_title ?? "",
    website_description: event.website_description ?? "",
    capacity: event.capacity === null ? "" : String(event.capacity),
    waitlist_enabled: event.waitlist_enabled ? "on" : "",
    offer_hours: String(event.offer_hours),
  };
  return (
    <>
      <h1>Edit {event.name}</h1>
      {event.external_event_id && (
        <p className="alert info">
          This event comes from Eventbrite: its name, times, place and prices are updated by the sync. Here
          you choose whether it is published and how the public listing presents it.
        </p>
      )}
      <EventForm
        action={updateEventAction.bind(null, event.id)}
        initial={{ values }}
        timeZones={timeZones()}
        linked={Boolean(event.external_event_id)}
        submitLabel="Save changes"
      />
    </>
  );
}
