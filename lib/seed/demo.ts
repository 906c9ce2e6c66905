import type { Db } from "@/lib/db/doors";
import { createLocalUser } from "@/lib/auth/local-provider";
import { createAccountRows } from "@/lib/auth/create-account";

export const DEMO_EMAIL = "demo@example.com";

/**
 * A demo workspace for a first look: an owner who can sign in, a handful of contacts
 * with tags and a note. Runs as the system, once, on an empty database.
 */
export async function seedDemo(db: Db, password: string): Promise<{ email: string; workspaceId: string }> {
  const userId = await createLocalUser(db, DEMO_EMAIL, password);
  const { workspaceId } = await createAccountRows(db, {
    userId,
    email: DEMO_EMAIL,
    firstName: "Demo",
    lastName: "Owner",
    workspaceName: "Demo Workspace",
  });
  const contacts = [
    {
      email: "ada@example.com",
      first_name: "Ada",
      last_name: "Lovelace",
      phone: "2025550143",
      source: "manual",
      is_subscribed: true,
    },
    {
      email: "grace@example.com",
      first_name: "Grace",
      last_name: "Hopper",
      phone: "+12025550178",
      source: "form",
      is_subscribed: true,
    },
    {
      email: "alan@example.com",
      first_name: "Alan",
      last_name: "Turing",
      phone: null,
      source: "import",
      is_subscribed: false,
    },
    {
      email: "katherine@example.com",
      first_name: "Katherine",
      last_name: "Johnson",
      phone: null,
      source: "event",
      is_subscribed: false,
    },
  ].map((c) => ({
    ...c,
    workspace_id: workspaceId,
    opt_in_timestamp: c.is_subscribed ? new Date() : null,
    opt_in_source: c.is_subscribed ? "Manual Consent" : null,
  }));
  const rows = await db`insert into public.contacts ${db(contacts)} returning id, email`;
  const tags = await db`
    insert into public.tags ${db([
      { workspace_id: workspaceId, name: "VIP" },
      { workspace_id: workspaceId, name: "Newsletter" },
    ])} returning id, name`;
  await db`insert into public.contact_tags ${db([
    { contact_id: rows[0].id, tag_id: tags[0].id, workspace_id: workspaceId },
    { contact_id: rows[0].id, tag_id: tags[1].id, workspace_id: workspaceId },
    { contact_id: rows[1].id, tag_id: tags[1].id, workspace_id: workspaceId },
  ])}`;
  await db`insert into public.notes (workspace_id, contact_id, type, content, content_text, created_by)
           values (${workspaceId}, ${rows[0].id}, 'contact', '<p>Met at the spring fair.</p>', 'Met at the spring fair.', ${userId})`;
  return { email: DEMO_EMAIL, workspaceId };
}
