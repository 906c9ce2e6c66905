import { mkdir, readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { newAccount } from "./helpers/accounts";

// Screenshots for people (not asserted): written only when E2E_SCREENS_DIR is set.
const screens = process.env.E2E_SCREENS_DIR;
async function shot(page: Page, name: string) {
  if (!screens) return;
  await mkdir(screens, { recursive: true });
  await page.screenshot({ path: `${screens}/${name}.png`, fullPage: true });
}

test("audit log: an owner's tag changes are in the audit log with their email and IP, filterable and exported as CSV", async ({
  page,
}) => {
  const email = await newAccount(page, { workspaceName: "Audited Bakery" });
  // every request from here on comes through a proxy that names the client (TRUSTED_PROXY_HOPS=1)
  await page.context().setExtraHTTPHeaders({ "x-forwarded-for": "198.51.100.23" });

  await page.goto("/contacts/tags");
  await page.getByLabel("New tag").fill("VIP");
  await page.getByRole("button", { name: "Create tag" }).click();
  await expect(page.getByText("Tag 'VIP' created.")).toBeVisible();
  await page.getByLabel("Name of tag VIP").fill("Gold");
  await page.getByRole("button", { name: "Rename" }).click();
  await expect(page.getByText("Renamed to 'Gold'.")).toBeVisible();

  // from the settings index, where only owners see it
  await page.goto("/settings");
  await page.getByRole("link", { name: "Audit log" }).click();
  await expect(page).toHaveURL(/\/settings\/audit$/);
  const rows = page.getByTestId("audit-row");
  const created = rows.filter({ hasText: "tag.created" });
  await expect(created).toHaveCount(1);
  await expect(created).toContainText(email.toLowerCase());
  await expect(created).toContainText("name: VIP");
  await expect(created).toContainText("198.51.100.23");
  await expect(rows.filter({ hasText: "tag.renamed" })).toContainText("name: Gold");

  // filter by action: one action, then a target's actions that did not happen
  await page.getByLabel("Action").selectOption("tag.created");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/action=tag\.created/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("tag.created");
  await page.getByLabel("Action").selectOption({ label: "Every contact action" });
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("No audited action matches these filters.")).toBeVisible();

  // the export carries the filters of the page
  await page.getByLabel("Action").selectOption("tag.created");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(rows).toHaveCount(1);
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const csv = await readFile((await (await download).path())!, "utf8");
  const lines = csv.trimEnd().split("\r\n");
  expect(lines[0]).toBe("time,actor_email,actor_id,action,target_type,target_id,change,before,after,ip");
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(`,${email.toLowerCase()},`);
  expect(lines[1]).toContain(",tag.created,tag,");
  expect(lines[1].endsWith(",198.51.100.23")).toBe(true);

  // the export is in the log too
  await page.goto("/settings/audit?action=audit.exported");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("action: tag.created");
  await page.goto("/settings/audit");
  await expect(rows).toHaveCount(3);
  await shot(page, "audit-log");
});
