import type { Db } from "@/lib/db/doors";

export interface ApiKeyItem {
  id: string;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** The workspace's keys, active first, newest first. The digest never leaves the database. */
export async function listApiKeys(db: Db, input: { workspaceId: string }): Promise<ApiKeyItem[]> {
  return db<ApiKeyItem[]>`
    select id, name, created_at, last_used_at, revoked_at from public.api_keys
    where workspace_id = ${input.workspaceId}
    order by revoked_at is not null, created_at desc`;
}
