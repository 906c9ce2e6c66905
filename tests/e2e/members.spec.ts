import { expect, test, type Browser, type Page } from "@playwright/test";
import { emailedLink, PASSWORD, signIn, newAccount, uniqueEmail } from "./helpers/accounts";

/** Invites an address from the members page; the invitation is listed as open. */
async function invite(page: Page, email: string, role = "member") {
  await page.goto("/settings/members");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption(role);
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText(`An invitation to join as ${role} was sent to ${email}.`)).toBeVisible();
  await expect(page.getByTestId(`invitation-${email}`)).toBeVisible();
}

/** The invited person signs up (their own workspace first), opens the invitation and accepts. */
async function acceptAsNewUser(browser: Browser, email: string, workspaceName: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  // no name: the members page then labels them by their address
  await newAccount(page, { email, workspaceName: "Member's Own Shop", firstName: "", lastName: "" });
  await page.goto(await emailedLink(email, "/invitations/accept"));
  await page.getByRole("button", { name: `Join ${workspaceName}` }).click();
  await expect(page).toHaveURL(/\/contacts$/);
  await expect(page.getByTestId("workspace-name")).toHaveText(workspaceName);
  return { page, close: () => context.close() };
}

test("consent-less membership: an invited person is not a member until they accept, signed in with the invited address", async ({
  page,
  browser,
}) => {
  const ownerEmail = uniqueEmail("owner");
  const memberEmail = uniqueEmail("member");
  await newAccount(page, { email: ownerEmail, workspaceName: "Olive's Bakery" });
  await page.getByRole("link", { name: "Settings" }).click();
  await page.getByRole("link", { name: "Manage members" }).click();
  await expect(page).toHaveURL(/\/settings\/members$/);
  await invite(page, memberEmail);
  await expect(page.getByTestId(`member-${memberEmail}`)).toHaveCount(0);
  await expect(page.getByTestId("temporary-password")).toHaveCount(0);

  // someone else, signed in, cannot use the link
  const strangerContext = await browser.newContext();
  const stranger = await strangerContext.newPage();
  await newAccount(stranger, { workspaceName: "Stranger Shop" });
  await stranger.goto(await emailedLink(memberEmail, "/invitations/accept"));
  await expect(stranger.getByText(`This invitation is for ${memberEmail}`)).toBeVisible();
  await expect(stranger.getByRole("button", { name: /^Join/ })).toHaveCount(0);
  await strangerContext.close();

  const member = await acceptAsNewUser(browser, memberEmail, "Olive's Bakery");
  await expect(member.page.getByTestId("workspace-role")).toHaveText("member");
  await member.page.goto("/settings/members");
  await expect(member.page.getByTestId("members-read-only")).toBeVisible();
  await expect(member.page.getByRole("button", { name: "Send invitation" })).toHaveCount(0);
  await expect(member.page.getByRole("button", { name: /^Remove/ })).toHaveCount(0);
  await expect(member.page.getByRole("button", { name: /^Change role/ })).toHaveCount(0);
  await expect(member.page.getByTestId(`member-${ownerEmail}`)).toContainText("owner");
  // the chosen workspace persists across sign-out
  await member.page.getByRole("button", { name: "Sign out" }).click();
  await signIn(member.page, memberEmail);
  await expect(member.page.getByTestId("workspace-name")).toHaveText("Olive's Bakery");
  await member.close();

  await page.reload();
  await expect(page.getByTestId(`member-${memberEmail}`)).toContainText(memberEmail);
  await expect(page.getByTestId(`invitation-${memberEmail}`)).toHaveCount(0);
  await page.getByLabel("Email", { exact: true }).fill(memberEmail.toUpperCase());
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText(`${memberEmail} is already a member of this workspace.`)).toBeVisible();
});

