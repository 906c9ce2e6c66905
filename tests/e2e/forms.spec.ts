import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { emailedLink, newAccount } from "./helpers/accounts";

/**
 * Forms end to end: a page served from another local origin (127.0.0.1 on its own port,
 * while the app is on localhost) embeds the copy-paste snippet of a form.
 */
async function serveEmbedPage(snippet: string): Promise<{ url: string; close: () => Promise<void> }> {
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Partner site</title></head>
<body><h1>Partner site</h1>${snippet}</body></html>`;
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function setAllowedDomains(page: Page, formUrl: string, domains: string) {
  await page.goto(formUrl);
  await page.getByLabel("Allowed domains").fill(domains);
  await page.getByRole("button", { name: "Save form" }).click();
  await expect(page.getByText("Form saved.")).toBeVisible();
}

async function submitEmbedded(page: Page, url: string, email: string, firstName: string) {
  await page.goto(url);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("First name").fill(firstName);
  await page.getByLabel("Email me news and offers").check();
  await page.getByRole("button", { name: "Sign up" }).click();
}

test("an embedded form creates contacts from an allowed origin, is refused elsewhere, and double opt-in applies changes from the outbox link", async ({
  page,
  context,
}) => {
  const workspace = `Forms Co ${Date.now()}`;
  await newAccount(page, { firstName: "Fran", lastName: "Forms", workspaceName: workspace });

  await page.goto("/forms");
  await page.getByRole("link", { name: "New form" }).click();
  await page.getByLabel("Name", { exact: true }).fill("Website signup");
  await page.getByLabel("Allowed domains").fill("127.0.0.1");
  await expect(page.getByLabel("Require email verification")).toBeChecked();
  await page.getByRole("button", { name: "Create form" }).click();
  await expect(page.getByRole("heading", { name: "Website signup" })).toBeVisible();
  const formUrl = page.url();
  const snippet = (await page.getByTestId("snippet-script").textContent()) ?? "";
  expect(snippet).toContain(`/api/forms/${formUrl.split("/").pop()}`);

  const partner = await serveEmbedPage(snippet);
  const site = await context.newPage();
  try {
    const email = `lena-${Date.now()}@example.test`;

    // allowed origin: the contact is created
    await submitEmbedded(site, partner.url, email, "Lena");
    await expect(site.getByRole("status")).toHaveText("Thank you, you are signed up!");
    await page.goto(`${formUrl}/submissions`);
    const firstRow = page.getByRole("row", { name: new RegExp(email) });
    await expect(firstRow).toContainText("Direct");
    await expect(firstRow).toContainText("Lena");

    // origin not allowed: refused, nothing stored
    await setAllowedDomains(page, formUrl, "example.com");
    await submitEmbedded(site, partner.url, `refused-${Date.now()}@example.test`, "Rex");
    await expect(site.getByRole("status")).toHaveText("Sorry, the form could not be sent.");
    await page.goto(`${formUrl}/submissions`);
    await expect(page.getByText("Page 1 of 1 (1 submission)")).toBeVisible();
    await expect(page.getByText(/refused-/)).toHaveCount(0);

    // existing email: staged, verified from the dev outbox, change applied
    await setAllowedDomains(page, formUrl, "*.example.com\n127.0.0.1");
    await submitEmbedded(site, partner.url, email, "Lenora");
    await expect(site.getByRole("status")).toHaveText("Thank you! Check your email to confirm your details.");
    await page.goto(`${formUrl}/submissions`);
    await expect(page.getByRole("heading", { name: /Awaiting email verification \(1\)/ })).toBeVisible();
    await expect(page.getByRole("row", { name: new RegExp(email) })).toContainText("Lena");

    // the outbox lists the email with its link redacted (members must not confirm for the
    // person); the whole email is in email_send_secrets, which only the server reads
    await page.goto("/settings/email/outbox");
    const mail = page
      .getByTestId("outbox-email")
      .filter({ hasText: `Confirm your details for ${workspace}` });
    await expect(mail).toContainText(`To ${email}`);
    await mail.getByText("Show email").click();
    const verifyLinks = mail.locator('a[href*="/api/forms/verify"]');
    await expect(verifyLinks.first()).toBeAttached();
    const hrefs = await verifyLinks.evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
    expect(hrefs.filter((href) => /token=[A-Za-z0-9_-]{43}/.test(href))).toEqual([]);
    const link = await emailedLink(email, "/api/forms/verify");
    await page.goto(link);
    await expect(page).toHaveURL(/\/verified$/);
    await expect(page.getByRole("heading", { name: "Thank you, your details are confirmed" })).toBeVisible();

    await page.goto(`${formUrl}/submissions`);
    const verified = page.getByRole("row", { name: /Verified email/ });
    await expect(verified).toContainText(email);
    await expect(verified).toContainText("Lenora");
    await expect(page.getByRole("heading", { name: /Awaiting email verification/ })).toHaveCount(0);

    // the link is single-use
    const again = await page.goto(link);
    expect(again?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "This link is not valid" })).toBeVisible();
  } finally {
    await partner.close();
  }
});
