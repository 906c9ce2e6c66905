import { describe, expect, test } from "vitest";
import { AppError } from "@/lib/errors/app-error";
import { withService } from "@/lib/db/doors";
import { createHash } from "node:crypto";
import { confirmSignUp, SIGN_UP_LINK_INVALID, SIGN_UP_PASSWORD_WRONG } from "@/lib/auth/confirm-sign-up";
import { createLocalUser, EMAIL_TAKEN, INVALID_CREDENTIALS, signInLocal } from "@/lib/auth/local-provider";
import { requestSignUp } from "@/lib/auth/request-sign-up";
import { setupTestDatabase } from "../helpers/db";
import { emailedToken, emailsTo } from "../helpers/account-links";
import { unique } from "../helpers/factories";

const db = setupTestDatabase();
const password = "correct horse battery";

const request = (email: string, workspaceName = unique("Bakery"), pw = password) =>
  withService((tx) =>
    requestSignUp(tx, { email, password: pw, firstName: "Olive", lastName: "Owner", workspaceName }),
  );
const confirm = (token: string, pw = password) =>
  withService((tx) => confirmSignUp(tx, { token, password: pw }));
const signIn = (email: string, pw = password) =>
  withService((tx) => signInLocal(tx, { email, password: pw }));

/** Sign-up, confirmation link from the outbox, confirmation with the chosen password. */
async function signUp(email: string, workspaceName?: string) {
  await request(email, workspaceName);
  const result = await confirm(await emailedToken(db.sql, email, "/confirm-email"));
  if (!("data" in result)) throw result.error;
  return result.data;
}

async function accountRows(email: string) {
  return db.sql`
    select u.id, u.email, u.email_confirmed_at is not null as confirmed, p.first_name, p.last_name,
           p.timezone, m.role, w.name as workspace
    from auth.users u
    left join user_profiles p on p.id = u.id
    left join workspace_members m on m.user_id = u.id
    left join workspaces w on w.id = m.workspace_id
    where lower(u.email) = lower(${email})`;
}

