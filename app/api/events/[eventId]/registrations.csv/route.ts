import { currentMember } from "@/lib/auth/context";
import { withUser } from "@/lib/db/doors";
import { isUuid } from "@/lib/ids/uuid";
import { listEventRegistrations, registrationsCsv } from "@/lib/events/list-event-registrations";
import { registrationFilterSchema } from "@/lib/events/schemas";

/** Issue 16: an event's registrations (same filters as the event page) as CSV, for members of its workspace. */
export async function GET(request: Request, { params }: { params: Promise<{ eventId: string }> }) {
  const ctx = await currentMember();
  if (!ctx) return Response.json({ error: "Sign in first." }, { status: 401 });
  const { eventId } = await params;
  const q = registrationFilterSchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const rows = isUuid(eventId)
    ? await withUser(ctx.claims, async (db) => {
        const [event] = await db`
          select id from public.events where id = ${eventId} and workspace_id = ${ctx.workspace.workspaceId}`;
        return event
          ? listEventRegistrations(db, { workspaceId: ctx.workspace.workspaceId, eventId, ...q })
          : null;
      })
    : null;
  if (!rows) return Response.json({ error: "Event not found." }, { status: 404 });
  return new Response(registrationsCsv(rows), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="registrations-${eventId}.csv"`,
      "cache-control": "no-store",
    },
  });
}
