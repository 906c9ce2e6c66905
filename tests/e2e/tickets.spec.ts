import { expect, test } from "@playwright/test";
import { newAccount } from "./helpers/accounts";

/**
 * DESIGN section 9, "Events" (docs/decisions.md, "Signed tickets", "One check-in per
 * registration"): a confirmed RSVP's email in the dev outbox links to its ticket page; the token
 * from that link, typed into the door scanner on a phone-sized screen, checks the guest in, and a
 * second scan of it says "already checked in at …".
 */
test("the ticket link from the outbox email, fed to the scanner by manual entry, checks in once; the second scan says already checked in", async ({
  page,
  browser,
}) => {
  await newAccount(page, { workspaceName: "Door Night Org" });
  await page.goto("/events");
  await page.getByRole("link", { name: "New event" }).click();
  await page.getByLabel("Name", { exact: true }).fill("Door night");
  await page.getByLabel("Location").fill("The hall");
  await page.getByLabel("Starts").fill("2031-06-01T18:00");
  await page.getByLabel("Ends").fill("2031-06-01T22:00");
  await page.getByLabel(/^Published/).check();
  await page.getByRole("button", { name: "Create event" }).click();
  await expect(page.getByRole("heading", { name: "Door night" })).toBeVisible();
  const rsvpUrl = await page.getByRole("link", { name: "RSVP page" }).getAttribute("href");
  const eventId = rsvpUrl!.split("/").pop()!;

  const visitor = await browser.newContext();
  const guest = await visitor.newPage();
  await guest.goto(rsvpUrl!);
  await guest.getByLabel("Email", { exact: true }).fill("dora.door@example.test");
  await guest.getByLabel("First name").fill("Dora");
  await guest.getByLabel("Last name").fill("Door");
  await guest.getByRole("button", { name: "RSVP" }).click();
  await expect(guest.getByRole("status")).toHaveText(/You're registered!/);

  // the confirmation in the dev outbox carries the ticket link
  await page.goto("/settings/email/outbox");
  const email = page.getByTestId("outbox-email").filter({ hasText: "dora.door@example.test" });
  await email.getByText("Show email").click();
  const href = await email
    .getByRole("navigation")
    .getByRole("link", { name: "your ticket" })
    .getAttribute("href");
  const ticketPath = new URL(href!).pathname;
  expect(ticketPath).toMatch(/^\/tickets\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{86}$/);
  const token = ticketPath.slice("/tickets/".length);

  // the guest opens it on a phone: the event, their name, the QR code
  await guest.setViewportSize({ width: 390, height: 844 });
  await guest.goto(ticketPath);
  await expect(guest.getByRole("heading", { name: "Door night" })).toBeVisible();
  await expect(guest.getByText("Dora Door")).toBeVisible();
  await expect(guest.getByRole("img", { name: /QR code of your ticket/ })).toBeVisible();
  // an altered token gets the same page as any invalid one: one character of the signature changed
  // (its last ones may already be what a fixed replacement would write)
  const at = token.length - 10;
  const altered = `${token.slice(0, at)}${token[at] === "A" ? "B" : "A"}${token.slice(at + 1)}`;
  await guest.goto(`/tickets/${altered}`);
  await expect(guest.getByRole("heading", { name: "Ticket not valid" })).toBeVisible();
  await visitor.close();

  // the door: the scanner on a phone-sized screen, the code typed in
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/events/${eventId}`);
  await page.getByRole("link", { name: "Scan tickets" }).click();
  await expect(page.getByRole("heading", { name: "Scan tickets" })).toBeVisible();
  const code = page.getByLabel("Ticket code or link");
  await code.fill("not-a-ticket");
  await page.getByRole("button", { name: "Check in" }).click();
  await expect(page.getByTestId("scan-result")).toContainText("not a ticket code");

  await code.fill(token);
  await page.getByRole("button", { name: "Check in" }).click();
  await expect(page.getByTestId("scan-result")).toContainText("Checked in at");
  await expect(page.getByText("1 of 1 checked in")).toBeVisible();
  await expect(page.getByRole("region", { name: "Latest check-ins" })).toContainText("Dora Door");

  await code.fill(token);
  await page.getByRole("button", { name: "Check in" }).click();
  await expect(page.getByTestId("scan-result")).toContainText(/Already checked in at \d/);

  // the registrations list filters by checked in
  await page.goto(`/events/${eventId}?checked_in=yes`);
  await expect(page.getByRole("row", { name: /dora\.door@example\.test/ })).toContainText("Checked in");
  await page.goto(`/events/${eventId}?checked_in=no`);
  await expect(page.getByRole("row", { name: /dora\.door@example\.test/ })).toHaveCount(0);
});
