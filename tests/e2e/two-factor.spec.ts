import { expect, test, type Page } from "@playwright/test";
import { SignJWT } from "jose";
import { Secret, TOTP } from "otpauth";
import { PASSWORD, newAccount } from "./helpers/accounts";
import { withAppDb } from "./helpers/app-db";

// A second factor (docs/decisions.md "A second factor"): enrol
// with the QR code's key, sign in with a code computed here by the same library the app uses,
// and meet a step-up before creating an API key.

const port = Number(process.env.E2E_PORT ?? 3100);
const totp = (secret: string) =>
  new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });

/** The current step and its code, read at one instant (a step may end between two reads). */
function codeNow(secret: string): { code: string; step: number } {
  const step = TOTP.counter();
  return { code: totp(secret).generate({ timestamp: step * 30_000 }), step };
}

/** A code of a time step later than `after` (each code is accepted once): waits for the next step. */
async function freshCode(secret: string, after: number): Promise<{ code: string; step: number }> {
  await expect.poll(() => TOTP.counter(), { timeout: 40_000, intervals: [500] }).toBeGreaterThan(after);
  return codeNow(secret);
}

/**
 * Makes this browser's session one that last proved its owner 20 minutes ago (aal2), as a
 * member who signed in then and left the tab open would have: signed with the e2e server's key
 * (AUTH_SECRET, which playwright.config.ts sets: helpers/session-key.ts).
 */
async function ageSession(page: Page, email: string) {
  const [user] = await withAppDb(
    (sql) => sql`select id, session_version from auth.users where email = ${email.toLowerCase()}`,
  );
  const then = Math.floor(Date.now() / 1000) - 20 * 60;
  const token = await new SignJWT({
    role: "authenticated",
    email: email.toLowerCase(),
    sv: user.session_version,
    aal: "aal2",
    amr: [
      { method: "password", timestamp: then },
      { method: "totp", timestamp: then },
    ],
  })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(user.id)
    .setIssuedAt(then)
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode(process.env.AUTH_SECRET!));
  await page
    .context()
    .addCookies([
      { name: "crm_session", value: token, url: `http://localhost:${port}`, httpOnly: true, sameSite: "Lax" },
    ]);
}

test("enrol with the QR code's key, sign in with a code, step up before creating an API key", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const email = await newAccount(page, { workspaceName: "Two-Factor Bakery" });

  // enrolment: QR code drawn on the server (a data: URL), the key to type, the first code
  await page.goto("/account/security");
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  const qr = page.getByRole("img", { name: /QR code for your authenticator app/ });
  await expect(qr).toHaveAttribute("src", /^data:image\/svg\+xml;base64,/);
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
  // (a wrong code here is left to the integration tests: every attempt counts, 5 per 15 minutes)
  const enrolment = codeNow(secret);
  await page.getByLabel("Code from the app").fill(enrolment.code);
  await page.getByRole("button", { name: "Turn on two-factor" }).click();
  await expect(page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);
  await expect(page.getByRole("link", { name: "Download the codes" })).toHaveAttribute(
    "download",
    "recovery-codes.txt",
  );
  const [row] = await withAppDb(
    (sql) => sql`
      select f.enabled_at is not null as enabled, f.secret_sealed from user_two_factor f
      join auth.users u on u.id = f.user_id where u.email = ${email.toLowerCase()}`,
  );
  expect(row.enabled).toBe(true);
  expect(row.secret_sealed).not.toContain(secret);

  // sign out; the password alone now leads to the second step
  await page.getByRole("link", { name: "Continue to the dashboard" }).click();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/sign-in\/two-factor$/);
  await page.goto("/contacts"); // no session yet
  await expect(page).toHaveURL(/\/sign-in/);
  await page.goto("/sign-in/two-factor");
  const signInCode = await freshCode(secret, enrolment.step);
  await page.getByLabel("Authentication code").fill(signInCode.code);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/:\d+\/$/);
  await expect(page.getByTestId("workspace-name")).toHaveText("Two-Factor Bakery");

  // step-up: a session last proved 20 minutes ago may not create an API key until a code is given
  await ageSession(page, email);
  await page.goto("/settings/api-keys");
  await page.getByLabel("Key name").fill("Website");
  await page.getByRole("button", { name: "Create key" }).click();
  const prompt = page.getByRole("group", { name: "Confirm it is you" });
  await expect(prompt).toBeVisible();
  await expect(page.getByTestId("new-api-key")).toHaveCount(0);
  await prompt.getByLabel("Your password, or a code from your authenticator app").fill(PASSWORD);
  await prompt.getByRole("button", { name: "Confirm and continue" }).click();
  await expect(prompt.getByRole("alert")).toHaveText(/^That is not right/); // two-factor on: a code
  const stepUpCode = await freshCode(secret, signInCode.step);
  await prompt.getByLabel("Your password, or a code from your authenticator app").fill(stepUpCode.code);
  await prompt.getByRole("button", { name: "Confirm and continue" }).click();
  await expect(page.getByTestId("new-api-key")).toHaveValue(/^evk_/);
  const audit = await withAppDb(
    (sql) => sql`
      select a.action from audit_log a join auth.users u on u.id = a.actor_id
      where u.email = ${email.toLowerCase()} order by a.id`,
  );
  expect(audit.map((r) => r.action)).toEqual(
    expect.arrayContaining(["account.two_factor_enabled", "account.step_up_failed", "api_key.created"]),
  );
});
