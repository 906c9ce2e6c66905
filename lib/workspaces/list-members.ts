import type { Db } from "@/lib/db/doors";
import type { Role } from "./list-memberships";
import { invalid, listMembersSchema, type Result } from "./schemas";

export interface Member {
  userId: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  role: Role;
  joinedAt: Date;
}

/**
 * The workspace's members, owners first, then admins, then members, each by name. RLS
 * limits the rows to workspaces the caller belongs to: a stranger gets an empty list.
 */
export async function listMembers(db: Db, input: { workspaceId: string }): Promise<Result<Member[]>> {
  const parsed = listMembersSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const rows = await db<Member[]>`
    select m.user_id as "userId", p.email, p.first_name as "firstName", p.last_name as "lastName",
           m.role, m.created_at as "joinedAt"
    from public.workspace_members m
    join public.user_profiles p on p.id = m.user_id
    where m.workspace_id = ${parsed.data.workspaceId}
    order by array_position(array['owner', 'admin', 'member'], m.role),
             lower(coalesce(nullif(concat_ws(' ', p.first_name, p.last_name), ''), p.email)), m.user_id`;
  return { data: rows };
}
