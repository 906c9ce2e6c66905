import type { Db } from "@/lib/db/doors";
import { createLocalUser } from "@/lib/auth/local-provider";
import { createAccountRows } from "@/lib/auth/create-account";
import {
  seedDemoBroadcast,
  seedDemoEvents,
  seedDemoForms,
  seedDemoPurchases,
  seedDemoSuppressions,
} from "./demo-activity";
import { seedDemoContacts } from "./demo-contacts";
import { demoRandom } from "./demo-random";

export const DEMO_EMAIL = "demo@example.com";
export const DEMO_MEMBER_EMAIL = "member@example.com";

export interface DemoSeed {
  email: string;
  memberEmail: string;
  workspaceId: string;
  rsvpEventId: string;
}

/**
 * A demo workspace that shows the product alive on first start (docs/decisions.md, "The demo seed"): an owner
 * who can sign in and a second member; a few hundred contacts over the last 90 days from every
 * source, with tags, notes, consent and suppressions of each kind; two forms with stored,
 * verified and staged submissions; a published upcoming event with RSVPs, a ticketing-linked
 * event and a past one; purchases with a partial and a full refund and an open review task;
 * a sent broadcast; notifications. Runs as the system, once, on an empty database. Accounts
 * are created as the seed always did (confirmed: they can sign in at once).
 */
export async function seedDemo(
  db: Db,
  password: string,
  options: { email?: string; memberEmail?: string } = {},
): Promise<DemoSeed> {
  const email = options.email ?? DEMO_EMAIL;
  const memberEmail = options.memberEmail ?? DEMO_MEMBER_EMAIL;
  const userId = await createLocalUser(db, email, password);
  const { workspaceId } = await createAccountRows(db, {
    userId,
    email,
    firstName: "Demo",
    lastName: "Owner",
    workspaceName: "Demo Workspace",
  });
  const memberId = await createLocalUser(db, memberEmail, password);
  await createAccountRowsForMember(db, { workspaceId, userId: memberId, email: memberEmail });

  const rnd = demoRandom(16);
  const tag = workspaceId.slice(0, 8);
  const contacts = await seedDemoContacts(db, { workspaceId, userId, domain: "example.net", rnd });
  const ctx = { workspaceId, userId, contacts, rnd, tag };
  await seedDemoForms(db, ctx);
  const { rsvpEventId } = await seedDemoEvents(db, ctx);
  await seedDemoPurchases(db, ctx);
  await seedDemoSuppressions(db, ctx);
  await seedDemoBroadcast(db, ctx);
  return { email, memberEmail, workspaceId, rsvpEventId };
}

/** The second member: a profile and an admin membership of the demo workspace. */
async function createAccountRowsForMember(
  db: Db,
  input: { workspaceId: string; userId: string; email: string },
) {
  await db`
    insert into public.user_profiles (id, email, first_name, last_name, timezone)
    values (${input.userId}, ${input.email}, 'Morgan', 'Member', 'UTC') on conflict (id) do nothing`;
  await db`
    insert into public.workspace_members (workspace_id, user_id, role)
    values (${input.workspaceId}, ${input.userId}, 'admin') on conflict do nothing`;
}
