"use server";

import { redirect } from "next/navigation";
import { withAdmin, withMember } from "@/lib/auth/context";
import { createEvent } from "@/lib/events/create-event";
import { deleteEvent } from "@/lib/events/delete-event";
import { getEvents, type EventsPage } from "@/lib/events/get-events";
import { eventFormSchema, linkedEventFormSchema, type GetEventsParams } from "@/lib/events/schemas";
import { updateEvent } from "@/lib/events/update-event";
import { fieldErrors, type FormState } from "@/lib/http/form-state";

const NOT_ALLOWED = "Only owners and admins can change events.";

function formValues(form: FormData): Record<string, string> {
  return Object.fromEntries([...form.entries()].map(([k, v]) => [k, String(v)]));
}

/** Spec 4.15 getEvents, for the signed-in member's workspace. */
export async function getEventsAction(params: GetEventsParams): Promise<EventsPage> {
  return withMember((db, ctx) => getEvents(db, { ...params, workspaceId: ctx.workspace.workspaceId }));
}

export async function createEventAction(_prev: FormState, form: FormData): Promise<FormState> {
  const values = formValues(form);
  const parsed = eventFormSchema.safeParse(values);
  if (!parsed.success)
    return { errors: fieldErrors(parsed.error), values, message: "Check the highlighted fields." };
  const result = await withAdmin(
    (db, ctx) => createEvent(db, { workspaceId: ctx.workspace.workspaceId, event: parsed.data }),
    NOT_ALLOWED,
  );
  if ("error" in result) return { message: result.error, values };
  redirect(`/events/${result.data.id}`);
}

export async function updateEventAction(
  eventId: string,
  _prev: FormState,
  form: FormData,
): Promise<FormState> {
  const values = formValues(form);
  const schema = values.linked === "1" ? linkedEventFormSchema : eventFormSchema;
  const parsed = schema.safeParse(values);
  if (!parsed.success)
    return { errors: fieldErrors(parsed.error), values, message: "Check the highlighted fields." };
  const result = await withAdmin(
    (db, ctx) => updateEvent(db, { workspaceId: ctx.workspace.workspaceId, eventId, event: parsed.data }),
    NOT_ALLOWED,
  );
  if ("error" in result) return { message: result.error, values };
  redirect(`/events/${eventId}?saved=1`);
}

export async function deleteEventAction(_prev: FormState, form: FormData): Promise<FormState> {
  const eventId = String(form.get("eventId") ?? "");
  const result = await withAdmin(
    (db, ctx) => deleteEvent(db, { workspaceId: ctx.workspace.workspaceId, eventId }),
    NOT_ALLOWED,
  );
  redirect("error" in result ? `/events/${eventId}?error=delete` : "/events?deleted=1");
}
