"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { memberAction, type ActionContext } from "@/lib/adapters/member-action";
import { ADMIN_ROLES } from "@/lib/auth/context";
import { signValue } from "@/lib/auth/tokens";
import { unwrap } from "@/lib/errors/app-error";
import { authorizeUrl, eventbriteConfigured } from "@/lib/events/eventbrite/client";
import {
  TICKETING_OAUTH_PURPOSE,
  ticketingRedirectUri,
} from "@/lib/events/ticketing/complete-ticketing-connection";
import { removeTicketingConnection } from "@/lib/events/ticketing/disconnect-ticketing";
import { removeTicketingWebhook } from "@/lib/events/ticketing/flows/disconnect-ticketing";
import { enqueueTicketingSync } from "@/lib/events/ticketing/enqueue-ticketing-sync";
import { setAutoSubscribeAttendees } from "@/lib/events/ticketing/set-auto-subscribe-attendees";
import type { FormState } from "@/lib/http/form-state";

const admins = {
  roles: ADMIN_ROLES,
  forbidden: "Only owners and admins can manage the Eventbrite connection.",
} as const;

/**
 * Connect: to Eventbrite's authorisation, with a state signed for this member and workspace.
 * Audit: none here, nothing changes until the callback stores the connection.
 */
export const connectTicketingAction = memberAction(
  z.object({}),
  async (_db, _input, ctx) => {
    if (!ADMIN_ROLES.includes(ctx.workspace.role)) return { to: "/settings/ticketing?error=forbidden" };
    if (!eventbriteConfigured()) return { to: "/settings/ticketing?error=unavailable" };
    const state = await signValue(TICKETING_OAUTH_PURPOSE, {
      workspaceId: ctx.workspaceId,
      userId: ctx.userId,
    });
    return { to: authorizeUrl(state, ticketingRedirectUri()) };
  },
  { audit: false, after: ({ to }) => redirect(to) },
);

/**
 * Fetch first, then write (docs/decisions.md, "Provider calls outside transactions"): the webhook is removed
 * at Eventbrite before the transaction opens; the row then goes, with its audit row, in the service
 * door's transaction (docs/decisions.md, "Least-privilege RLS"), only while it still has that webhook.
 */
export const disconnectTicketingAction = memberAction(
  z.object({}),
  async (db, _input, ctx): Promise<FormState> => {
    if (!ctx.prepared) return {}; // nothing was connected
    const { disconnected } = unwrap(
      await removeTicketingConnection(db, {
        workspaceId: ctx.workspaceId,
        userId: ctx.userId,
        webhookId: ctx.prepared.webhookId,
      }),
    );
    ctx.audit.target("ticketing_connection", ctx.workspaceId);
    return disconnected ? { success: "Disconnected." } : {};
  },
  {
    ...admins,
    door: "service",
    before: async (_input: unknown, ctx: ActionContext) => unwrap(await removeTicketingWebhook(ctx)),
    // nothing was connected: nothing to audit
    audit: (_input, result) => (result.success ? "connection.ticketing_disconnected" : null),
    refusal: () => redirect("/settings/ticketing?error=provider_failed"),
    after: () => redirect("/settings/ticketing?disconnected=1"),
  },
);

export const setAutoSubscribeAction = memberAction(
  z.object({ auto_subscribe_attendees: z.string().optional() }),
  async (db, input, ctx): Promise<FormState> => {
    const { enabled } = unwrap(
      await setAutoSubscribeAttendees(db, {
        workspaceId: ctx.workspaceId,
        enabled: input.auto_subscribe_attendees === "on",
      }),
    );
    ctx.audit
      .target("ticketing_connection", ctx.workspaceId)
      .change(null, { autoSubscribeAttendees: enabled });
    return {
      success: enabled
        ? "New Eventbrite attendees will be subscribed (never past a spam complaint)."
        : "New Eventbrite attendees will not be subscribed.",
    };
  },
  { ...admins, audit: "connection.ticketing_updated" },
);

/**
 * Manual re-sync: the signed-in admin's workspace, historical rules (no auto-subscribe), as a
 * background job: the job engine writes pgboss.job, which only the service may.
 */
export const syncTicketingAction = memberAction(
  z.object({}),
  async (db, _input, ctx): Promise<FormState> => {
    await enqueueTicketingSync(db, ctx.workspaceId);
    ctx.audit.target("ticketing_connection", ctx.workspaceId);
    return {
      success:
        "The sync has started: events and registrations appear as it finishes (a failure shows under Jobs).",
    };
  },
  { ...admins, door: "service", audit: "connection.ticketing_synced" },
);
