import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { ADMIN_ROLES, requireMember } from "@/lib/auth/context";
import { timeZones } from "@/lib/time/zones";
import { EventForm } from "@/components/events/event-form";
import { createEventAction } from "../actions";

export const metadata: Metadata = { title: "New event" };

export default async function NewEventPage() {
  const ctx = await requireMember();
  if (!ADMIN_ROLES.includes(ctx.workspace.role)) redirect("/events");
  const zone = ctx.timeZone;
  return (
    <>
      <h1>New event</h1>
      <EventForm
        action={createEventAction}
        initial={{ values: { timezone: zone, offer_hours: "24" } }}
        timeZones={timeZones()}
        submitLabel="Create event"
      />
    </>
  );
}
