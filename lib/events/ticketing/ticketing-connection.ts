import type { Db } from "@/lib/db/doors";

export interface TicketingConnection {
  id: string;
  workspace_id: string;
  access_token: string;
  organization_id: string | null;
  organization_name: string | null;
  webhook_id: string | null;
  auto_subscribe_attendees: boolean;
  connected_at: Date;
  updated_at: Date;
}

/** The connection as the service sees it (the token included): sync and delivery processing. */
export async function getTicketingConnection(
  db: Db,
  workspaceId: string,
): Promise<TicketingConnection | null> {
  const [row] = await db<TicketingConnection[]>`
    select * from public.ticketing_connections where workspace_id = ${workspaceId}`;
  return row ?? null;
}

export type TicketingConnectionSummary = Omit<TicketingConnection, "access_token"> & {
  /** the webhook has a secret (connections made before it existed must reconnect) */
  webhook_secured: boolean;
};

/**
 * The connection as a member may see it (docs/decisions.md, "Least-privilege RLS"): every column but the
 * access token and the webhook secret's digest, which members have no privilege to read.
 */
export async function getTicketingConnectionSummary(
  db: Db,
  workspaceId: string,
): Promise<TicketingConnectionSummary | null> {
  const [row] = await db<TicketingConnectionSummary[]>`
    select id, workspace_id, organization_id, organization_name, webhook_id, auto_subscribe_attendees,
           connected_at, updated_at, webhook_secured
    from public.ticketing_connections where workspace_id = ${workspaceId}`;
  return row ?? null;
}
