import type { Sql } from "../../../lib/db/client";
import type { Claims } from "../../../lib/db/doors";

/** A workspace of its own with one owner, and the owner's claims for withUser. */
export async function ownedWorkspace(
  sql: Sql,
  name: string,
): Promise<{ workspaceId: string; claims: Claims }> {
  const email = `bench-${name}@example.test`;
  const [user] = await sql`insert into auth.users (email) values (${email}) returning id`;
  await sql`insert into user_profiles (id, email) values (${user.id}, ${email})`;
  const [ws] = await sql`insert into workspaces (name) values (${name}) returning id`;
  await sql`insert into workspace_members (workspace_id, user_id, role) values (${ws.id}, ${user.id}, 'owner')`;
  return { workspaceId: ws.id, claims: { sub: user.id, role: "authenticated", email } };
}
