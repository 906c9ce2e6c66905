import type { Db } from "@/lib/db/doors";

export interface ApiKeyItem {
  id: string;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
  /** the address of the last use (client IP, DESIGN section 7) */
  last_used_ip: string | null;
  revoked_at: Date | null;
  scopes: string[];
  expires_at: Date | null;
  /** past its expiry: refused like a revoked key */
  expired: boolean;
}

/** The workspace's keys, active first, newest first. The digest never leaves the database. */
export async function listApiKeys(db: Db, input: { workspaceId: string }): Promise<ApiKeyItem[]> {
  return db<ApiKeyItem[]>`
    select id, name, created_at, last_used_at, last_used_ip, revoked_at, scopes, expires_at,
           coalesce(expires_at <= now(), false) as expired
    from public.api_keys
    where workspace_id = ${input.workspaceId}
    order by revoked_at is not null, created_at desc`;
}
