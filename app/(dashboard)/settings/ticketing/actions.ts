"use server";

import { redirect } from "next/navigation";
import { ADMIN_ROLES, requireMember, withAdmin } from "@/lib/auth/context";
import { signValue } from "@/lib/auth/tokens";
import { withService } from "@/lib/db/doors";
import { authorizeUrl, eventbriteConfigured } from "@/lib/events/eventbrite/client";
import {
  TICKETING_OAUTH_PURPOSE,
  ticketingRedirectUri,
} from "@/lib/events/ticketing/complete-ticketing-connection";
import { disconnectTicketing } from "@/lib/events/ticketing/disconnect-ticketing";
import { enqueueTicketingSync } from "@/lib/events/ticketing/enqueue-ticketing-sync";
import { setAutoSubscribeAttendees } from "@/lib/events/ticketing/set-auto-subscribe-attendees";
import type { FormState } from "@/lib/http/form-state";

const NOT_ALLOWED = "Only owners and admins can manage the Eventbrite connection.";

/** Connect: to Eventbrite's authorisation, with a state signed for this member and workspace. */
export async function connectTicketingAction(): Promise<void> {
  const ctx = await requireMember();
  if (!ADMIN_ROLES.includes(ctx.workspace.role)) redirect("/settings/ticketing?error=forbidden");
  if (!eventbriteConfigured()) redirect("/settings/ticketing?error=not_configured");
  const state = await signValue(TICKETING_OAUTH_PURPOSE, {
    workspaceId: ctx.workspace.workspaceId,
    userId: ctx.userId,
  });
  redirect(authorizeUrl(state, ticketingRedirectUri()));
}

export async function disconnectTicketingAction(_prev: FormState): Promise<FormState> {
  const member = await withAdmin(
    async (_db, ctx) => ({
      workspaceId: ctx.workspace.workspaceId,
      userId: ctx.userId,
    }),
    NOT_ALLOWED,
  );
  // the service door: the token is service-only (attack 7); the flow checks the role again
  const result = "error" in member ? member : await withService((db) => disconnectTicketing(db, member));
  redirect("error" in result ? "/settings/ticketing?error=disconnect" : "/settings/ticketing?disconnected=1");
}

export async function setAutoSubscribeAction(_prev: FormState, form: FormData): Promise<FormState> {
  const enabled = form.get("auto_subscribe_attendees") === "on";
  const result = await withAdmin(
    (db, ctx) => setAutoSubscribeAttendees(db, { workspaceId: ctx.workspace.workspaceId, enabled }),
    NOT_ALLOWED,
  );
  if ("error" in result) return { message: result.error };
  return {
    success: enabled
      ? "New Eventbrite attendees will be subscribed (never past a spam complaint)."
      : "New Eventbrite attendees will not be subscribed.",
  };
}

/**
 * Manual re-sync: the signed-in admin's workspace, historical rules (no auto-subscribe), as a
 * background job (issue 14): the job engine writes pgboss.job, which only the service may.
 */
export async function syncTicketingAction(_prev: FormState): Promise<FormState> {
  const workspace = await withAdmin(async (_db, ctx) => ({ id: ctx.workspace.workspaceId }), NOT_ALLOWED);
  if ("error" in workspace) return { message: workspace.error };
  await withService((db) => enqueueTicketingSync(db, workspace.id));
  return {
    success:
      "The sync has started: events and registrations appear as it finishes (a failure shows under Jobs).",
  };
}
