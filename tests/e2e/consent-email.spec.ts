import { expect, test } from "@playwright/test";
import { contactConsent, createContactFor, withAppDb } from "./helpers/app-db";
import { newAccount } from "./helpers/accounts";

test("4.7: open the unsubscribe link from an outbox email and see the contact unsubscribed", async ({
  page,
}) => {
  const owner = await newAccount(page);
  const contact = await createContactFor(owner, { is_subscribed: true, first_name: "Sam" });
  await createContactFor(owner); // not opted in: skipped, with the reason
  // a branded broadcast needs the workspace's postal address (Settings → Email, branding)
  await withAppDb(
    (sql) => sql`update workspaces set postal_address = '1 Mill Lane' where name = 'Olive''s Bakery'`,
  );

  await page.getByRole("link", { name: "Broadcasts" }).click();
  await page.getByRole("link", { name: "New broadcast" }).click();
  await page.getByLabel("Subject", { exact: true }).fill("Autumn news");
  await page.getByLabel("Message").fill("Fresh bread every morning.\n\nNot for you? {{unsubscribe_url}}");
  await page.getByRole("button", { name: "Save and preview" }).click();
  await expect(page.getByTestId("broadcast-eligible")).toHaveText("1 of 2 can receive it now.");
  await expect(page.getByRole("cell", { name: "not opted in" })).toBeVisible();
  await page.getByRole("button", { name: "Send broadcast…" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Send now" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Finished" })).toContainText("1 sent, 1 skipped");

  await page.goto("/settings/email/outbox");
  const email = page.getByTestId("outbox-email").filter({ hasText: contact.email });
  await expect(email).toContainText("outbox");
  await email.getByText("Show email").click();
  const link = email.getByRole("navigation").getByRole("link", { name: "Unsubscribe" });
  const href = await link.getAttribute("href");
  // signed for the preference centre (docs/decisions.md, "Signed recipient links")
  expect(href).toMatch(new RegExp(`/unsubscribe/${contact.id}\\?sig=[0-9a-f]{32}$`));

  await page.goto(href!);
  await expect(page.getByRole("heading", { name: "You are unsubscribed" })).toBeVisible();
  await expect(page.getByText("Olive's Bakery")).toBeVisible();
  expect(await contactConsent(contact.id)).toMatchObject({
    is_subscribed: false,
    suppressions: ["unsubscribe"],
  });
  expect((await contactConsent(contact.id)).unsubscribed_at).not.toBeNull();

  await page.goto(`/contacts/${contact.id}`);
  await expect(
    page.getByRole("region", { name: /Email subscription/ }).getByText("Unsubscribed", { exact: true }),
  ).toBeVisible();
  await expect(
    page
      .getByRole("region", { name: "Consent history" })
      .getByText(/Unsubscribed\s+via unsubscribe link by Contact/),
  ).toBeVisible();
});

test("4.6: re-subscribe through /subscribe/{contact_id}; blocked and unknown contacts get a readable page", async ({
  page,
}) => {
  const owner = await newAccount(page);
  const contact = await createContactFor(owner, { unsubscribed_at: new Date() }, ["unsubscribe"]);
  const bounced = await createContactFor(owner, { unsubscribed_at: new Date() }, ["bounce"]);

  await page.goto(`/subscribe/${contact.id}`);
  await expect(page.getByRole("heading", { name: "Subscribe to our emails?" })).toBeVisible();
  expect(await contactConsent(contact.id)).toMatchObject({ is_subscribed: false }); // asking changes nothing
  await page.getByRole("button", { name: "Yes, subscribe me" }).click();
  await expect(page).toHaveURL(/\/subscribe\/confirmed$/);
  await expect(page.getByRole("heading", { name: "You are subscribed" })).toBeVisible();
  expect(await contactConsent(contact.id)).toMatchObject({
    is_subscribed: true,
    unsubscribed_at: null,
    suppressions: [],
  });

  await page.goto(`/subscribe/${bounced.id}`);
  await expect(page.getByRole("main").getByRole("alert")).toContainText("could not be delivered");
  await page.goto(`/api/subscribe/${bounced.id}`);
  await expect(page).toHaveURL(/\/subscribe\/error\?reason=bounce$/);
  await expect(page.getByRole("main").getByRole("alert")).toContainText("bounced");

  await page.goto("/subscribe/not-a-contact");
  await expect(page.getByRole("heading", { name: "Link not valid" })).toBeVisible();
  await page.goto("/unsubscribe/00000000-0000-4000-8000-000000000000");
  await expect(page.getByRole("heading", { name: "Link not valid" })).toBeVisible();
  await page.goto("/subscribe/error?reason=<script>alert(1)</script>");
  await expect(page.getByRole("main").getByRole("alert")).toContainText("Something went wrong");
});

