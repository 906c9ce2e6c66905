import { createRequire } from "node:module";
import { expect, test, type Page } from "@playwright/test";
import { newAccount, signIn } from "./helpers/accounts";
import { seedDemoWorkspace, withAppDb } from "./helpers/app-db";

// The dashboard on a phone (docs/decisions.md, "Phone layout"): an iPhone-sized viewport.
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

const password = "demo password 16";

/** Nothing on the page is wider than the phone: the document does not scroll sideways. */
async function expectFitsThePhone(page: Page) {
  await expect(page.locator("main h1")).toBeVisible();
  const width = await page.evaluate(() => document.scrollingElement!.scrollWidth);
  expect(width, `${page.url()} is ${width} px wide`).toBeLessThanOrEqual(390);
}

/**
 * axe-core's rules (the copy eslint-plugin-jsx-a11y installs) on the part of the page `selector`
 * names: the violations' rule ids, none expected. Needs the page's JavaScript.
 */
async function axeViolations(page: Page, selector: string): Promise<string[]> {
  await page.addScriptTag({ path: createRequire(import.meta.url).resolve("axe-core/axe.min.js") });
  return page.evaluate(async (include) => {
    const axe = (
      window as unknown as { axe: { run: (c: unknown) => Promise<{ violations: { id: string }[] }> } }
    ).axe;
    const { violations } = await axe.run({ include: [include] });
    return violations.map((v) => v.id);
  }, selector);
}

test("at 390 px the home page, the contact list, a contact and an event fit the screen, and the menu opens and navigates", async ({
  page,
}) => {
  const demo = await seedDemoWorkspace(password);
  // the contact with the most on its timeline, so the page is a full one
  const [contact] = await withAppDb(
    (sql) => sql`
      select c.id from contacts c left join notes n on n.contact_id = c.id
      where c.workspace_id = ${demo.workspaceId}
      group by c.id order by count(n.id) desc, c.id limit 1`,
  );
  await signIn(page, demo.email, password);

  await expectFitsThePhone(page);
  const menu = page.getByRole("button", { name: "Menu" });
  const main = page.getByRole("navigation", { name: "Main" });
  // closed: the links are hidden until the menu opens
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(main).toBeHidden();
  expect(await axeViolations(page, ".sidebar")).toEqual([]);
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  expect(await axeViolations(page, ".sidebar")).toEqual([]);
  await main.getByRole("link", { name: "Contacts" }).click();
  await expect(page).toHaveURL(/\/contacts$/);
  // the menu closes on the new page
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expectFitsThePhone(page);

  // Escape closes it again and gives the focus back to the button
  await menu.click();
  await expect(main).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(main).toBeHidden();
  await expect(menu).toBeFocused();

  await page.goto(`/contacts/${contact.id}`);
  await expectFitsThePhone(page);
  await expect(page.getByRole("list", { name: "Timeline" })).toBeVisible();

  await menu.click();
  await main.getByRole("link", { name: "Events" }).click();
  await expect(page).toHaveURL(/\/events$/);
  await expectFitsThePhone(page);
  await page.goto(`/events/${demo.rsvpEventId}`);
  await expectFitsThePhone(page);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the menu is a link to its panel: it opens, every link of the menu is reachable and followed, and it closes", async ({
    page,
  }) => {
    await newAccount(page);
    await expectFitsThePhone(page);
    const main = page.getByRole("navigation", { name: "Main" });
    await expect(main).toBeHidden();
    // no button without a script to run it: the menu is a link to the panel
    await expect(page.getByRole("button", { name: "Menu" })).toHaveCount(0);
    await page.getByRole("link", { name: "Menu" }).click();
    await expect(main).toBeVisible();
    for (const name of ["Home", "Contacts", "Events", "Settings"])
      await expect(main.getByRole("link", { name, exact: true })).toBeVisible();
    // the keyboard reaches the links too
    await main.getByRole("link", { name: "Contacts" }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/contacts$/);
    await expect(main).toBeHidden(); // a new page: closed
    await expectFitsThePhone(page);

    await page.getByRole("link", { name: "Menu" }).click();
    await expect(main).toBeVisible();
    await page.getByRole("link", { name: "Close the menu" }).click();
    await expect(main).toBeHidden();
  });
});
