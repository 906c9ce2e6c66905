import { z } from "zod";
import { publicRoute } from "@/lib/adapters/public-route";
import { withService } from "@/lib/db/doors";
import { eventCalendar } from "@/lib/events/calendar/event-calendar";
import { loadPublishedEvent } from "@/lib/events/calendar/load-published-event";

export const dynamic = "force-dynamic";

/**
 * GET /rsvp/{event_id}/calendar.ics (docs/decisions.md, "The calendar file"): the event as iCalendar.
 * An unknown, malformed or unpublished id gets the same 404 (loadPublishedEvent checks the id).
 */
export const GET = publicRoute(
  { name: "event calendar", params: z.object({ eventId: z.string() }) },
  async (_request, { eventId }) => {
    const event = await withService((db) => loadPublishedEvent(db, eventId));
    if (!event) return new Response("Not found", { status: 404, headers: { "content-type": "text/plain" } });
    return new Response(eventCalendar(event), {
      headers: {
        "content-type": "text/calendar; charset=utf-8",
        "content-disposition": `attachment; filename="event-${event.id}.ics"`,
        "cache-control": "public, max-age=300",
      },
    });
  },
);