test("4.9: the manual subscribe dialog refuses to confirm without a legal basis and attestation", async ({
  page,
}) => {
  const owner = await newAccount(page);
  const contact = await createContactFor(owner, { first_name: "Nia" });
  await page.goto(`/contacts/${contact.id}`);
  await expect(
    page.getByRole("region", { name: "Email subscription" }).getByText("Not Opted In"),
  ).toBeVisible();
  await page.getByRole("button", { name: "Subscribe…" }).click();
  const dialog = page.getByRole("dialog", { name: "Subscribe this contact" });
  await dialog.getByRole("button", { name: "Confirm subscription" }).click();
  await expect(dialog.getByText("Choose the legal basis for this consent.")).toBeVisible();
  expect(await contactConsent(contact.id)).toMatchObject({ is_subscribed: false });

  await dialog.getByLabel("Written Consent").check();
  await dialog.getByRole("button", { name: "Confirm subscription" }).click();
  await expect(dialog.getByText("Confirm that the contact gave this consent.")).toBeVisible();
  expect(await contactConsent(contact.id)).toMatchObject({ is_subscribed: false });

  await dialog.getByLabel("Written Consent").check();
  await dialog.getByLabel(/I confirm this contact gave consent/).check();
  await dialog.getByRole("button", { name: "Confirm subscription" }).click();
  await expect(page.getByText("The contact is subscribed.")).toBeVisible();
  await expect(dialog).toBeHidden();
  expect(await contactConsent(contact.id)).toMatchObject({
    is_subscribed: true,
    opt_in_source: "Admin Manual Entry: Written Consent",
  });
  const subscription = page.getByRole("region", { name: "Email subscription" });
  await expect(subscription.getByText("Subscribed", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(page.getByText("The contact is unsubscribed.")).toBeVisible();
  expect(await contactConsent(contact.id)).toMatchObject({
    is_subscribed: false,
    suppressions: ["unsubscribe"],
  });

  // the consent ledger, exportable per contact as CSV, for this workspace only
  const csv = await page.request.get(`/api/consent/${contact.id}/ledger`);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  const lines = (await csv.text()).trim().split("\r\n");
  expect(lines).toHaveLength(3);
  expect(lines[1]).toContain(",subscribed,manual,Admin Manual Entry: Written Consent,Written Consent,");
  expect(lines[2]).toContain(",unsubscribed,manual_unsubscribe,");
  const stranger = await page.context().browser()!.newContext();
  const other = await stranger.newPage();
  await newAccount(other);
  expect((await other.request.get(`/api/consent/${contact.id}/ledger`)).status()).toBe(404);
  await stranger.close();
});

test("4.7 RFC 8058: the mail client's one-click POST to the unsubscribe URL unsubscribes", async ({
  page,
}) => {
  const owner = await newAccount(page);
  const contact = await createContactFor(owner, { is_subscribed: true });
  const res = await page.request.post(`/unsubscribe/${contact.id}`, {
    form: { "List-Unsubscribe": "One-Click" },
  });
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual({ unsubscribed: true });
  expect(await contactConsent(contact.id)).toMatchObject({
    is_subscribed: false,
    suppressions: ["unsubscribe"],
  });
  const unknown = await page.request.post("/unsubscribe/00000000-0000-4000-8000-000000000000", {
    form: { "List-Unsubscribe": "One-Click" },
  });
  expect(unknown.status()).toBe(404);
});
