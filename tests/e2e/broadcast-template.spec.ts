import { expect, test } from "@playwright/test";
import { newAccount } from "./helpers/accounts";
import { broadcastStatus, createContactFor, fakeBroadcastEvents } from "./helpers/app-db";

const SUBJECT = "Autumn menu";

test("a template built in the editor, a broadcast scheduled with it to a topic, and its chart once fake events arrive", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const owner = await newAccount(page);
  // a subscription topic, on by default: the subscribed contact joins it
  await page.goto("/settings/topics");
  const add = page.getByRole("region", { name: "Add a topic" });
  await add.getByLabel("Name").fill("Newsletter");
  await add.getByLabel("Key").fill("newsletter");
  await add.getByRole("checkbox").check();
  await add.getByRole("button", { name: "Add topic" }).click();
  await expect(page.getByRole("heading", { name: /Newsletter/ })).toBeVisible();
  await createContactFor(owner, { is_subscribed: true, first_name: "Sam" });
  await createContactFor(owner); // not opted in: not a subscriber of the topic

  // the branding: colours and the postal address the marketing footer needs
  await page.goto("/settings/email");
  await page.getByLabel("Header colour").fill("#0f766e");
  await page.getByLabel("Link colour").fill("#b45309");
  await page.getByLabel("Postal address").fill("12 Mill Lane\nSpringfield");
  await page.getByRole("button", { name: "Save branding" }).click();
  await expect(page.getByText("Branding saved.")).toBeVisible();

  // the template: Markdown with a merge tag, previewed at desktop and mobile widths
  await page.goto("/broadcasts/new");
  await page.getByLabel("Subject", { exact: true }).fill(SUBJECT);
  await page
    .getByLabel("Message")
    .fill(
      '# Hello {{first_name | "friend"}}\n\nOur **autumn menu** is here: pumpkin loaf, apple tart and spiced buns.\n\n- Open 7 to 3\n- Pre-orders by phone\n\n[See the menu](https://example.com/menu)',
    );
  const desktop = page.frameLocator('iframe[title="Message preview, desktop width"]');
  const mobile = page.frameLocator('iframe[title="Message preview, mobile width"]');
  await expect(desktop.getByRole("heading", { name: "Hello Olive" })).toBeVisible(); // the member's own name
  await expect(mobile.getByText("12 Mill Lane")).toBeVisible();
  await page.getByRole("region", { name: "Preview" }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: "docs/screenshots/broadcast-editor.png", fullPage: true });

  // an unknown tag is refused with its name, nothing saved
  await page.getByLabel("Message").fill("Hi {{frist_name}}");
  await expect(page.getByRole("region", { name: "Preview" })).toContainText(
    "Unknown merge tag {{frist_name}}",
  );
  await page
    .getByLabel("Message")
    .fill('# Hello {{first_name | "friend"}}\n\n[See the menu](https://example.com/menu)');
  await page.getByLabel("Topic").selectOption({ label: "Newsletter" });
  await page.getByRole("button", { name: "Save and preview" }).click();
  await expect(page.getByText("subscribed to Newsletter")).toBeVisible();
  await expect(page.getByTestId("broadcast-eligible")).toHaveText("1 of 1 can receive it now.");

  // scheduled a few seconds ahead, in the viewer's zone (UTC for a new account)
  const at = new Date(Date.now() + 15_000).toISOString().slice(0, 19);
  await page.getByLabel("Send at (UTC)").fill(at);
  await expect(page.getByText("1 contact would receive it now; 0 would be skipped")).toBeVisible();
  await page.getByRole("button", { name: "Schedule" }).click();
  await expect(page.getByTestId("broadcast-scheduled")).toContainText("Scheduled for");
  expect(await broadcastStatus(SUBJECT)).toBe("scheduled");
  await expect.poll(() => broadcastStatus(SUBJECT), { timeout: 90_000, intervals: [1000] }).toBe("sent");

  // the provider's events arrive: the report's charts show them
  expect(
    await fakeBroadcastEvents(SUBJECT, [
      { type: "delivered" },
      { type: "opened" },
      { type: "clicked", link_url: "https://example.com/menu" },
    ]),
  ).toBe(3);
  await page.reload();
  const report = page.getByTestId("broadcast-report");
  await expect(report).toBeVisible();
  await expect(report.getByRole("cell", { name: "https://example.com/menu" })).toBeVisible();
  await expect(report).toContainText("1 people opened, 1 clicked");
  await report.scrollIntoViewIfNeeded();
  await report.screenshot({ path: "docs/screenshots/broadcast-report.png" });

  // duplicate: a draft copy opens
  await page.getByRole("button", { name: "Duplicate" }).click();
  await expect(page.getByRole("link", { name: "Edit" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(SUBJECT);
});
