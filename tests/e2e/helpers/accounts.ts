/**
 * Accounts for e2e specs: sign-up now proves the address, so every spec signs up
 * here: fill /sign-up, read the confirmation link from the dev outbox (the app's
 * email_sends, through app-db), open it and confirm with the password.
 */
import { expect, type Page } from "@playwright/test";
import { withAppDb } from "./app-db";

export const PASSWORD = "correct horse battery";

/**
 * Every e2e request comes from this one machine, and sign-in, sign-up and confirmation are rate
 * limited per client address: while signing up or in, a browser context sends an
 * address of its own, as a proxy would (X-Forwarded-For, the client with TRUSTED_PROXY_HOPS=1),
 * so the specs do not share one bucket. The header is dropped afterwards: a page of another
 * origin in the same context (an embedded form) must not send it, or its CORS preflight fails.
 * 198.18.0.0/15 is reserved for benchmarking.
 */
export async function asDistinctClient<T>(page: Page, steps: () => Promise<T>): Promise<T> {
  const octet = () => Math.floor(Math.random() * 254) + 1;
  await page.context().setExtraHTTPHeaders({ "x-forwarded-for": `198.18.${octet()}.${octet()}` });
  try {
    return await steps();
  } finally {
    await page.context().setExtraHTTPHeaders({});
  }
}

export const uniqueEmail = (prefix = "owner") =>
  `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;

/** The newest link to `path` emailed to `to`, waiting for it to arrive. */
export async function emailedLink(to: string, path: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        // the embedded database serves one session: a query that meets the app's may fail; try again
        const rows = await withAppDb(
          (sql) => sql`
            select coalesce(s.text_body, e.text_body) as text_body
            from email_sends e left join email_send_secrets s on s.email_send_id = e.id
            where e.to_email = ${to.toLowerCase()} and coalesce(s.text_body, e.text_body) like ${`%${path}?token=%`}
            order by e.created_at desc limit 1`,
        ).catch(() => []);
        link = new RegExp(`https?://[^\\s]+${path}\\?token=[A-Za-z0-9_-]{43}`).exec(
          rows[0]?.text_body ?? "",
        )?.[0];
        return link;
      },
      { message: `a ${path} link emailed to ${to}` },
    )
    .toBeTruthy();
  // the app's own address may differ in host from the test's baseURL: keep only path and query
  const url = new URL(link!);
  return `${url.pathname}${url.search}`;
}

/** Signs up through /sign-up, confirms through the emailed link, lands in the new workspace. */
export async function signUp(
  page: Page,
  options: {
    email?: string;
    workspaceName?: string;
    firstName?: string;
    lastName?: string;
    password?: string;
  } = {},
): Promise<string> {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? PASSWORD;
  await asDistinctClient(page, async () => {
    await page.goto("/sign-up");
    await page.getByLabel("First name").fill(options.firstName ?? "Olive");
    await page.getByLabel("Last name").fill(options.lastName ?? "Owner");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByLabel("Workspace name").fill(options.workspaceName ?? "Olive's Bakery");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText(`we sent a link to ${email.toLowerCase()}`)).toBeVisible();
    await confirmEmail(page, email, password);
  });
  if (options.workspaceName)
    await expect(page.getByTestId("workspace-name")).toHaveText(options.workspaceName);
  return email;
}

/** Opens the confirmation link emailed to `email` and finishes sign-up with the password. */
export async function confirmEmail(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto(await emailedLink(email, "/confirm-email"));
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Confirm and sign in" }).click();
  await expect(page).toHaveURL(/:\d+\/$/);
}

export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await asDistinctClient(page, async () => {
    await page.goto("/sign-in");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/:\d+\/$/);
  });
}
