import { describe, expect, test } from "vitest";
import { AppError } from "@/lib/errors/app-error";
import { withService } from "@/lib/db/doors";
import {
  acceptInvitationFlow,
  requestResetFlow,
  signInFlow,
  signUpFlow,
} from "@/lib/auth/flows/account-flows";
import { createLocalUser, INVALID_CREDENTIALS } from "@/lib/auth/local-provider";
import { TOO_MANY_ATTEMPTS } from "@/lib/auth/rate-limits";
import { setupTestDatabase } from "../helpers/db";
import { emailsTo } from "../helpers/account-links";
import { createUser, unique } from "../helpers/factories";

const db = setupTestDatabase();
const password = "correct horse battery";

let n = 0;
/** A documentation address (RFC 5737) no other test uses. */
const newIp = () => `198.51.100.${++n}`;
const newAccount = async () => {
  const email = `${unique("rl")}@example.test`;
  await withService((tx) => createLocalUser(tx, email, password));
  return email;
};

describe("brute force on sign-in is limited per IP and per account", () => {
  test("the 21st sign-in attempt in a minute is refused, even with the right password", async () => {
    const email = await newAccount();
    const ip = newIp();
    for (let i = 1; i <= 20; i++)
      expect(await signInFlow({ email, password: "guess" }, ip), `attempt ${i}`).toEqual({
        error: new AppError("unauthenticated", INVALID_CREDENTIALS),
      });
    expect(await signInFlow({ email, password }, ip)).toEqual({
      error: new AppError("rate_limited", TOO_MANY_ATTEMPTS),
    });
    const [{ hits }] =
      await db.sql`select count(*)::int as hits from rate_limit_hits where key = ${`auth:signIn:ip:${ip}`}`;
    expect(hits).toBe(20);
  });

  test("per IP: the 21st attempt from one address is refused whichever accounts it tries", async () => {
    const ip = newIp();
    for (let i = 1; i <= 20; i++)
      expect(await signInFlow({ email: `${unique("nobody")}@example.test`, password }, ip)).toEqual({
        error: new AppError("unauthenticated", INVALID_CREDENTIALS),
      });
    const email = await newAccount();
    expect(await signInFlow({ email, password }, ip)).toEqual({
      error: new AppError("rate_limited", TOO_MANY_ATTEMPTS),
    });
    // the account itself is not locked for other addresses
    expect(await signInFlow({ email, password }, newIp())).toMatchObject({ data: { email } });
  });

  test("per account: the 21st attempt on one account is refused from whichever address", async () => {
    const email = await newAccount();
    for (let i = 1; i <= 20; i++)
      expect(await signInFlow({ email, password: "guess" }, newIp())).toEqual({
        error: new AppError("unauthenticated", INVALID_CREDENTIALS),
      });
    expect(await signInFlow({ email, password }, newIp())).toEqual({
      error: new AppError("rate_limited", TOO_MANY_ATTEMPTS),
    });
  });
});

describe("brute force: sign-up, reset and invitation acceptance are limited too", () => {
  test("sign-up: the 6th request for one address in an hour is refused and sends nothing", async () => {
    const email = `${unique("flood")}@example.test`;
    const input = { email, password, firstName: "", lastName: "", workspaceName: "W" };
    for (let i = 1; i <= 5; i++) expect(await signUpFlow(input, newIp())).toEqual({ data: { email } });
    expect(await signUpFlow(input, newIp())).toEqual({
      error: new AppError("rate_limited", TOO_MANY_ATTEMPTS),
    });
    expect(await emailsTo(db.sql, email)).toHaveLength(5);
  });

  test("reset: the 6th request for one address in an hour is refused and sends nothing", async () => {
    const email = await newAccount();
    for (let i = 1; i <= 5; i++)
      expect(await requestResetFlow({ email }, newIp())).toEqual({ data: { email } });
    expect(await requestResetFlow({ email }, newIp())).toEqual({
      error: new AppError("rate_limited", TOO_MANY_ATTEMPTS),
    });
    expect(await emailsTo(db.sql, email)).toHaveLength(5);
  });

  test("invitation acceptance: the 21st attempt in a minute is refused", async () => {
    const user = await createUser(db.sql);
    const ip = newIp();
    const bogus = "A".repeat(43);
    for (let i = 1; i <= 20; i++)
      expect(await acceptInvitationFlow({ token: bogus, userId: user.id }, ip)).not.toEqual({
        error: new AppError("rate_limited", TOO_MANY_ATTEMPTS),
      });
    expect(await acceptInvitationFlow({ token: bogus, userId: user.id }, ip)).toEqual({
      error: new AppError("rate_limited", TOO_MANY_ATTEMPTS),
    });
  });
});
