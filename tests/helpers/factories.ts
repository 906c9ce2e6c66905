import { randomUUID } from "node:crypto";
import type { Sql } from "@/lib/db/client";
import type { Claims } from "@/lib/db/doors";

export type Role = "owner" | "admin" | "member";

export interface TestUser {
  id: string;
  email: string;
  claims: Claims;
}

export function unique(prefix = "x"): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/** A user with a profile (no workspace), its address already confirmed (as the demo seed's). */
export async function createUser(
  sql: Sql,
  opts: { email?: string; timezone?: string } = {},
): Promise<TestUser> {
  const email = opts.email ?? `${unique("user")}@example.test`;
  const [user] =
    await sql`insert into auth.users (email, email_confirmed_at) values (${email}, now()) returning id`;
  await sql`insert into public.user_profiles (id, email, first_name, last_name, timezone)
            values (${user.id}, ${email}, 'Test', 'User', ${opts.timezone ?? "UTC"})`;
  return { id: user.id, email, claims: { sub: user.id, role: "authenticated", email } };
}

export interface TestWorkspace {
  id: string;
  owner: TestUser;
}

/** A workspace with an owner. */
export async function createWorkspace(
  sql: Sql,
  opts: { name?: string; owner?: TestUser } = {},
): Promise<TestWorkspace> {
  const owner = opts.owner ?? (await createUser(sql));
  const [ws] =
    await sql`insert into public.workspaces (name) values (${opts.name ?? unique("ws")}) returning id`;
  await sql`insert into public.workspace_members (workspace_id, user_id, role) values (${ws.id}, ${owner.id}, 'owner')`;
  return { id: ws.id, owner };
}

/** A new user who is a member of the workspace with the given role. */
export async function addMember(
  sql: Sql,
  workspaceId: string,
  role: Role,
  user?: TestUser,
): Promise<TestUser> {
  const u = user ?? (await createUser(sql));
  await sql`insert into public.workspace_members (workspace_id, user_id, role) values (${workspaceId}, ${u.id}, ${role})`;
  return u;
}

export async function createContact(
  sql: Sql,
  workspaceId: string,
  fields: Record<string, unknown> = {},
): Promise<{ id: string; email: string }> {
  const row = { workspace_id: workspaceId, email: `${unique("c")}@example.test`, ...fields };
  const [c] = await sql`insert into public.contacts ${sql(row)} returning id, email`;
  return { id: c.id, email: c.email };
}

/** The audit rows about one target, ordered by action: what the tests of an audited write read. */
export function auditRowsOf(sql: Sql, targetId: string) {
  return sql<{ action: string; actor_id: string | null; actor_api_key_id: string | null }[]>`
    select action, actor_id, actor_api_key_id from audit_log where target_id = ${targetId}
    order by action, created_at`;
}
