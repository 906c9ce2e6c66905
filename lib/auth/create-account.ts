import type { Db } from "@/lib/db/doors";

/**
 * The rows every new account gets, whichever provider created the user: a profile, and
 * a workspace with the user as its owner. Runs as the system (sign-up has no session yet).
 */
export async function createAccountRows(
  db: Db,
  input: {
    userId: string;
    email: string;
    firstName: string;
    lastName: string;
    workspaceName: string;
    timezone?: string;
  },
): Promise<{ workspaceId: string }> {
  await db`
    insert into public.user_profiles (id, email, first_name, last_name, timezone)
    values (${input.userId}, ${input.email}, ${input.firstName || null}, ${input.lastName || null}, ${input.timezone ?? "UTC"})
    on conflict (id) do nothing`;
  const [ws] = await db`insert into public.workspaces (name) values (${input.workspaceName}) returning id`;
  await db`insert into public.workspace_members (workspace_id, user_id, role) values (${ws.id}, ${input.userId}, 'owner')`;
  return { workspaceId: ws.id };
}
