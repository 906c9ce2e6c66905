import { expect, test } from "@playwright/test";

const password = "correct horse battery";

test("sign up, land in the new workspace, sign out, sign in again", async ({ page }) => {
  const email = `owner-${Date.now()}@example.test`;
  await page.goto("/sign-up");
  await page.getByLabel("First name").fill("Olive");
  await page.getByLabel("Last name").fill("Owner");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByLabel("Workspace name").fill("Olive's Bakery");
  await page.getByRole("button", { name: "Create account" }).click();
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

  await page.getByLabel("Password").fill(password);
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

test("a duplicate sign-up shows a clear message", async ({ page }) => {
  const email = `dup-${Date.now()}@example.test`;
  const signUp = async () => {
    await page.goto("/sign-up");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByLabel("Workspace name").fill("Twice");
    await page.getByRole("button", { name: "Create account" }).click();
  };
  await signUp();
  await expect(page).toHaveURL(/:\d+\/$/);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await signUp();
  await expect(page.getByText("An account with this email already exists. Sign in instead.")).toBeVisible();
  await expect(page).toHaveURL(/\/sign-up$/);
});
