/**
 * Accounts for e2e specs. Signing up is what auth.spec.ts tests, through the UI; every other
 * spec gets its account, workspace and session from `newAccount`, directly (the app's own
 * functions on its database, the session cookie set on the browser context): seconds less per
 * account than the UI's form, confirmation email and second form. `signIn` signs in through
 * the UI where that page is part of what a spec tests.
 */
import { expect, test, type Page } from "@playwright/test";
import { createAccountRows } from "../../../lib/auth/create-account";
import { createLocalUser, normalizeEmail } from "../../../lib/auth/local-provider";
import { signSessionToken } from "../../../lib/auth/tokens";
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

/** lib/auth/session.ts's SESSION_COOKIE (that module is server-only). */
const SESSION_COOKIE = "crm_session";

/**
 * This browser context signed in as the confirmed account of `email`, with no page: the
 * session cookie the app's sign-in would set, signed as the app signs it (AUTH_SECRET,
 * helpers/session-key.ts) at the account's current session version.
 */
export async function signInDirectly(page: Page, email: string): Promise<void> {
  const [user] = await withAppDb(
    (sql) => sql`select id, email, session_version from auth.users
                 where email = ${normalizeEmail(email)} and email_confirmed_at is not null`,
  );
  if (!user) throw new Error(`no confirmed account for ${email}`);
  const token = await signSessionToken({
    id: user.id,
    email: user.email,
    sessionVersion: Number(user.session_version),
  });
  await page.context().addCookies([
    {
      name: SESSION_COOKIE,
      value: token,
      url: test.info().project.use.baseURL!,
      httpOnly: true,
      sameSite: "Lax",
    },
  ]);
}

/**
 * A confirmed account with its own workspace, made as sign-up's confirmation makes it (the
 * user with the password's hash, then lib/auth/create-account's rows), and this browser context
 * signed in as it (`signInDirectly`), on the dashboard's home page. Answers the address.
 */
export async function newAccount(
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
  const workspaceName = options.workspaceName ?? "Olive's Bakery";
  await withAppDb((sql) =>
    sql.begin(async (tx) => {
      const userId = await createLocalUser(tx as never, email, options.password ?? PASSWORD);
      await createAccountRows(tx as never, {
        userId,
        email: normalizeEmail(email),
        firstName: options.firstName ?? "Olive",
        lastName: options.lastName ?? "Owner",
        workspaceName,
      });
    }),
  );
  await signInDirectly(page, email);
  await page.goto("/");
  await expect(page.getByTestId("workspace-name")).toHaveText(workspaceName);
  return email;
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
