import { expect, test, type Page } from "@playwright/test";
import { newAccount } from "./helpers/accounts";
import { withAppDb } from "./helpers/app-db";

/**
 * Campaigns end to end (DESIGN section 9, "Campaigns"; docs/decisions.md, "Campaigns
 * dashboard"): a welcome series built in the dashboard, a form whose automation enrolls its
 * submitters, and the runner (the worker's 'campaign-sweep', every minute or when kicked) sending
 * through the dev outbox. What a provider would report (a click) and the clock moving on (a
 * wait's end) are written to the app's database, as the other specs fake provider events.
 */

const SWEEP = { timeout: 150_000, intervals: [1_000, 2_000, 5_000] };

/** A tag of the owner's workspace (the goal), made before the builder lists it. */
async function tagFor(ownerEmail: string, name: string) {
  await withAppDb(async (sql) => {
    const [ws] = await sql`
      select m.workspace_id from workspace_members m join auth.users u on u.id = m.user_id
      where u.email = ${ownerEmail} and m.role = 'owner' limit 1`;
    await sql`insert into tags (workspace_id, name) values (${ws.workspace_id}, ${name})`;
  });
}

/** The campaign emails a contact was sent, by step, oldest first. */
const campaignSends = (email: string) =>
  withAppDb(
    async (sql) =>
      await sql<{ id: string; step: string; subject: string }[]>`
        select s.id, s.campaign_step as step, s.subject from email_sends s
        where s.to_email = ${email} and s.campaign_enrollment_id is not null
        order by s.created_at, s.campaign_step`,
  );

const enrollmentOf = (email: string) =>
  withAppDb(
    async (sql) =>
      (
        await sql<{ status: string; current_step: string | null }[]>`
          select e.status, e.current_step from campaign_enrollments e join contacts c on c.id = e.contact_id
          where c.email = ${email}`
      )[0],
  );

/** The clock moves past the contact's wait: it is due now (the runner's next sweep takes it). */
const endWait = (email: string) =>
  withAppDb(
    (sql) => sql`
      update campaign_enrollments e set due_at = now() from contacts c
      where c.id = e.contact_id and c.email = ${email} and e.status = 'active'`,
  );

/** A person clicked the link of the email (as the provider's webhook would record it). */
const fakeClick = (sendId: string) =>
  withAppDb(
    (sql) => sql`
      insert into email_events (workspace_id, email_send_id, type, occurred_at, link_url, is_machine, svix_id)
      select workspace_id, id, 'clicked', now(), 'https://example.com/start', false, ${`e2e-click-${sendId}`}
      from email_sends where id = ${sendId}`,
  );

/** Pause then resume: resuming asks the runner to sweep at once rather than at its next minute. */
async function kickRunner(page: Page, campaignUrl: string) {
  await page.goto(campaignUrl);
  await page.getByRole("button", { name: "Pause", exact: true }).click();
  await expect(page.getByTestId("campaign-status")).toContainText("paused");
  await page.getByRole("button", { name: "Resume", exact: true }).click();
  await expect(page.getByTestId("campaign-status")).toContainText("active");
}

async function addStep(page: Page, type: string) {
  await page.getByLabel("New step").selectOption({ label: type });
  await page.getByRole("button", { name: "Add step" }).click();
}

