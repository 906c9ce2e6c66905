import type { Db } from "@/lib/db/doors";
import { verifyValue } from "@/lib/auth/tokens";
import { appUrl } from "@/lib/config";
import {
  createOrganizationWebhook,
  deleteWebhook,
  exchangeCode,
  getOrganizations,
} from "../eventbrite/client";
import { generateWebhookSecret, hashWebhookSecret } from "./webhook-secret";

export const TICKETING_OAUTH_PURPOSE = "ticketing-oauth";

export function ticketingRedirectUri(): string {
  return `${appUrl()}/api/auth/ticketing/callback`;
}

/** DESIGN 7: the endpoint registered with Eventbrite carries the connection's raw secret. */
export function ticketingWebhookUrl(secret: string): string {
  return `${appUrl()}/api/webhooks/ticketing?secret=${encodeURIComponent(secret)}`;
}

/** Whether the user is an owner or admin of the workspace (the service door bypasses RLS). */
export async function isWorkspaceAdmin(db: Db, workspaceId: string, userId: string): Promise<boolean> {
  const [row] = await db`
    select 1 from public.workspace_members
    where workspace_id = ${workspaceId} and user_id = ${userId} and role in ('owner', 'admin')`;
  return Boolean(row);
}

export type ConnectError = "state" | "exchange" | "organization" | "webhook";

/**
 * Spec 4.5, OAuth connection flow: the callback. The state must be one this service signed
 * for this member in this workspace (else nothing happens at all); then the code is exchanged
 * for the token, the organisation discovered, one organisation webhook registered for
 * order.placed, order.refunded and attendee.updated, and the ticketing_connections row stored.
 * Reconnecting replaces the row and removes the previous webhook.
 *
 * Runs through the service door (members cannot read or write the token, attack 7): the
 * member must be an owner or admin of the workspace, checked here, and the signed state binds
 * the callback to that member and workspace. The webhook's endpoint carries a fresh random
 * secret whose SHA-256 is stored with the connection (DESIGN 7).
 */
export async function completeTicketingConnection(
  db: Db,
  input: { workspaceId: string; userId: string; code: string; state: string },
): Promise<{ data: { organizationName: string | null } } | { error: ConnectError }> {
  const state = await verifyValue<{ workspaceId: string; userId: string }>(
    TICKETING_OAUTH_PURPOSE,
    input.state,
  );
  if (!state || state.workspaceId !== input.workspaceId || state.userId !== input.userId || !input.code)
    return { error: "state" };
  if (!(await isWorkspaceAdmin(db, input.workspaceId, input.userId))) return { error: "state" };

  const token = await exchangeCode(input.code, ticketingRedirectUri()).catch(() => null);
  if (!token) return { error: "exchange" };
  const [organization] = await getOrganizations(token).catch(() => []);
  if (!organization) return { error: "organization" };
  const secret = generateWebhookSecret();
  const webhook = await createOrganizationWebhook(
    token,
    String(organization.id),
    ticketingWebhookUrl(secret),
  ).catch(() => null);
  if (!webhook) return { error: "webhook" };

  try {
    const [previous] = await db`
      select access_token, webhook_id from public.ticketing_connections
      where workspace_id = ${input.workspaceId} for update`;
    await db`
      insert into public.ticketing_connections
        (workspace_id, access_token, organization_id, organization_name, webhook_id, webhook_secret_hash)
      values (${input.workspaceId}, ${token}, ${String(organization.id)}, ${organization.name ?? null},
              ${String(webhook.id)}, ${hashWebhookSecret(secret)})
      on conflict (workspace_id) do update set
        access_token = excluded.access_token,
        organization_id = excluded.organization_id,
        organization_name = excluded.organization_name,
        webhook_id = excluded.webhook_id,
        webhook_secret_hash = excluded.webhook_secret_hash,
        connected_at = now()`;
    if (previous?.webhook_id && previous.webhook_id !== String(webhook.id)) {
      await deleteWebhook(previous.access_token, previous.webhook_id).catch((error) =>
        console.error("could not remove the previous Eventbrite webhook", error),
      );
    }
  } catch (error) {
    await deleteWebhook(token, String(webhook.id)).catch(() => {});
    throw error;
  }
  return { data: { organizationName: organization.name ?? null } };
}
