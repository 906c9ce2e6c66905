import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { newAccount } from "./helpers/accounts";

const port = process.env.E2E_PORT ?? "3100";

/** The fake Stripe server started beside the app (tests/fakes/index.ts writes its address). */
async function stripeFake(): Promise<string> {
  const file = path.join(process.cwd(), ".data", `fakes-${port}.json`);
  const env = JSON.parse(await readFile(file, "utf8")) as Record<string, string>;
  return env.STRIPE_API_BASE;
}

/** Asks the fake for an event, then delivers it to the app's webhook as Stripe would. */
async function deliverFromFake(request: APIRequestContext, control: string, body: unknown) {
  const made = await request.post(`${await stripeFake()}/__control/${control}`, { data: body });
  expect(made.ok()).toBeTruthy();
  const { payload, header, event } = await made.json();
  const delivered = await request.post("/api/webhooks/payproc", {
    headers: { "stripe-signature": header, "content-type": "application/json" },
    data: payload,
  });
  expect(delivered.status()).toBe(200);
  return event;
}

async function signUpAndConnect(page: Page): Promise<string> {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  await newAccount(page, {
    email: `paula-${stamp}@example.test`,
    firstName: "Paula",
    lastName: "Payments",
    workspaceName: "Paula's Shop",
  });

  // the account comes from Stripe Connect (the fake approves at once), never typed
  await page.goto("/settings/payments");
  await page.getByRole("button", { name: "Connect with Stripe" }).click();
  await expect(page).toHaveURL(/\/settings\/payments\?connected=1$/);
  await expect(page.getByText("Connected to Stripe.")).toBeVisible();
  const account = (await page.getByTestId("connected-account").textContent())!.trim();
  expect(account).toMatch(/^acct_/);
  return account;
}

test("record a partial refund on a contact's transaction and see the feed change", async ({
  page,
  request,
}) => {
  const account = await signUpAndConnect(page);
  const email = `buyer-${Date.now()}@example.test`;
  await deliverFromFake(request, "checkout", {
    account,
    email,
    name: "Bea Buyer",
    items: [
      { name: "Workshop", amountTotal: 5000 },
      { name: "Book", amountTotal: 2500 },
    ],
  });

  await page.goto("/payments");
  await page.getByRole("link", { name: "Bea Buyer" }).first().click();
  const feed = page.getByTestId("transactions-feed");
  const workshop = feed.getByRole("row", { name: /Workshop/ });
  await expect(workshop).toContainText("$50.00");
  await expect(workshop).toContainText("Paid");

  // more than what is left is refused, with the reason
  await workshop.getByRole("button", { name: "Record refund for Workshop" }).click();
  const dialog = page.getByRole("dialog", { name: "Record a refund for Workshop" });
  await dialog.getByLabel("Amount refunded (dollars)").fill("50.01");
  await dialog.getByRole("button", { name: "Record refund" }).click();
  await expect(
    dialog.getByText("The refund cannot be more than the remaining balance of $50.00."),
  ).toBeVisible();

  await dialog.getByLabel("Amount refunded (dollars)").fill("12.50");
  await dialog.getByRole("button", { name: "Record refund" }).click();
  await expect(dialog).toBeHidden();
  await expect(workshop).toContainText("Partly refunded ($12.50)");
  await expect(workshop).toContainText("$37.50 left");
  await expect(feed.getByRole("row", { name: /Book/ })).toContainText("Paid");

  // reverting asks first
  await workshop.getByRole("button", { name: "Revert refund for Workshop" }).click();
  const confirm = page.getByRole("dialog", { name: "Revert the refund of $12.50?" });
  await confirm.getByRole("button", { name: "Revert refund" }).click();
  await expect(workshop).not.toContainText("Partly refunded");
  await expect(workshop).toContainText("Paid");
});

test("a refund that matches no product becomes a review task; completing it keeps the note", async ({
  page,
  request,
}) => {
  const account = await signUpAndConnect(page);
  const checkout = await deliverFromFake(request, "checkout", {
    account,
    email: `reviewer-${Date.now()}@example.test`,
    items: [
      { name: "Poster", amountTotal: 3000 },
      { name: "Mug", amountTotal: 1500 },
    ],
  });
  await deliverFromFake(request, "refund", {
    paymentIntent: checkout.data.object.payment_intent,
    amount: 700,
  });

  await page.goto("/tasks");
  const task = page.getByTestId("open-task").filter({ hasText: "Review a refund of $7.00" });
  await expect(task).toContainText("Options:");
  await expect(task).toContainText(/Due \d{1,2} \w{3} \d{4}/); // lib/time DATE_FORMATS.date
  await task.getByLabel("Closing note").fill("Refunded shipping on the poster.");
  await task.getByRole("button", { name: /Mark complete/ }).click();
  const done = page.getByTestId("completed-task").filter({ hasText: "Review a refund of $7.00" });
  await expect(done).toContainText("Completed: Refunded shipping on the poster.");
  await expect(page.getByTestId("open-task")).toHaveCount(0);
});