test("a welcome series built in the dashboard sends its first email after a form submission, waits, branches on a click and stops when the goal is reached", async ({
  page,
}) => {
  test.setTimeout(600_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const owner = await newAccount(page);
  await tagFor(owner, "customer");

  // the list is empty: its call to action opens the builder
  await page.goto("/campaigns");
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Campaigns" }),
  ).toBeVisible();
  await page.getByRole("link", { name: "New campaign" }).click();
  await expect(page.getByRole("heading", { name: "New campaign" })).toBeVisible();
  await page.getByLabel("Campaign name").fill("Welcome series");

  // 1 welcome, 2 wait, 3 branch on a click of 1, 4 tips, 5 wait, 6 last call (end), 7 nudge (the no path)
  for (const type of [
    "Send an email",
    "Wait",
    "Branch",
    "Send an email",
    "Wait",
    "Send an email",
    "Send an email",
  ])
    await addStep(page, type);
  const step = (n: number) => page.getByTestId(`campaign-step-${n}`);
  await expect(step(7)).toBeVisible();
  // the new step has the focus (keyboard users carry on where they are)
  await expect(step(7).getByRole("heading", { name: "Step 7: Send an email" })).toBeFocused();

  // publishing checks every step first: the refusals stand beside their steps, nothing is stored
  await step(2).getByLabel("Days").fill("0");
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(step(1)).toContainText("A send step needs a subject.");
  await expect(step(2)).toContainText("a wait must be longer than zero.");
  await expect(page).toHaveURL(/\/campaigns\/new$/);

  await step(1).getByLabel("Subject", { exact: true }).fill('Welcome, {{first_name | "friend"}}');
  await step(1)
    .getByLabel(/^Message \(Markdown/)
    .fill("Hello!\n\n[Start here](https://example.com/start)");
  await step(2).getByLabel("Days").fill("2");
  await expect(step(3).getByLabel("Condition")).toHaveValue("clicked");
  await expect(step(3).getByLabel("Email step")).toHaveValue("email-1");
  await step(3).getByLabel("If no, go to").selectOption({ label: 'Step "email-4"' });
  await step(4).getByLabel("Subject", { exact: true }).fill("Tips");
  await step(4)
    .getByLabel(/^Message \(Markdown/)
    .fill("Glad you came by.");
  await step(5).getByLabel("Days").fill("2");
  await step(6).getByLabel("Subject", { exact: true }).fill("Last call");
  await step(6)
    .getByLabel(/^Message \(Markdown/)
    .fill("Still there?");
  await step(6).getByLabel("Then go to").selectOption({ label: "The end (completed)" });
  await step(7).getByLabel("Subject", { exact: true }).fill("Did you see this?");
  await step(7)
    .getByLabel(/^Message \(Markdown/)
    .fill("Have a look.");
  await page.getByRole("checkbox", { name: "customer" }).check();

  // the yes and no paths stack on a phone and the page does not scroll sideways
  await page.setViewportSize({ width: 390, height: 844 });
  const yes = await step(3).getByRole("group", { name: "Yes path" }).boundingBox();
  const no = await step(3).getByRole("group", { name: "No path" }).boundingBox();
  expect(no!.y).toBeGreaterThan(yes!.y + yes!.height - 1);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page).toHaveURL(/\/campaigns\/[0-9a-f-]{36}\?published=1$/);
  await expect(page.getByText("Campaign published.")).toBeVisible();
  const campaignUrl = page.url().replace(/\?published=1$/, "");
  await expect(page.getByTestId("campaign-status")).toContainText("active");
  await expect(page.getByTestId("campaign-status")).toContainText("Published version: 1.");

  // a form whose automation enrolls the contact in the campaign
  await page.goto("/forms");
  await page.getByRole("link", { name: "New form" }).click();
  await page.getByLabel("Name", { exact: true }).fill("Website signup");
  await page.getByLabel("Allowed domains").fill("127.0.0.1");
  await page.getByLabel("Require email verification").uncheck();
  await page.getByRole("button", { name: "Create form" }).click();
  await expect(page.getByRole("heading", { name: "Website signup" })).toBeVisible();
  const formId = page.url().split("/").pop()!;
  await page.getByLabel("When this form is submitted").selectOption("enroll_campaign");
  await page.getByLabel("Campaign", { exact: true }).selectOption({ label: "Welcome series" });
  await page.getByRole("button", { name: "Add automation" }).click();
  await expect(page.getByRole("cell", { name: /^Enroll in campaign .Welcome series.$/ })).toBeVisible();

  // a visitor signs up (as the embedded form posts)
  const email = `lena-${Date.now()}@example.test`;
  const submitted = await page.request.post(`/api/forms/${formId}`, {
    headers: { Origin: "http://127.0.0.1:8080", Accept: "application/json" },
    form: { email, first_name: "Lena", is_subscribed: "true" },
  });
  expect(submitted.ok()).toBe(true);

  // the first email is sent; the contact waits
  await expect.poll(async () => (await campaignSends(email)).map((s) => s.step), SWEEP).toEqual(["email-1"]);
  expect((await campaignSends(email))[0].subject).toBe("Welcome, Lena");
  await expect.poll(async () => (await enrollmentOf(email))?.current_step, SWEEP).toBe("wait-1");
  await page.goto("/settings/email/outbox");
  await expect(page.getByTestId("outbox-email").filter({ hasText: "Welcome, Lena" })).toContainText(
    `To ${email}`,
  );

  // Lena clicks; the wait ends: the branch takes the yes path (tips), then the next wait
  await fakeClick((await campaignSends(email))[0].id);
  await endWait(email);
  await kickRunner(page, campaignUrl);
  await expect
    .poll(async () => (await campaignSends(email)).map((s) => s.step), SWEEP)
    .toEqual(["email-1", "email-2"]);
  await expect.poll(async () => (await enrollmentOf(email))?.current_step, SWEEP).toBe("wait-2");

  // the goal: a member tags her a customer on her page; the enrollment completes, the last call is never sent
  const contactId = await withAppDb(
    async (sql) => (await sql`select id from contacts where email = ${email}`)[0].id as string,
  );
  await page.goto(`/contacts/${contactId}`);
  await page.getByLabel("Add a tag").fill("customer");
  await page.getByRole("button", { name: "Add tag" }).click();
  await expect(page.getByRole("list", { name: "Tags" })).toContainText("customer");
  await endWait(email);
  await kickRunner(page, campaignUrl);
  await expect.poll(async () => (await enrollmentOf(email))?.status, SWEEP).toBe("completed");
  expect((await campaignSends(email)).map((s) => s.step)).toEqual(["email-1", "email-2"]);

  // the campaign's numbers per step
  await page.goto(campaignUrl);
  await expect(page.getByTestId("campaign-counts")).toContainText("0 active, 1 completed");
  const cell = (stepId: string, column: string) =>
    page.getByTestId(`step-numbers-${stepId}`).locator(`[data-column="${column}"]`);
  await expect(cell("email-1", "sent")).toHaveText("1");
  await expect(cell("email-1", "clicked")).toHaveText("1");
  await expect(cell("branch-1", "entered")).toHaveText("1");
  await expect(cell("wait-2", "goal_reached")).toHaveText("1");
  await expect(cell("email-3", "sent")).toHaveText("0");
  await expect(page.getByRole("img", { name: "Contacts who reached each step" })).toBeVisible();

  // her timeline shows the steps she went through
  await page.goto(`/contacts/${contactId}?kind=campaign`);
  const timeline = page.locator("#timeline");
  await expect(timeline).toContainText('step "email-1" sent its email');
  await expect(timeline).toContainText('step "branch-1" branched');
  await expect(timeline).toContainText('step "wait-2" completed the campaign');
  await expect(timeline).not.toContainText('step "email-3"');

  // the contact page offers the active campaign again (re-enrolment is on by default)
  await expect(page.getByLabel("Enroll in campaign")).toBeVisible();

  // archiving asks first, then cancels what is active
  await page.goto(campaignUrl);
  await page.getByRole("button", { name: "Archive", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Archive this campaign?" });
  await expect(dialog).toContainText("cancels its 0 active enrollments");
  await dialog.getByRole("button", { name: "Archive campaign" }).click();
  await expect(page.getByTestId("campaign-status")).toContainText("archived");
});
