import { z } from "zod";
import { memberRoute } from "@/lib/adapters/member-route";
import { AppError } from "@/lib/errors/app-error";
import { listEventRegistrations, registrationsCsv } from "@/lib/events/list-event-registrations";
import { eventExists } from "@/lib/events/event-exists";
import { registrationFilterSchema } from "@/lib/events/schemas";
import { uuidField } from "@/lib/ids/uuid";

const EVENT_NOT_FOUND = "Event not found.";

/** An event's registrations (same filters as the event page) as CSV, for members of its workspace; audited as an export. */
export const GET = memberRoute(
  {
    name: "registrations export",
    params: z.object({ eventId: uuidField(EVENT_NOT_FOUND) }),
    audit: "event.registrations_exported",
  },
  async (db, request, { eventId }, ctx) => {
    const q = registrationFilterSchema.parse(Object.fromEntries(new URL(request.url).searchParams));
    if (!(await eventExists(db, { workspaceId: ctx.workspaceId, eventId })))
      throw new AppError("not_found", EVENT_NOT_FOUND);
    const rows = await listEventRegistrations(db, { workspaceId: ctx.workspaceId, eventId, ...q });
    // the search may be an address: whether there was one, never what it was
    ctx.audit
      .target("event", eventId)
      .change(null, { status: q.status, searched: Boolean(q.search), rows: rows.length });
    return new Response(registrationsCsv(rows), {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="registrations-${eventId}.csv"`,
        "cache-control": "no-store",
      },
    });
  },
);
