import { expect, test } from "@playwright/test";
import { newAccount } from "./helpers/accounts";

test("RSVP to a published event without JavaScript, then find the contact and registration in the dashboard", async ({
  page,
  browser,
}) => {
  await newAccount(page, { workspaceName: "Olive's Events" });
  await page.goto("/events");
  await page.getByRole("link", { name: "New event" }).click();
  await expect(page.getByRole("heading", { name: "New event" })).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill("Garden party");
  await page.getByLabel("Location").fill("The garden");
  await page.getByLabel("Starts").fill("2031-06-01T18:00");
  await page.getByLabel("Ends").fill("2031-06-01T22:00");
  await page.getByLabel("Time zone").selectOption("Europe/Paris");
  await page.getByLabel(/^Published/).check();
  await page.getByRole("button", { name: "Create event" }).click();
  await expect(page.getByRole("heading", { name: "Garden party" })).toBeVisible();
  await expect(page.getByText("Sun 1 Jun 2031, 18:00")).toBeVisible();
  const rsvpUrl = await page.getByRole("link", { name: "RSVP page" }).getAttribute("href");
  expect(rsvpUrl).toMatch(/^\/rsvp\/[0-9a-f-]{36}$/);

  // the public page, in a browser with JavaScript off
  const visitor = await browser.newContext({ javaScriptEnabled: false });
  const guest = await visitor.newPage();
  await guest.goto(rsvpUrl!);
  await expect(guest.getByRole("heading", { name: "Garden party" })).toBeVisible();
  // the browser's own check accepts this address; the server's does not, and says so
  await guest.getByLabel("Email", { exact: true }).fill("guest@localhost");
  await guest.getByRole("button", { name: "RSVP" }).click();
  await expect(guest.getByRole("alert")).toHaveText("Enter a valid email address.");
  await expect(guest.getByLabel("Email", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await guest.getByLabel("Email", { exact: true }).fill("Guest.Person@Example.test");
  await guest.getByLabel("First name").fill("Gus");
  await guest.getByLabel("Last name").fill("Guest");
  await guest.getByLabel("Keep me updated about future events by email").check();
  await guest.getByRole("button", { name: "RSVP" }).click();
  await expect(guest.getByRole("status")).toHaveText(/You're registered!/);
  await visitor.close();

  await page.reload();
  await expect(page.getByRole("heading", { name: /Registrations \(1 active/ })).toBeVisible();
  const row = page.getByRole("row", { name: /guest\.person@example\.test/ });
  await expect(row.getByRole("link", { name: "Gus Guest" })).toBeVisible();
  await expect(row.getByText("Registered")).toBeVisible();
  await expect(row.getByText("$0.00")).toBeVisible();

  await page.goto("/events?upcoming=true");
  await expect(page.getByRole("row", { name: /Garden party/ })).toContainText("1");
});

test("connect Eventbrite through OAuth (fake Eventbrite) and see the organisation", async ({ page }) => {
  await newAccount(page, { workspaceName: "Olive's Events" });
  await page.goto("/settings/ticketing");
  await page.getByRole("button", { name: "Connect Eventbrite" }).click();
  await expect(page).toHaveURL(/\/settings\/ticketing\?connected=1$/);
  await expect(page.getByRole("status").filter({ hasText: "Connected." })).toBeVisible();
  await expect(page.getByText("Fake Events Org")).toBeVisible();
  await expect(page.getByText("Webhook registered")).toBeVisible();
});

test("issue a public API key, read the events with it, revoke it", async ({ page, request }) => {
  await newAccount(page, { workspaceName: "Olive's Events" });
  await page.goto("/settings/api-keys");
  await page.getByLabel("Key name").fill("Website");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = await page.getByTestId("new-api-key").inputValue();
  expect(key).toMatch(/^evk_/);
  const ok = await request.get(`/api/v1/public/events?key=${key}`);
  expect(ok.status()).toBe(200);
  expect(ok.headers()["access-control-allow-origin"]).toBe("*");
  expect(await ok.json()).toEqual([]);
  await page.reload();
  await page.getByRole("button", { name: "Revoke Website" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByRole("status").filter({ hasText: "The key was revoked." })).toBeVisible();
  expect(
    (await request.get("/api/v1/public/events", { headers: { Authorization: `Bearer ${key}` } })).status(),
  ).toBe(403);
});
