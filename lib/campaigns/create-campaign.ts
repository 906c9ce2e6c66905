import type { Db } from "@/lib/db/doors";

/**
 * A campaign, by name, so that an automation can enroll contacts in it (the minimum the
 * forms dashboard needs; campaign content and sending are not part of this service yet).
 * An existing campaign of the same name in the workspace is reused.
 */
export async function createCampaign(
  db: Db,
  input: { workspaceId: string; name: string },
): Promise<{ id: string }> {
  const [existing] = await db`
    select id from public.campaigns where workspace_id = ${input.workspaceId} and name = ${input.name}
    order by created_at limit 1`;
  if (existing) return { id: existing.id };
  const [campaign] = await db`
    insert into public.campaigns (workspace_id, name) values (${input.workspaceId}, ${input.name}) returning id`;
  return { id: campaign.id };
}