describe("account pre-claim: sign-up proves email ownership before the account exists", () => {
  test("sign-up creates no account, only a single-use link whose token is stored as its digest", async () => {
    const email = `${unique("olive")}@example.test`;
    expect(await request(email)).toEqual({ data: { email } });
    expect(await accountRows(email)).toEqual([]);
    expect(await signIn(email)).toEqual({ error: new AppError("unauthenticated", INVALID_CREDENTIALS) });
    const token = await emailedToken(db.sql, email, "/confirm-email");
    const [link] =
      await db.sql`select token_hash, data::text as data from account_tokens where email = ${email}`;
    expect(link.token_hash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(link.data).not.toContain(token);
    expect(link.data).not.toContain(password);
    // an account email belongs to no workspace: no member's outbox shows it
    expect(await emailsTo(db.sql, email)).toEqual([
      { subject: "Confirm your email address", workspace_id: null },
    ]);
  });

  test("the link with the chosen password creates the confirmed user, profile and own workspace, and signs in", async () => {
    const email = `${unique("olive")}@example.test`;
    const data = await signUp(email, "Olive's Bakery");
    expect(await accountRows(email)).toEqual([
      {
        id: data.userId,
        email,
        confirmed: true,
        first_name: "Olive",
        last_name: "Owner",
        timezone: "UTC",
        role: "owner",
        workspace: "Olive's Bakery",
      },
    ]);
    expect(await signIn(email)).toMatchObject({ data: { userId: data.userId, email } });
  });

  test("the link is single-use", async () => {
    const email = `${unique("once")}@example.test`;
    await request(email);
    const token = await emailedToken(db.sql, email, "/confirm-email");
    expect(await confirm(token)).toMatchObject({ data: { email } });
    expect(await confirm(token)).toEqual({ error: new AppError("not_found", SIGN_UP_LINK_INVALID) });
    expect(await accountRows(email)).toHaveLength(1);
  });

  test("an expired link creates nothing", async () => {
    const email = `${unique("late")}@example.test`;
    await request(email);
    await db.sql`update account_tokens set expires_at = now() - interval '1 second' where email = ${email}`;
    expect(await confirm(await emailedToken(db.sql, email, "/confirm-email"))).toEqual({
      error: new AppError("not_found", SIGN_UP_LINK_INVALID),
    });
    expect(await accountRows(email)).toEqual([]);
  });

  test("a pre-claimed email: the attacker's sign-up cannot be completed by the owner's click, nor the owner's by the attacker", async () => {
    const email = `${unique("cfo")}@victim.test`;
    await request(email, "Attacker Inc", "attacker-password");
    const attackerLink = await emailedToken(db.sql, email, "/confirm-email");
    await request(email, "Victim Inc", password);
    const ownerLink = await emailedToken(db.sql, email, "/confirm-email");
    // the owner clicks the attacker's link: their own password does not finish it
    expect(await confirm(attackerLink, password)).toEqual({
      error: new AppError("invalid", SIGN_UP_PASSWORD_WRONG),
    });
    expect(await signIn(email, "attacker-password")).toEqual({
      error: new AppError("unauthenticated", INVALID_CREDENTIALS),
    });
    expect(await confirm(ownerLink, password)).toMatchObject({ data: { email } });
    // the attacker's link is spent with the owner's confirmation
    expect(await confirm(attackerLink, "attacker-password")).toEqual({
      error: new AppError("not_found", SIGN_UP_LINK_INVALID),
    });
    expect(await signIn(email, "attacker-password")).toEqual({
      error: new AppError("unauthenticated", INVALID_CREDENTIALS),
    });
    expect((await accountRows(email)).map((r) => r.workspace)).toEqual(["Victim Inc"]);
  });

  test("spent sign-up links keep no password hash; links a day past their expiry are swept", async () => {
    const email = `${unique("tidy")}@example.test`;
    await request(email);
    await request(email);
    await confirm(await emailedToken(db.sql, email, "/confirm-email"));
    const spent = await db.sql`select data from account_tokens where email = ${email}`;
    expect(spent.map((r) => r.data)).toEqual([{}, {}]);
    const stale = `${unique("stale")}@example.test`;
    await request(stale);
    await db.sql`update account_tokens set expires_at = now() - interval '25 hours' where email = ${stale}`;
    await request(`${unique("next")}@example.test`);
    expect(await db.sql`select 1 from account_tokens where email = ${stale}`).toEqual([]);
  });

  test("an account that was never confirmed cannot sign in, even with its password", async () => {
    const email = `${unique("legacy")}@example.test`;
    const hash = "$2a$10$CwTycUXWue0Thq9StjUM0uJ8.jXGqZtFv7Pv3VTFQJz7pXi3Ih7W."; // not a real password's
    await db.sql`insert into auth.users (email, encrypted_password) values (${email}, ${hash})`;
    expect(await signIn(email)).toEqual({ error: new AppError("unauthenticated", INVALID_CREDENTIALS) });
  });
});

describe("account enumeration: sign-up answers do not reveal whether an account exists", () => {
  test("a known and an unknown address get the same answer; the owner of the known one gets a note instead of a link", async () => {
    const known = `${unique("known")}@example.test`;
    await signUp(known);
    const unknown = `${unique("unknown")}@example.test`;
    const [{ n: workspacesBefore }] = await db.sql`select count(*)::int as n from workspaces`;
    const a = await request(known, "Second");
    const b = await request(unknown, "Second");
    expect(a).toEqual({ data: { email: known } });
    expect(b).toEqual({ data: { email: unknown } });
    expect((await emailsTo(db.sql, known)).map((e) => e.subject)).toEqual([
      "Confirm your email address",
      "You already have an account",
    ]);
    const [{ n: workspacesAfter }] = await db.sql`select count(*)::int as n from workspaces`;
    expect(workspacesAfter).toBe(workspacesBefore);
    expect(await accountRows(known)).toHaveLength(1);
  });

  test("an unknown email and a wrong password give the same sign-in message", async () => {
    const email = `${unique("known")}@example.test`;
    await signUp(email);
    expect(await signIn(email, "not the password")).toEqual({
      error: new AppError("unauthenticated", INVALID_CREDENTIALS),
    });
    expect(await signIn(`${unique("nobody")}@example.test`)).toEqual({
      error: new AppError("unauthenticated", INVALID_CREDENTIALS),
    });
  });

  test("emails are case-insensitive: stored lowercase, signed in in any case, confirmed once", async () => {
    const local = unique("Mixed");
    await request(`  ${local}@Example.TEST `);
    const email = `${local.toLowerCase()}@example.test`;
    expect(await confirm(await emailedToken(db.sql, email, "/confirm-email"))).toMatchObject({
      data: { email },
    });
    expect(await signIn(email.toUpperCase())).toMatchObject({ data: { email } });
    await request(email.toUpperCase());
    expect((await emailsTo(db.sql, email)).at(-1)?.subject).toBe("You already have an account");
    expect(await accountRows(email)).toHaveLength(1);
  });

  test("confirming a link of an address that meanwhile got a confirmed account changes nothing", async () => {
    const email = `${unique("race")}@example.test`;
    await request(email);
    const token = await emailedToken(db.sql, email, "/confirm-email");
    await withService((tx) => createLocalUser(tx, email, "the owner's password"));
    expect(await confirm(token)).toEqual({ error: new AppError("conflict", EMAIL_TAKEN) });
    expect(await signIn(email)).toEqual({ error: new AppError("unauthenticated", INVALID_CREDENTIALS) });
    expect(await signIn(email, "the owner's password")).toMatchObject({ data: { email } });
    expect(await accountRows(email)).toHaveLength(1);
  });
});
