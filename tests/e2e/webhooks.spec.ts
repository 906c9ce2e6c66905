import { mkdir } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { newAccount } from "./helpers/accounts";
import { withAppDb } from "./helpers/app-db";

// Screenshots for people (not asserted): written only when E2E_SCREENS_DIR is set.
const screens = process.env.E2E_SCREENS_DIR;
async function shot(page: Page, name: string) {
  if (!screens) return;
  await mkdir(screens, { recursive: true });
  await page.screenshot({ path: `${screens}/${name}.png`, fullPage: true });
}

test("outbound webhooks: an endpoint receives a signed test event and a contact.created, and the delivery log shows both", async ({
  page,
}) => {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ received: true }));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  try {
    await newAccount(page, { workspaceName: "Hooked Bakery" });
    await page.goto("/settings/webhooks");
    await page.getByLabel("Endpoint URL").fill("https://hooks.example.test/crm");
    await page.getByLabel("Description (optional)").fill("Our order system");
    await page.getByLabel("contact.created").check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const secret = await page.getByTestId("webhook-secret").inputValue();
    expect(secret).toMatch(/^whsec_/);

    // The app runs as in production, where the form takes only public https addresses; the
    // receiver is on this machine, so the stored URL is pointed at it (the worker may reach it:
    // scripts/e2e-server.ts sets WEBHOOKS_ALLOW_PRIVATE_DESTINATIONS=1).
    const local = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/crm`;
    const [{ id }] = await withAppDb(
      (sql) => sql`update webhook_endpoints set url = ${local}
                   where url = 'https://hooks.example.test/crm'
                     and workspace_id in (select id from workspaces where name = 'Hooked Bakery')
                   returning id`,
    );

    await page.goto(`/settings/webhooks/${id}`);
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByText("Test event queued")).toBeVisible();
    await page.goto("/contacts/new");
    await page.getByLabel("Email", { exact: true }).fill("ada@example.test");
    await page.getByRole("button", { name: "Create contact" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

    await expect.poll(() => received.length, { message: "two deliveries received" }).toBe(2);
    const events = received.map((r) =>
      new Webhook(secret).verify(r.body, r.headers as Record<string, string>),
    );
    expect(events.map((e) => (e as { type: string }).type).sort()).toEqual([
      "contact.created",
      "webhook.test",
    ]);

    // the worker records each attempt after the receiver's answer
    await expect
      .poll(
        async () =>
          (
            await withAppDb(
              (sql) => sql`select count(*)::int as n from webhook_deliveries
                           where endpoint_id = ${id} and status = 'succeeded'`,
            ).catch(() => [{ n: 0 }])
          )[0].n,
        { message: "both deliveries logged as succeeded" },
      )
      .toBe(2);
    await page.goto(`/settings/webhooks/${id}`);
    const log = page.getByRole("table");
    await expect(log.getByText("succeeded", { exact: true })).toHaveCount(2);
    await expect(log.locator("code", { hasText: /^contact\.created$/ })).toBeVisible();
    await expect(log.locator("code", { hasText: /^webhook\.test$/ })).toBeVisible();
    // the newest delivery's body and the receiver's answer, as a reader would open them
    await log.getByText("Body and answer").first().click();
    await expect(log.getByText('{"received":true}').first()).toBeVisible();
    await shot(page, "delivery-log");
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }
});
