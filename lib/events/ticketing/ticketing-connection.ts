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

export async function getTicketingConnection(
  db: Db,
  workspaceId: string,
): Promise<TicketingConnection | null> {
  const [row] = await db<TicketingConnection[]>`
    select * from public.ticketing_connections where workspace_id = ${workspaceId}`;
  return row ?? null;
}
