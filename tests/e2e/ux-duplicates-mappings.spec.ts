import { expect, test } from "@playwright/test";
import { newAccount } from "./helpers/accounts";
import { createContactFor, withAppDb } from "./helpers/app-db";

// "Not a duplicate" on the possible-duplicates page and Settings → Import mappings
// (docs/decisions.md, "Merging contacts" and "CSV import mappings"), as a member clicks them.

test("a pair marked not a duplicate leaves the list, and Undo brings it back", async ({ page }) => {
  const email = await newAccount(page);
  const a = await createContactFor(email, { first_name: "Ada", last_name: "One", phone: "2025550143" });
  const b = await createContactFor(email, { first_name: "Ada", last_name: "Two", phone: "(202) 555-0143" });
  await page.goto("/contacts/duplicates");
  const pairs = page.getByRole("table", { name: "Pairs of contacts that may be the same person" });
  await expect(pairs.getByRole("row")).toHaveCount(2); // the header and the pair

  // the button names the pair to a screen reader
  await page
    .getByRole("button", { name: new RegExp(`^Not a duplicate\\W+${a.email} and ${b.email}$`) })
    .click();
  await expect(page.getByText("Marked as not a duplicate")).toBeVisible();
  await expect(page.getByText("No possible duplicates")).toBeVisible();

  await page.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByText("The pair is listed again")).toBeVisible();
  await expect(pairs.getByRole("row")).toHaveCount(2);
});

test("an owner sees a saved mapping's columns and deletes it after confirming; then the empty state", async ({
  page,
}) => {
  const email = await newAccount(page);
  await withAppDb(
    (sql) => sql`
      insert into import_mappings (workspace_id, header_digest, headers, mapping)
      select m.workspace_id, repeat('a', 64), array['Correo', 'Nombre'],
             '{"correo": {"target": "field", "name": "email"}, "nombre": {"target": "skip"}}'::jsonb
      from workspace_members m join auth.users u on u.id = m.user_id where u.email = ${email}`,
  );
  await page.goto("/settings");
  await page.getByRole("link", { name: "Import mappings" }).click();
  const table = page.getByTestId("import-mappings");
  await expect(table).toContainText("Correo → Email");
  await expect(table).toContainText("Nombre → Not imported");

  await page.getByRole("button", { name: "Delete the mapping Correo, Nombre" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete mapping" }).click();
  await expect(page.getByText("No saved mappings yet")).toBeVisible();
});
