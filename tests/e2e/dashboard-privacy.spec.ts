import { mkdir } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { strFromU8, unzipSync } from "fflate";
import { readFile } from "node:fs/promises";
import { seedDemoWorkspace, withAppDb } from "./helpers/app-db";
import { signInDirectly } from "./helpers/accounts";

// Screenshots for people (not asserted): written only when E2E_SCREENS_DIR is set.
const screens = process.env.E2E_SCREENS_DIR;
async function shot(page: Page, name: string) {
  if (!screens) return;
  await mkdir(screens, { recursive: true });
  await page.screenshot({ path: `${screens}/${name}.png`, fullPage: true });
}

const password = "demo password 16";

test("home dashboard and privacy: the demo's owner lands on charts, exports and erases a contact, and adds an event to a calendar", async ({
  page,
}) => {
  const demo = await seedDemoWorkspace(password);
  await signInDirectly(page, demo.email);
  await page.goto("/");

  // the home dashboard: charts with text alternatives and links to the lists behind them
  await page.getByRole("link", { name: "90 days" }).click();
  await expect(page.getByRole("img", { name: "New contacts per day, by source" })).toBeVisible();
  await expect(page.getByRole("img", { name: /^Email consent today/ })).toBeVisible();
  await expect(page.getByRole("img", { name: "Form submissions per day, by form" })).toBeVisible();
  await expect(page.getByText(/new contacts in the last 90 days: /)).toBeVisible();
  await expect(page.getByRole("link", { name: "Import" }).first()).toHaveAttribute(
    "href",
    "/contacts?source=import",
  );
  await expect(page.getByRole("link", { name: "Spring Open House" })).toBeVisible();
  await expect(page.getByText(/registered of 60 seats/)).toBeVisible();
  await shot(page, "dashboard");

  // a contact's privacy requests
  const [contact] = await withAppDb(
    (sql) =>
      sql`select id, email from contacts where workspace_id = ${demo.workspaceId} and source = 'form' order by email limit 1`,
  );
  await page.goto(`/contacts/${contact.id}`);
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export all data (ZIP: JSON and CSV)" }).click();
  const file = await (await download).path();
  const zip = unzipSync(new Uint8Array(await readFile(file!)));
  expect(JSON.parse(strFromU8(zip["contact.json"])).contact.id).toBe(contact.id);
  expect(Object.keys(zip)).toContain("form_submissions.csv");
  await page.getByLabel(`Type ${contact.email} to confirm`).fill(contact.email);
  await shot(page, "contact-privacy");
  await page.getByRole("button", { name: "Erase this contact" }).click();
  await expect(page).toHaveURL(/\/contacts\?erased=1$/);
  await expect(page.getByText(/^The contact was erased\./)).toBeVisible();
  const left = await withAppDb(
    (sql) => sql`select 1 from contacts where id = ${contact.id} or email = ${contact.email}`,
  );
  expect(left).toHaveLength(0);

  // the event page, its RSVP page and its calendar file
  await page.goto(`/events/${demo.rsvpEventId}`);
  await expect(page.getByRole("table", { name: "Registrations" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Export CSV" })).toBeVisible();
  await shot(page, "event");
  await page.goto(`/rsvp/${demo.rsvpEventId}`);
  await expect(page.getByText(/seats left\./)).toBeVisible();
  await expect(page.getByRole("link", { name: "Add to Google Calendar" })).toHaveAttribute(
    "href",
    /^https:\/\/calendar\.google\.com\/calendar\/render\?action=TEMPLATE/,
  );
  const ics = await page.request.get(`/rsvp/${demo.rsvpEventId}/calendar.ics`);
  expect(ics.status()).toBe(200);
  expect(ics.headers()["content-type"]).toBe("text/calendar; charset=utf-8");
  const body = await ics.text();
  expect(body).toContain("BEGIN:VEVENT");
  expect(body).toContain(`UID:${demo.rsvpEventId}@`);
  expect(body).toContain("SUMMARY:Spring Open House");
});
