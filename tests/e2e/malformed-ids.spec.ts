import { expect, test } from "@playwright/test";
import { newAccount } from "./helpers/accounts";

// A malformed id in a page's URL is "not found" (lib/ids), never a query that fails: these pages
// used to accept any 36 characters of hex digits and dashes, so 36 dashes reached a uuid column
// and Postgres's refusal became a 500.
const DASHES = "-".repeat(36);

test("36 dashes where a page takes an id are a 404, not a 500", async ({ page }) => {
  await newAccount(page, { workspaceName: "Ids" });

  for (const path of [
    `/events/${DASHES}`,
    `/events/${DASHES}/edit`,
    `/contacts/${DASHES}/edit`,
    `/contacts/${DASHES}`,
    `/payments/contacts/${DASHES}`,
  ]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
  }
});
