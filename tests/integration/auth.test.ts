import { describe, expect, test } from "vitest";
import { withService } from "@/lib/db/doors";
import { EMAIL_TAKEN, INVALID_CREDENTIALS, signInLocal, signUpLocal } from "@/lib/auth/local-provider";
import { setupTestDatabase } from "../helpers/db";
import { unique } from "../helpers/factories";

const db = setupTestDatabase();
const password = "correct horse battery";

function signUp(email: string, workspaceName = unique("Bakery")) {
  return withService((tx) =>
    signUpLocal(tx, { email, password, firstName: "Olive", lastName: "Owner", workspaceName }),
  );
}

async function accountRows(email: string) {
  return db.sql`
    select u.id, u.email, u.encrypted_password is not null as has_password,
           p.first_name, p.last_name, p.timezone, m.role, w.name as workspace
    from auth.users u
    left join user_profiles p on p.id = u.id
    left join workspace_members m on m.user_id = u.id
    left join workspaces w on w.id = m.workspace_id
    where lower(u.email) = lower(${email})`;
}

describe("lib/auth/local-provider", () => {
  test("sign-up creates the user, the profile, a workspace and the owner membership", async () => {
    const email = `${unique("olive")}@example.test`;
    const result = await signUp(email, "Olive's Bakery");
    if (!("data" in result)) throw new Error(result.error);
    const rows = await accountRows(email);
    expect(rows).toEqual([
      {
        id: result.data.userId,
        email,
        has_password: true,
        first_name: "Olive",
        last_name: "Owner",
        timezone: "UTC",
        role: "owner",
        workspace: "Olive's Bakery",
      },
    ]);
    const [{ id }] =
      await db.sql`select workspace_id as id from workspace_members where user_id = ${result.data.userId}`;
    expect(result.data.workspaceId).toBe(id);
    const [{ stored }] =
      await db.sql`select encrypted_password as stored from auth.users where email = ${email}`;
    expect(stored).not.toContain(password);
  });

  test("a duplicate sign-up is refused and changes nothing", async () => {
    const email = `${unique("dup")}@example.test`;
    await signUp(email, "First");
    const before = await accountRows(email);
    const [{ n: workspacesBefore }] = await db.sql`select count(*)::int as n from workspaces`;
    const result = await signUp(email, "Second");
    expect(result).toEqual({ error: EMAIL_TAKEN });
    expect(await accountRows(email)).toEqual(before);
    const [{ n: workspacesAfter }] = await db.sql`select count(*)::int as n from workspaces`;
    expect(workspacesAfter).toBe(workspacesBefore);
  });

  test("an unknown email and a wrong password give the same message", async () => {
    const email = `${unique("known")}@example.test`;
    await signUp(email);
    const wrongPassword = await withService((tx) => signInLocal(tx, { email, password: "not the password" }));
    const unknownEmail = await withService((tx) =>
      signInLocal(tx, { email: `${unique("nobody")}@example.test`, password }),
    );
    expect(wrongPassword).toEqual({ error: INVALID_CREDENTIALS });
    expect(unknownEmail).toEqual(wrongPassword);
    const ok = await withService((tx) => signInLocal(tx, { email, password }));
    expect(ok).toMatchObject({ data: { email } });
  });

  test("emails are case-insensitive: stored lowercase, signed in and refused as duplicates in any case", async () => {
    const local = unique("Mixed");
    const result = await signUp(`  ${local}@Example.TEST `);
    const email = `${local.toLowerCase()}@example.test`;
    expect(result).toMatchObject({ data: { email } });
    expect((await accountRows(email)).map((r) => r.email)).toEqual([email]);
    const signIn = await withService((tx) => signInLocal(tx, { email: email.toUpperCase(), password }));
    expect(signIn).toMatchObject({ data: { email } });
    expect(await signUp(email.toUpperCase())).toEqual({ error: EMAIL_TAKEN });
    expect(await accountRows(email)).toHaveLength(1);
  });
});
