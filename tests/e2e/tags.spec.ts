import { expect, test } from "@playwright/test";
import { newAccount } from "./helpers/accounts";

test("tags page: a tag is created, renamed, and deleted only after its confirmation", async ({ page }) => {
  await newAccount(page, { workspaceName: "Tagged Florist" });
  await page.goto("/contacts/tags");
  await expect(page.getByText("No tags yet.")).toBeVisible();

  for (const name of ["Wholesale", "Weddings"]) {
    await page.getByLabel("New tag").fill(name);
    await page.getByRole("button", { name: "Create tag" }).click();
    await expect(page.getByText(`Tag '${name}' created.`)).toBeVisible();
  }
  await expect(page.getByRole("heading", { name: "2 tags" })).toBeVisible();

  const rowOf = (name: string) =>
    page.getByRole("listitem").filter({ has: page.getByLabel(`Name of tag ${name}`) });
  const weddings = rowOf("Weddings");
  await weddings.getByLabel("Name of tag Weddings").fill("Events");
  await weddings.getByRole("button", { name: "Rename" }).click();
  await expect(page.getByText("Renamed to 'Events'.")).toBeVisible();
  await expect(rowOf("Events").getByRole("link", { name: "Contacts" })).toHaveAttribute(
    "href",
    /^\/contacts\?tagIds=[0-9a-f-]{36}$/,
  );

  // the delete asks first; Cancel keeps the tag
  const row = rowOf("Wholesale");
  await row.getByRole("button", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete the tag Wholesale?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByLabel("Name of tag Wholesale")).toBeVisible();

  await row.getByRole("button", { name: "Delete" }).click();
  await dialog.getByRole("button", { name: "Delete tag" }).click();
  await expect(page.getByLabel("Name of tag Wholesale")).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "1 tag" })).toBeVisible();
  await expect(page.getByLabel("Name of tag Events")).toBeVisible();
});
