import { expect, test } from "@playwright/test";
import { newAccount } from "./helpers/accounts";

test("jobs: a CSV above the threshold is imported by a job: progress, then the report and the history row", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await newAccount(page, { firstName: "Bea", lastName: "Bulk", workspaceName: "Bea's Bulk" });
  await page.goto("/contacts/import");
  const rows = Array.from({ length: 2_000 }, (_, i) => `bulk${i}@example.com,Bulk ${i},Person,Imported`);
  const csv = ["Email,First Name,Last Name,Tags", ...rows, "not-an-email,Bad,Row,"].join("\n");
  expect(csv.length).toBeGreaterThan(65_536); // the threshold playwright.config.ts gives the server
  await page
    .getByLabel("CSV file")
    .setInputFiles({ name: "bulk.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("button", { name: "Import bulk.csv" }).click();

  await expect(page.getByText(/bulk\.csv is large, so it is imported in the background/)).toBeVisible();
  await expect(page.getByText("Import finished: 2000 created, 0 updated, 1 skipped.")).toBeVisible({
    timeout: 60_000,
  });
  const report = page.getByRole("region", { name: "Import report" });
  await expect(report.getByRole("row", { name: "Contacts created 2,000" })).toBeVisible();
  await expect(
    report.getByRole("row", { name: /2002\s+not-an-email\s+Email is not a valid address\./ }),
  ).toBeVisible();

  const history = page.getByRole("region", { name: "Recent imports" });
  await expect(
    history.getByRole("row", { name: /bulk\.csv\s+Done\s+Imported: 2,001 of 2,001 rows/ }),
  ).toBeVisible();

  await page.goto("/contacts");
  await expect(page.getByRole("link", { name: /Bulk \d+ Person/ }).first()).toBeVisible();
});
