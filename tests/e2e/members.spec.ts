import { expect, test, type Browser, type Page } from "@playwright/test";

const password = "correct horse battery";
const stamp = () => `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;

async function signUp(page: Page, email: string, workspaceName: string) {
  await page.goto("/sign-up");
  await page.getByLabel("First name").fill("Olive");
  await page.getByLabel("Last name").fill("Owner");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByLabel("Workspace name").fill(workspaceName);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/:\d+\/$/);
  await expect(page.getByTestId("workspace-name")).toHaveText(workspaceName);
}

async function signIn(page: Page, email: string, secret: string) {
  await page.goto("/sign-in");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password").fill(secret);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/:\d+\/$/);
}

/** Adds a new email as a member and returns the temporary password shown once. */
async function addNewMember(page: Page, email: string): Promise<string> {
  await page.goto("/settings/members");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption("member");
  await page.getByRole("button", { name: "Add member" }).click();
  await expect(page.getByText(`${email} was added as member.`)).toBeVisible();
  const temporary = (await page.getByTestId("temporary-password").textContent())!.trim();
  expect(temporary).toMatch(/^[A-Za-z0-9_-]{16}$/);
  return temporary;
}

async function asNewBrowser(browser: Browser, email: string, secret: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email, secret);
  return { page, close: () => context.close() };
}

test("owner adds a member by email; the member signs in with the temporary password and cannot manage members", async ({
  page,
  browser,
}) => {
  const ownerEmail = `owner-${stamp()}@example.test`;
  const memberEmail = `member-${stamp()}@example.test`;
  await signUp(page, ownerEmail, "Olive's Bakery");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await signIn(page, ownerEmail, password);

  await page.getByRole("link", { name: "Settings" }).click();
  await page.getByRole("link", { name: "Manage members" }).click();
  await expect(page).toHaveURL(/\/settings\/members$/);
  const temporary = await addNewMember(page, memberEmail);
  await expect(page.getByTestId(`member-${memberEmail}`)).toContainText(memberEmail);

  await page.getByLabel("Email", { exact: true }).fill(memberEmail.toUpperCase());
  await page.getByRole("button", { name: "Add member" }).click();
  await expect(page.getByText(`${memberEmail} is already a member of this workspace.`)).toBeVisible();

  await page.reload();
  await expect(page.getByTestId("temporary-password")).toHaveCount(0);

  const member = await asNewBrowser(browser, memberEmail, temporary);
  await expect(member.page.getByTestId("workspace-name")).toHaveText("Olive's Bakery");
  await expect(member.page.getByTestId("workspace-role")).toHaveText("member");
  await member.page.goto("/settings/members");
  await expect(member.page.getByTestId("members-read-only")).toBeVisible();
  await expect(member.page.getByRole("button", { name: "Add member" })).toHaveCount(0);
  await expect(member.page.getByRole("button", { name: /^Remove/ })).toHaveCount(0);
  await expect(member.page.getByRole("button", { name: /^Change role/ })).toHaveCount(0);
  await expect(member.page.getByTestId(`member-${ownerEmail}`)).toContainText("owner");
  await member.close();
});

test("remove and leave ask for confirmation; the last owner cannot leave; a member who leaves can create a workspace", async ({
  page,
  browser,
}) => {
  const ownerEmail = `owner-${stamp()}@example.test`;
  const memberEmail = `member-${stamp()}@example.test`;
  await signUp(page, ownerEmail, "Harbour Cafe");
  const temporary = await addNewMember(page, memberEmail);

  // Remove: the dialog opens, Escape cancels, nothing is removed.
  await page.getByRole("button", { name: `Remove ${memberEmail}` }).click();
  const removeDialog = page.getByRole("dialog", { name: `Remove ${memberEmail}?` });
  await expect(removeDialog).toBeVisible();
  await expect(removeDialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(removeDialog).toBeHidden();
  await expect(page.getByTestId(`member-${memberEmail}`)).toBeVisible();

  // The last owner's leave is refused with a clear message.
  await page.getByRole("button", { name: "Leave workspace" }).click();
  const leaveDialog = page.getByRole("dialog", { name: "Leave Harbour Cafe?" });
  await leaveDialog.getByRole("button", { name: "Leave workspace" }).click();
  await expect(
    leaveDialog.getByText("You are the last owner of this workspace.", { exact: false }),
  ).toBeVisible();
  await leaveDialog.getByRole("button", { name: "Cancel" }).click();

  // The member leaves their only workspace and lands on the "no workspace" page.
  const member = await asNewBrowser(browser, memberEmail, temporary);
  await member.page.goto("/settings/members");
  await member.page.getByRole("button", { name: "Leave workspace" }).click();
  await member.page
    .getByRole("dialog", { name: "Leave Harbour Cafe?" })
    .getByRole("button", { name: "Leave workspace" })
    .click();
  await expect(member.page).toHaveURL(/\/no-workspace$/);
  await expect(member.page.getByRole("heading", { name: "You are not in a workspace" })).toBeVisible();
  await member.page.getByLabel("New workspace name").fill("Member's Own Shop");
  await member.page.getByRole("button", { name: "Create workspace" }).click();
  await expect(member.page).toHaveURL(/\/contacts$/);
  await expect(member.page.getByTestId("workspace-name")).toHaveText("Member's Own Shop");
  await expect(member.page.getByTestId("workspace-role")).toHaveText("owner");
  await member.close();

  // The owner sees them gone; removing with confirmation works the same way.
  await page.reload();
  await expect(page.getByTestId(`member-${memberEmail}`)).toHaveCount(0);
});

test("an owner removes a member after confirming", async ({ page }) => {
  const memberEmail = `member-${stamp()}@example.test`;
  await signUp(page, `owner-${stamp()}@example.test`, "Corner Shop");
  await addNewMember(page, memberEmail);
  await page.getByRole("button", { name: `Remove ${memberEmail}` }).click();
  await page
    .getByRole("dialog", { name: `Remove ${memberEmail}?` })
    .getByRole("button", { name: "Remove member" })
    .click();
  await expect(page.getByTestId(`member-${memberEmail}`)).toHaveCount(0);
});

test("a user creates another workspace from the switcher and switches between them", async ({ page }) => {
  await signUp(page, `owner-${stamp()}@example.test`, "First Studio");
  await page.getByText("New workspace", { exact: true }).click();
  await page.getByLabel("New workspace name").fill("Second Studio");
  await page.getByRole("button", { name: "Create workspace" }).click();
  await expect(page.getByTestId("workspace-name")).toHaveText("Second Studio");
  await expect(page.getByTestId("workspace-role")).toHaveText("owner");

  await page.getByTestId("workspace-select").selectOption({ label: "First Studio (owner)" });
  await page.getByRole("button", { name: "Switch" }).click();
  await expect(page.getByTestId("workspace-name")).toHaveText("First Studio");
  await page.reload();
  await expect(page.getByTestId("workspace-name")).toHaveText("First Studio");
});

test("settings: rename the workspace and pick a time zone; dates then show in that zone", async ({
  page,
}) => {
  const email = `owner-${stamp()}@example.test`;
  await signUp(page, email, "Old Name");
  await page.goto("/settings");
  await page.getByLabel("Workspace name", { exact: true }).fill("New Name");
  await page.getByRole("button", { name: "Save workspace name" }).click();
  await expect(page.getByText("Workspace name saved.")).toBeVisible();
  await expect(page.getByTestId("workspace-name")).toHaveText("New Name");

  await page.getByLabel("Time zone").selectOption("Pacific/Kiritimati");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Profile saved.")).toBeVisible();
  await page.goto("/settings/members");
  await expect(page.getByTestId(`member-${email}`).locator("time")).toHaveAttribute("title", /GMT\+14$/);
});
