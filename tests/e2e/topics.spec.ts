import { mkdir } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { newAccount } from "./helpers/accounts";
import { contactConsent, createContactFor, withAppDb } from "./helpers/app-db";
import { signLink } from "../../lib/crypto/signed-link";

// Screenshots for people (not asserted): written only when E2E_SCREENS_DIR is set.
const screens = process.env.E2E_SCREENS_DIR;
async function shot(page: Page, name: string) {
  if (!screens) return;
  await mkdir(screens, { recursive: true });
  await page.screenshot({ path: `${screens}/${name}.png`, fullPage: true });
}

const topicsOn = (contactId: string) =>
  withAppDb(async (sql) => {
    const rows = await sql`
      select t.key from contact_topics ct join email_topics t on t.id = ct.topic_id
      where ct.contact_id = ${contactId} and ct.subscribed order by t.key`;
    return rows.map((r) => r.key as string);
  });

test("subscription topics: a newcomer creates topics; a recipient leaves one topic by its link, stays in the other, and joins it again in the preference centre", async ({
  page,
}) => {
  const owner = await newAccount(page);
  await page.goto("/settings/topics");
  await expect(page.getByText("No topics yet")).toBeVisible();
  const add = page.getByRole("region", { name: "Add a topic" });
  await add.getByLabel("Name").fill("Newsletter");
  await add.getByLabel("Key").fill("newsletter");
  await add.getByLabel("Description (optional)").fill("News from the bakery, once a month.");
  await add.getByRole("checkbox").check();
  await add.getByRole("button", { name: "Add topic" }).click();
  await expect(page.getByRole("heading", { name: /Newsletter/ })).toBeVisible();
  await add.getByLabel("Name").fill("Events");
  await add.getByLabel("Key").fill("events");
  await add.getByLabel("Description (optional)").fill("Tastings and baking classes.");
  await add.getByRole("button", { name: "Add topic" }).click();
  await expect(page.getByRole("heading", { name: /Events/ })).toBeVisible();
  await shot(page, "topics-settings");

  // a subscribed contact joins the default topic (Newsletter); they also chose Events
  const contact = await createContactFor(owner, { is_subscribed: true });
  const { events, workspaceId } = await withAppDb(async (sql) => {
    const [t] = await sql`
      select t.id, t.workspace_id from email_topics t join contacts c on c.workspace_id = t.workspace_id
      where c.id = ${contact.id} and t.key = 'events'`;
    await sql`insert into contact_topics (workspace_id, contact_id, topic_id, subscribed)
              values (${t.workspace_id}, ${contact.id}, ${t.id}, true) on conflict do nothing`;
    return { events: t.id as string, workspaceId: t.workspace_id as string };
  });
  expect(await topicsOn(contact.id)).toEqual(["events", "newsletter"]);

  // the link of a broadcast sent to Events, signed as our emails sign it (docs/decisions.md,
  // "Signed recipient links"): the preference centre may then join topics
  const sig = signLink("preferences", { workspaceId, contactId: contact.id });
  await page.goto(`/unsubscribe/${contact.id}?sig=${sig}&topic=${events}`);
  await expect(page.getByRole("heading", { name: "You are unsubscribed" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "You will no longer receive" })).toContainText(
    "You will no longer receive Events email",
  );
  await expect(page.getByRole("checkbox", { name: /Newsletter/ })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: /Events/ })).not.toBeChecked();
  expect(await topicsOn(contact.id)).toEqual(["newsletter"]);
  expect(await contactConsent(contact.id)).toMatchObject({ is_subscribed: true, suppressions: [] });
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, "preference-centre");

  await page.getByRole("checkbox", { name: /Events/ }).check();
  await page.getByRole("button", { name: "Save preferences" }).click();
  await expect(page.getByText("Your email preferences are saved.")).toBeVisible();
  expect(await topicsOn(contact.id)).toEqual(["events", "newsletter"]);

  await page.getByRole("button", { name: "Unsubscribe from everything" }).click();
  await expect(page.getByText("You are unsubscribed from everything.")).toBeVisible();
  expect(await topicsOn(contact.id)).toEqual([]);
  expect(await contactConsent(contact.id)).toMatchObject({
    is_subscribed: false,
    suppressions: ["unsubscribe"],
  });
});
