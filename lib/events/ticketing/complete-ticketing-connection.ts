import type { Db } from "@/lib/db/doors";
import { appUrl } from "@/lib/config";
import { refused, type Refused, type Result } from "@/lib/errors/app-error";
import { enqueueTicketingSync } from "./enqueue-ticketing-sync";

export const TICKETING_OAUTH_PURPOSE = "ticketing-oauth";

export function ticketingRedirectUri(): string {
  return `${appUrl()}/api/auth/ticketing/callback`;
}

/** Eventbrite's registered endpoint carries the raw secret (docs/decisions.md, "The ticketing webhook"). */
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

/** The member is not, or no longer, an owner or admin of the workspace. */
export const notAdmin = (): Refused => refused("forbidden", "Only owners and admins can connect Eventbrite.");

export interface NewTicketingConnection {
  workspaceId: string;
  userId: string;
  token: string;
  organization: { id: string; name: string | null };
  webhookId: string;
  webhookSecretHash: string;
}

/**
 * Spec 4.5, the write half of the OAuth callback (what Eventbrite answered is fetched before,
 * outside any transaction: lib/events/ticketing/flows/complete-ticketing-connection.ts). The
 * member must still be an owner or admin of the workspace, checked again here; then the
 * ticketing_connections row is stored, replacing the previous one under its row lock, and the
 * first import enqueued in the same transaction. Returns the replaced webhook for the caller
 * to remove at Eventbrite after the commit.
 */
export async function storeTicketingConnection(
  db: Db,
  input: NewTicketingConnection,
): Promise<Result<{ previous: { accessToken: string; webhookId: string } | null }>> {
  if (!(await isWorkspaceAdmin(db, input.workspaceId, input.userId))) return notAdmin();
  const [previous] = await db`
    select access_token, webhook_id from public.ticketing_connections
    where workspace_id = ${input.workspaceId} for update`;
  await db`
    insert into public.ticketing_connections
      (workspace_id, access_token, organization_id, organization_name, webhook_id, webhook_secret_hash)
    values (${input.workspaceId}, ${input.token}, ${input.organization.id}, ${input.organization.name},
            ${input.webhookId}, ${input.webhookSecretHash})
    on conflict (workspace_id) do update set
      access_token = excluded.access_token,
      organization_id = excluded.organization_id,
      organization_name = excluded.organization_name,
      webhook_id = excluded.webhook_id,
      webhook_secret_hash = excluded.webhook_secret_hash,
      connected_at = now()`;
  await enqueueTicketingSync(db, input.workspaceId);
  const replaced = previous?.webhook_id && previous.webhook_id !== input.webhookId;
  return {
    data: {
      previous: replaced ? { accessToken: previous.access_token, webhookId: previous.webhook_id } : null,
    },
  };
}
