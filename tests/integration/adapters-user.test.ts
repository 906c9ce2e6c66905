import { describe, expect, test } from "vitest";
import { setupTestDatabase } from "../helpers/db";
import { createUser, createWorkspace, unique } from "../helpers/factories";
import { signIn } from "../helpers/member-session";

// The user adapters (signed in, in a workspace or in none) and the member route that answers with
// redirects (docs/decisions.md, "One error type and the adapters"): without a session nothing is
// stored and the browser is sent to sign in; with one, the account's own work is done.

const { createWorkspaceAction } = await import("@/app/(dashboard)/workspace-actions");
const { acceptInvitationAction } = await import("@/app/invitations/accept/actions");
const { GET: payprocCallback } = await import("@/app/api/auth/payproc/callback/route");

const db = setupTestDatabase();

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [key, value] of Object.entries(fields)) f.set(key, value);
  return f;
}

/** Where `fn` redirected to (Next's redirect() throws), or null when it returned. */
async function redirectOf(fn: () => Promise<unknown>): Promise<string | null> {
  try {
    await fn();
    return null;
  } catch (error) {
    const digest = String((error as { digest?: string })?.digest ?? "");
    if (!digest.startsWith("NEXT_REDIRECT")) throw error;
    return digest.split(";")[2];
  }
}

describe("userAction: a signed-in account in no workspace", () => {
  test("creating a workspace without a session: sent to sign in, no workspace stored", async () => {
    signIn(null);
    const name = unique("nobody's");
    expect(await redirectOf(() => createWorkspaceAction(undefined, form({ name })))).toBe("/sign-in");
    expect(await db.sql`select 1 from workspaces where name = ${name}`).toHaveLength(0);
  });

  test("an account in no workspace creates one and owns it, with its first audit row", async () => {
    const user = await createUser(db.sql);
    signIn(user.claims);
    const name = unique("first");
    expect(await redirectOf(() => createWorkspaceAction(undefined, form({ name })))).toBe("/contacts");
    const [row] = await db.sql`
      select m.role, (select count(*)::int from audit_log a where a.workspace_id = w.id
                      and a.action = 'workspace.created' and a.actor_id = ${user.id}) as audited
      from workspaces w join workspace_members m on m.workspace_id = w.id
      where w.name = ${name} and m.user_id = ${user.id}`;
    expect(row).toEqual({ role: "owner", audited: 1 });
  });

  test("a refusal is shown on the form and stores nothing (a blank name)", async () => {
    const user = await createUser(db.sql);
    signIn(user.claims);
    const result = await createWorkspaceAction(undefined, form({ name: "   " }));
    // on the form (as its message or beside the field), whichever shape the refusal takes
    expect(JSON.stringify(result)).toContain("Name your workspace.");
    expect(await db.sql`select 1 from workspace_members where user_id = ${user.id}`).toHaveLength(0);
  });

  test("accepting an invitation without a session: back to the link after signing in, no member stored", async () => {
    signIn(null);
    const ws = await createWorkspace(db.sql);
    const token = "a".repeat(43);
    const to = await redirectOf(() => acceptInvitationAction(undefined, form({ token })));
    expect(to).toBe(`/sign-in?next=${encodeURIComponent(`/invitations/accept?token=${token}`)}`);
    expect(await db.sql`select 1 from workspace_members where workspace_id = ${ws.id}`).toHaveLength(1);
  });
});

describe("memberRoute with redirect: the OAuth callback", () => {
  test("without a session the browser is sent to sign in and no connection is stored", async () => {
    signIn(null);
    const url = "http://crm.test/api/auth/payproc/callback?code=ac_x&state=forged";
    expect(await redirectOf(() => payprocCallback(new Request(url)))).toBe("/sign-in");
    expect(await db.sql`select 1 from payproc_connections`).toHaveLength(0);
  });

  test("an account in no workspace is sent to create one", async () => {
    const user = await createUser(db.sql);
    signIn(user.claims);
    const url = "http://crm.test/api/auth/payproc/callback?code=ac_x&state=forged";
    expect(await redirectOf(() => payprocCallback(new Request(url)))).toBe("/no-workspace");
  });
});
