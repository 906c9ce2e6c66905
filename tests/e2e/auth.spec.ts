import { expect, test } from "@playwright/test";
import { emailedLink, newAccount, PASSWORD, signIn, uniqueEmail } from "./helpers/accounts";

test("sign up, confirm through the emailed link, land in the new workspace, sign out, sign in again", async ({
  page,
}) => {
  const email = uniqueEmail();
  await page.goto("/sign-up");
  await page.getByLabel("First name").fill("Olive");
  await page.getByLabel("Last name").fill("Owner");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByLabel("Workspace name").fill("Olive's Bakery");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText(`we sent a link to ${email}`)).toBeVisible();

  // account pre-claim: no account before the link is opened
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("The email or password is incorrect.")).toBeVisible();

  await page.goto(await emailedLink(email, "/confirm-email"));
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Confirm and sign in" }).click();
  await expect(page.getByText("That is not the password chosen when this link was requested.")).toBeVisible();
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Confirm and sign in" }).click();
  await expect(page).toHaveURL(/:\d+\/$/);
  await expect(page.getByTestId("workspace-name")).toHaveText("Olive's Bakery");

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto("/contacts");
  await expect(page).toHaveURL(/\/sign-in$/);

  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("wrong password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("The email or password is incorrect.")).toBeVisible();

  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/:\d+\/$/);
  await expect(page.getByTestId("workspace-name")).toHaveText("Olive's Bakery");
});

test("bad sign-up input gets a clear message", async ({ page }) => {
  await page.goto("/sign-up");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Enter a valid email address.")).toBeVisible();
  await expect(page.getByText("Use at least 8 characters for your password.")).toBeVisible();
  await expect(page.getByText("Name your workspace.")).toBeVisible();
});

test("account enumeration: a sign-up with a taken address answers exactly as a new one", async ({ page }) => {
  const taken = await newAccount(page, { workspaceName: "Twice" });
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  const answer = async (email: string) => {
    await page.goto("/sign-up");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByLabel("Workspace name").fill("Twice");
    await page.getByRole("button", { name: "Create account" }).click();
    const message = page.getByRole("status").filter({ hasText: "Check your inbox" });
    await expect(message).toBeVisible();
    return (await message.textContent())!.replace(email, "<email>");
  };
  expect(await answer(taken)).toBe(await answer(uniqueEmail("fresh")));
});

test("forgot password: the emailed link sets a new password and signs out the other sessions", async ({
  page,
  browser,
}) => {
  const email = await newAccount(page, { workspaceName: "Reset Bakery" });
  const other = await browser.newContext();
  const visitor = await other.newPage();
  await visitor.goto("/forgot-password");
  await visitor.getByLabel("Email").fill(email);
  await visitor.getByRole("button", { name: "Send me a link" }).click();
  await expect(visitor.getByText(`If ${email} has an account, we sent it a link`)).toBeVisible();
  await visitor.goto(await emailedLink(email, "/reset-password"));
  await visitor.getByLabel("New password").fill("a brand new password");
  await visitor.getByRole("button", { name: "Set new password" }).click();
  await expect(visitor).toHaveURL(/\/sign-in\?reset=1$/);
  await signIn(visitor, email, "a brand new password");
  await other.close();

  // the first browser's session was issued before the reset: it no longer works
  await page.goto("/contacts");
  await expect(page).toHaveURL(/\/sign-in$/);
});

test("change the password (current one required), then sign out everywhere", async ({ page, browser }) => {
  const email = await newAccount(page, { workspaceName: "Account Bakery" });
  const other = await browser.newContext();
  const second = await other.newPage();
  await signIn(second, email);

  await page.goto("/settings/account");
  await page.getByLabel("Current password").fill("not it");
  await page.getByLabel("New password").fill("another good password");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Your current password is not correct.")).toBeVisible();
  await page.getByLabel("Current password").fill(PASSWORD);
  await page.getByLabel("New password").fill("another good password");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Your password was changed.")).toBeVisible();
  // this session carries on; the other one was signed out
  await page.goto("/contacts");
  await expect(page).toHaveURL(/\/contacts$/);
  await second.goto("/contacts");
  await expect(second).toHaveURL(/\/sign-in$/);
  await signIn(second, email, "another good password");

  await page.goto("/settings/account");
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await second.goto("/contacts");
  await expect(second).toHaveURL(/\/sign-in$/);
  await other.close();
});
