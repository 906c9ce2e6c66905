import type { Db } from "@/lib/db/doors";

export type Role = "owner" | "admin" | "member";

export interface Membership {
  workspaceId: string;
  workspaceName: string;
  role: Role;
  joinedAt: Date;
}

/** The caller's workspaces (RLS limits the rows to their own memberships' workspaces). */
export async function listMemberships(db: Db): Promise<Membership[]> {
  return db<Membership[]>`
    select w.id as "workspaceId", w.name as "workspaceName", m.role, m.created_at as "joinedAt"
    from public.workspace_members m
    join public.workspaces w on w.id = m.workspace_id
    where m.user_id = auth.uid()
    order by w.name, w.id`;
}
