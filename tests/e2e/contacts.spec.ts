import { expect, test } from "@playwright/test";
import { newAccount } from "./helpers/accounts";

test("create a contact (with inline validation), tag it, and filter the list by the tag", async ({
  page,
}) => {
  await newAccount(page, { firstName: "Cora", lastName: "Contacts", workspaceName: "Cora's Contacts" });
  await page.goto("/contacts");
  await page.getByRole("link", { name: "New contact" }).click();
  await page.getByLabel("Email", { exact: true }).fill("not-an-email");
  await page.getByLabel("Birth month").fill("5");
  await page.getByRole("button", { name: "Create contact" }).click();
  await expect(page.getByText("Enter a valid email address.")).toBeVisible();
  await expect(page.getByText("Enter both the birth month and the birth day, or neither.")).toBeVisible();

  await page.getByLabel("Email", { exact: true }).fill("ada@example.com");
  await page.getByLabel("First name").fill("Ada");
  await page.getByLabel("Last name").fill("Lovelace");
  await page.getByLabel("Phone").fill("2025550143");
  await page.getByLabel("Birth day").fill("10");
  await page.getByRole("button", { name: "Create contact" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Ada Lovelace" })).toBeVisible();
  await expect(page.getByText("(202) 555-0143")).toBeVisible();
  await expect(page.getByText("10 May")).toBeVisible();

  await page.getByLabel("Add a tag").fill("VIP");
  await page.getByRole("button", { name: "Add tag" }).click();
  await expect(page.getByRole("list", { name: "Tags" }).getByText("VIP")).toBeVisible();
  await page.getByLabel("Add a note").fill("Met at the <spring> fair");
  await page.getByRole("button", { name: "Add note" }).click();
  await expect(
    page.getByRole("list", { name: "Timeline" }).getByText("Met at the <spring> fair"),
  ).toBeVisible();

  // owners may change the source, with a reason; the timeline records it as 'System'
  await page.getByRole("button", { name: "Change source" }).click();
  const dialog = page.getByRole("dialog", { name: "Change the contact’s source" });
  await dialog.getByLabel("New source").selectOption("import");
  await dialog.getByLabel("Reason").fill("Came in the spring list");
  await dialog.getByRole("button", { name: "Change source" }).click();
  await expect(
    page
      .getByRole("list", { name: "Timeline" })
      .getByText(/Source changed from manual to import by Cora Contacts/),
  ).toBeVisible();

  // a second, untagged contact
  await page.goto("/contacts/new");
  await page.getByLabel("Email", { exact: true }).fill("grace@example.com");
  await page.getByLabel("First name").fill("Grace");
  await page.getByRole("button", { name: "Create contact" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Grace" })).toBeVisible();

  await page.goto("/contacts");
  const rows = page.getByRole("table").getByRole("row");
  await expect(rows).toHaveCount(3);
  await page.getByRole("link", { name: "Show contacts tagged VIP" }).click();
  await expect(page).toHaveURL(/tagIds=/);
  await expect(rows).toHaveCount(2);
  await expect(page.getByRole("link", { name: "Ada Lovelace" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Grace" })).toHaveCount(0);

  // the same filter through the form: without the tag
  await page.goto("/contacts");
  await page.getByLabel("Without tags").selectOption({ label: "VIP" });
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/excludeTagIds=/);
  await expect(page.getByRole("link", { name: "Grace" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Ada Lovelace" })).toHaveCount(0);

  // deleting asks first
  await page.getByRole("link", { name: "Grace" }).click();
  await page.getByRole("button", { name: "Delete" }).click();
  await page
    .getByRole("dialog", { name: "Delete Grace?" })
    .getByRole("button", { name: "Delete contact" })
    .click();
  await expect(page.getByText("The contact was deleted.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Grace" })).toHaveCount(0);
});

test("import a CSV through the UI: preview, progress, report", async ({ page }) => {
  await newAccount(page, { firstName: "Cora", lastName: "Contacts", workspaceName: "Cora's Contacts" });
  await page.goto("/contacts/import");
  const csv = [
    "E-mail,First Name,Last Name,Zip,Tags,Notes,Shoe size",
    'lin@example.com,Lin,Lee,10001,"Newsletter, VIP",Prefers email',
    "not-an-email,Bad,Row,,,",
    "max@example.com,Max,,,Newsletter,",
  ].join("\n");
  await page
    .getByLabel("CSV file")
    .setInputFiles({ name: "people.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  const preview = page.getByRole("table");
  await expect(preview.getByRole("row", { name: /E-mail\s+Email/ })).toBeVisible();
  await expect(preview.getByRole("row", { name: /Zip\s+Postal code/ })).toBeVisible();
  await expect(preview.getByRole("row", { name: /Shoe size\s+Not imported/ })).toBeVisible();
  await page.getByLabel(/Mark as Subscribed/).check();
  await page.getByRole("button", { name: "Import people.csv" }).click();

  await expect(page.getByText("Import finished: 2 created, 0 updated, 1 skipped.")).toBeVisible();
  const report = page.getByRole("region", { name: "Import report" });
  await expect(report.getByRole("row", { name: "Contacts created 2" })).toBeVisible();
  await expect(report.getByRole("row", { name: "Consent recorded 2" })).toBeVisible();
  await expect(
    report.getByRole("row", { name: /3\s+not-an-email\s+Email is not a valid address\./ }),
  ).toBeVisible();

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download the report (CSV)" }).click(),
  ]);
  const stream = await download.createReadStream();
  let text = "";
  for await (const chunk of stream) text += chunk;
  expect(text).toContain("Contacts created,2");
  expect(text).toContain("3,not-an-email,Email is not a valid address.");

  await page.goto("/contacts");
  await expect(page.getByRole("link", { name: "Lin Lee" })).toBeVisible();
  await expect(page.getByRole("row", { name: /Lin Lee/ }).getByText("Subscribed")).toBeVisible();
});
