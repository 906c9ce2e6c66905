import { expect, test } from "@playwright/test";
import { newAccount } from "./helpers/accounts";
import { withAppDb } from "./helpers/app-db";

/** A ticketing delivery that failed its last attempt: the inbox row 'dead', its job failed. */
async function deadDelivery(ownerEmail: string): Promise<void> {
  await withAppDb(async (sql) => {
    const [{ workspace_id: workspaceId }] = await sql`
      select m.workspace_id from workspace_members m join user_profiles p on p.id = m.user_id
      where p.email = ${ownerEmail}`;
    const [inbox] = await sql`
      insert into webhook_inbox (provider, event_id, event_type, workspace_id, payload, status, attempts, last_error)
      values ('ticketing', ${`e2e-${Date.now()}`}, 'order.placed', ${workspaceId},
              ${sql.json({ api_url: "https://www.eventbriteapi.com/v3/orders/1/", config: { action: "order.placed", webhook_id: "gone" } })},
              'dead', 10, 'Eventbrite GET …: 503')
      returning id`;
    await sql`
      insert into pgboss.job (name, data, state, retry_count, retry_limit, output)
      values ('ticketing-delivery', ${sql.json({ workspaceId, inboxId: inbox.id })}, 'failed', 9, 9,
              ${sql.json({ message: "Eventbrite GET https://www.eventbriteapi.com/v3/orders/1/: 503" })})`;
  });
}

test("jobs: a dead job shows on the jobs page with its error, and Retry runs it again", async ({ page }) => {
  const email = await newAccount(page);
  await deadDelivery(email);
  await page.getByRole("link", { name: "Jobs" }).click();
  await expect(page.getByRole("heading", { name: "Jobs" })).toBeVisible();
  const row = page.getByTestId("job-row");
  await expect(row).toContainText("Ticketing delivery");
  await expect(row).toContainText("Dead");
  await expect(row).toContainText("10 of 10");
  await expect(row).toContainText("503");
  await row.getByRole("button", { name: "Retry" }).click();
  // the worker runs it once more: its connection is gone, so the delivery is ignored and done
  await expect(async () => {
    await page.reload();
    await expect(page.getByText("No jobs waiting, running or failed.")).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
});
