import { describe, expect, test } from "vitest";
import { AppError } from "@/lib/errors/app-error";
import { withService } from "@/lib/db/doors";
import { changePassword, CURRENT_PASSWORD_WRONG, signOutEverywhere } from "@/lib/auth/change-password";
import { currentSession } from "@/lib/auth/current-session";
import { createLocalUser, INVALID_CREDENTIALS, signInLocal } from "@/lib/auth/local-provider";
import {
  requestPasswordReset,
  resetPassword,
  RESET_LINK_INVALID,
  resetLinkOpen,
} from "@/lib/auth/reset-password";
import { signSessionToken } from "@/lib/auth/tokens";
import { setupTestDatabase } from "../helpers/db";
import { emailedToken, emailsTo } from "../helpers/account-links";
import { unique } from "../helpers/factories";

process.env.AUTH_SECRET ??= "test-secret-that-is-at-least-32-characters-long";

const db = setupTestDatabase();
const password = "correct horse battery";

/** A confirmed account and a signed-in session token for it. */
async function account() {
  const email = `${unique("acct")}@example.test`;
  const id = await withService((tx) => createLocalUser(tx, email, password));
  const signedIn = await withService((tx) => signInLocal(tx, { email, password }));
  if (!("data" in signedIn)) throw signedIn.error;
  const token = await signSessionToken({ id, email, sessionVersion: signedIn.data.sessionVersion! });
  return { id, email, token };
}
const valid = async (token: string) =>
  (await withService((tx) => currentSession(tx, token)))?.claims.sub ?? null;
const signIn = (email: string, pw: string) => withService((tx) => signInLocal(tx, { email, password: pw }));

describe("unrevocable sessions: sessions carry a version the server checks", () => {
  test("sign out everywhere: every session issued before stops working", async () => {
    const a = await account();
    const other = await signSessionToken({ id: a.id, email: a.email, sessionVersion: 0 });
    expect(await valid(a.token)).toBe(a.id);
    expect(await valid(other)).toBe(a.id);
    await withService((tx) => signOutEverywhere(tx, { userId: a.id }));
    expect(await valid(a.token)).toBeNull();
    expect(await valid(other)).toBeNull();
    // signing in again gives a working session
    const again = await signIn(a.email, password);
    if (!("data" in again)) throw again.error;
    expect(
      await valid(
        await signSessionToken({ id: a.id, email: a.email, sessionVersion: again.data.sessionVersion! }),
      ),
    ).toBe(a.id);
  });

  test("sliding renewal: a session is due for a new token once it is a day old", async () => {
    const a = await account();
    expect((await withService((tx) => currentSession(tx, a.token)))?.renew).toBe(false);
    const { SignJWT } = await import("jose");
    const dayOld = await new SignJWT({ role: "authenticated", email: a.email, sv: 0 })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(a.id)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 60 * 60 * 25)
      .setExpirationTime("6d")
      .sign(new TextEncoder().encode(process.env.AUTH_SECRET));
    expect(await withService((tx) => currentSession(tx, dayOld))).toMatchObject({
      claims: { sub: a.id },
      renew: true,
    });
  });

  test("a token without a version, or of a deleted account, is refused", async () => {
    const a = await account();
    const { SignJWT } = await import("jose");
    const legacy = await new SignJWT({ role: "authenticated", email: a.email })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(a.id)
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode(process.env.AUTH_SECRET));
    expect(await valid(legacy)).toBeNull();
    await db.sql`delete from auth.users where id = ${a.id}`;
    expect(await valid(a.token)).toBeNull();
  });
});

describe("password change (signed in, current password required)", () => {
  test("the wrong current password changes nothing", async () => {
    const a = await account();
    const result = await withService((tx) =>
      changePassword(tx, { userId: a.id, currentPassword: "wrong", newPassword: "a new password" }),
    );
    expect(result).toEqual({
      error: new AppError("invalid", CURRENT_PASSWORD_WRONG, { field: "currentPassword" }),
    });
    expect(await signIn(a.email, password)).toMatchObject({ data: { userId: a.id } });
    expect(await valid(a.token)).toBe(a.id);
  });

  test("the right one sets the new password and ends the other sessions", async () => {
    const a = await account();
    const result = await withService((tx) =>
      changePassword(tx, { userId: a.id, currentPassword: password, newPassword: "a new password" }),
    );
    expect(result).toMatchObject({ data: { email: a.email } });
    expect(await signIn(a.email, password)).toEqual({
      error: new AppError("unauthenticated", INVALID_CREDENTIALS),
    });
    expect(await signIn(a.email, "a new password")).toMatchObject({ data: { userId: a.id } });
    expect(await valid(a.token)).toBeNull();
  });
});

describe("password reset by email link", () => {
  test("the emailed link sets a new password once, confirms the address and ends every session", async () => {
    const a = await account();
    expect(await withService((tx) => requestPasswordReset(tx, { email: a.email.toUpperCase() }))).toEqual({
      data: { email: a.email },
    });
    const token = await emailedToken(db.sql, a.email, "/reset-password");
    expect(await withService((tx) => resetLinkOpen(tx, token))).toBe(true);
    const [stored] = await db.sql`select token_hash from account_tokens where user_id = ${a.id}`;
    expect(stored.token_hash).not.toBe(token);
    expect(
      await withService((tx) => resetPassword(tx, { token, password: "brand new password" })),
    ).toMatchObject({
      data: { userId: a.id },
    });
    expect(await signIn(a.email, password)).toEqual({
      error: new AppError("unauthenticated", INVALID_CREDENTIALS),
    });
    expect(await signIn(a.email, "brand new password")).toMatchObject({ data: { userId: a.id } });
    expect(await valid(a.token)).toBeNull();
    // single use
    expect(await withService((tx) => resetPassword(tx, { token, password: "attacker password" }))).toEqual({
      error: new AppError("not_found", RESET_LINK_INVALID),
    });
    expect(await signIn(a.email, "brand new password")).toMatchObject({ data: { userId: a.id } });
  });

  test("an expired link changes nothing", async () => {
    const a = await account();
    await withService((tx) => requestPasswordReset(tx, { email: a.email }));
    const token = await emailedToken(db.sql, a.email, "/reset-password");
    await db.sql`update account_tokens set expires_at = now() - interval '1 second' where user_id = ${a.id}`;
    expect(await withService((tx) => resetPassword(tx, { token, password: "brand new password" }))).toEqual({
      error: new AppError("not_found", RESET_LINK_INVALID),
    });
    expect(await signIn(a.email, password)).toMatchObject({ data: { userId: a.id } });
  });

  test("reset answers do not reveal whether an account exists", async () => {
    const a = await account();
    const unknown = `${unique("nobody")}@example.test`;
    const known = await withService((tx) => requestPasswordReset(tx, { email: a.email }));
    const none = await withService((tx) => requestPasswordReset(tx, { email: unknown }));
    expect(known).toEqual({ data: { email: a.email } });
    expect(none).toEqual({ data: { email: unknown } });
    expect(await emailsTo(db.sql, unknown)).toEqual([]);
    expect(await db.sql`select 1 from account_tokens where email = ${unknown}`).toEqual([]);
    // the reset email belongs to no workspace: no workspace admin can read a member's link
    expect(await emailsTo(db.sql, a.email)).toEqual([
      { subject: "Choose a new password", workspace_id: null },
    ]);
  });
});
