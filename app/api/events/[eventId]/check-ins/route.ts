import { z } from "zod";
import { memberRoute } from "@/lib/adapters/member-route";
import { AppError } from "@/lib/errors/app-error";
import { eventExists } from "@/lib/events/event-exists";
import { eventCheckInSummary } from "@/lib/events/tickets/check-in";
import { parseScanBatch, syncScans } from "@/lib/events/tickets/sync-scans";
import { readLimitedText } from "@/lib/http/read-limited-body";
import { uuidField } from "@/lib/ids/uuid";
import type { Role } from "@/lib/workspaces/list-memberships";

const EVENT_NOT_FOUND = "Event not found.";
const EVERY_ROLE: Role[] = ["owner", "admin", "member"];
const params = z.object({ eventId: uuidField(EVENT_NOT_FOUND) });

/**
 * The door scanner's server path (docs/decisions.md, "One check-in per registration"): any member
 * of the event's workspace sends the scans their device made (online at once, offline when back),
 * and reads the counts and the latest check-ins (polled, so every device sees the others').
 * Check-ins are written by the system only, so both run as the service inside the member's
 * workspace; the member is recorded as the scanner.
 */
export const POST = memberRoute(
  {
    name: "event check-ins",
    params,
    door: "service",
    roles: EVERY_ROLE,
    audit: "event_registration.checked_in",
  },
  async (db, request, { eventId }, ctx) => {
    if (!(await eventExists(db, { workspaceId: ctx.workspaceId, eventId })))
      throw new AppError("not_found", EVENT_NOT_FOUND);
    const batch = parseScanBatch(await readLimitedText(request, 512 * 1024));
    if (!batch) throw new AppError("invalid", "The scans could not be read.");
    const results = await syncScans(db, {
      workspaceId: ctx.workspaceId,
      eventId,
      userId: ctx.userId,
      label: ctx.claims.email ?? null,
      batch,
    });
    const checkedIn = results.filter((r) => r.status === "checked_in").length;
    ctx.audit
      .target("event", eventId)
      .change(null, { device_id: batch.device_id, scans: results.length, checked_in: checkedIn });
    return Response.json({ results }, { headers: { "cache-control": "no-store" } });
  },
);

export const GET = memberRoute(
  { name: "event check-in counts", params, door: "service", roles: EVERY_ROLE, audit: false },
  async (db, _request, { eventId }, ctx) => {
    if (!(await eventExists(db, { workspaceId: ctx.workspaceId, eventId })))
      throw new AppError("not_found", EVENT_NOT_FOUND);
    const summary = await eventCheckInSummary(db, { workspaceId: ctx.workspaceId, eventId });
    return Response.json(
      {
        registered: summary.registered,
        checked_in: summary.checkedIn,
        recent: summary.recent.map((c) => ({
          registration_id: c.registration_id,
          name: c.name,
          checked_in_at: c.checked_in_at.toISOString(),
          by: c.checked_in_by_label,
          device_id: c.device_id,
        })),
      },
      { headers: { "cache-control": "no-store" } },
    );
  },
);