test("invitations: a signed-out person opens the invitation, signs in and comes back to accept it", async ({
  page,
  browser,
}) => {
  const memberEmail = uniqueEmail("member");
  const context = await browser.newContext();
  const member = await context.newPage();
  await newAccount(member, {
    email: memberEmail,
    workspaceName: "Member's Own Shop",
    firstName: "",
    lastName: "",
  });
  await member.getByRole("button", { name: "Sign out" }).click();
  await expect(member).toHaveURL(/\/sign-in$/);

  await newAccount(page, { workspaceName: "Sign-in Bakery" });
  await invite(page, memberEmail, "admin");
  await member.goto(await emailedLink(memberEmail, "/invitations/accept"));
  await expect(member.getByText("You are invited to join Sign-in Bakery as admin.")).toBeVisible();
  await member.getByRole("link", { name: "Sign in to accept" }).click();
  await member.getByLabel("Email", { exact: true }).fill(memberEmail);
  await member.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await member.getByRole("button", { name: "Sign in" }).click();
  await expect(member).toHaveURL(/\/invitations\/accept\?token=/);
  await member.getByRole("button", { name: "Join Sign-in Bakery" }).click();
  await expect(member.getByTestId("workspace-name")).toHaveText("Sign-in Bakery");
  await expect(member.getByTestId("workspace-role")).toHaveText("admin");
  await context.close();
});

test("invitations: a revoked invitation's link no longer works", async ({ page, browser }) => {
  const memberEmail = uniqueEmail("member");
  await newAccount(page, { workspaceName: "Revoking Shop" });
  await invite(page, memberEmail);
  const link = await emailedLink(memberEmail, "/invitations/accept");
  await page.getByRole("button", { name: `Revoke the invitation to ${memberEmail}` }).click();
  await page
    .getByRole("dialog", { name: `Revoke the invitation to ${memberEmail}?` })
    .getByRole("button", { name: "Revoke invitation" })
    .click();
  await expect(page.getByTestId(`invitation-${memberEmail}`)).toHaveCount(0);
  const context = await browser.newContext();
  const visitor = await context.newPage();
  await visitor.goto(link);
  await expect(visitor.getByText("This invitation is not valid any more")).toBeVisible();
  await context.close();
});

test("remove and leave ask for confirmation; the last owner cannot leave; a member who leaves is back in their own workspace", async ({
  page,
  browser,
}) => {
  const memberEmail = uniqueEmail("member");
  await newAccount(page, { workspaceName: "Harbour Cafe" });
  await invite(page, memberEmail);
  const member = await acceptAsNewUser(browser, memberEmail, "Harbour Cafe");
  await page.reload();

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

  // The member leaves and is back in their own workspace (their first, from sign-up).
  await member.page.goto("/settings/members");
  await member.page.getByRole("button", { name: "Leave workspace" }).click();
  await member.page
    .getByRole("dialog", { name: "Leave Harbour Cafe?" })
    .getByRole("button", { name: "Leave workspace" })
    .click();
  await expect(member.page).toHaveURL(/\/contacts$/);
  await expect(member.page.getByTestId("workspace-name")).toHaveText("Member's Own Shop");
  await expect(member.page.getByTestId("workspace-role")).toHaveText("owner");
  await member.close();

  // The owner sees them gone; removing with confirmation works the same way.
  await page.reload();
  await expect(page.getByTestId(`member-${memberEmail}`)).toHaveCount(0);
});

test("an owner removes a member after confirming", async ({ page, browser }) => {
  const memberEmail = uniqueEmail("member");
  await newAccount(page, { workspaceName: "Corner Shop" });
  await invite(page, memberEmail);
  await (await acceptAsNewUser(browser, memberEmail, "Corner Shop")).close();
  await page.reload();
  await page.getByRole("button", { name: `Remove ${memberEmail}` }).click();
  await page
    .getByRole("dialog", { name: `Remove ${memberEmail}?` })
    .getByRole("button", { name: "Remove member" })
    .click();
  await expect(page.getByTestId(`member-${memberEmail}`)).toHaveCount(0);
});

test("a user creates another workspace from the switcher and switches between them", async ({ page }) => {
  await newAccount(page, { workspaceName: "First Studio" });
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
  const email = await newAccount(page, { workspaceName: "Old Name" });
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
