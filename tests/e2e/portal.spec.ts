import { createRequire } from "node:module";
import { expect, test, type Page } from "@playwright/test";
import { IntlMessageFormat } from "intl-messageformat";
import { asDistinctClient, emailedLink, newAccount } from "./helpers/accounts";
import { createContactFor, withAppDb } from "./helpers/app-db";

// The contact portal (DESIGN.md section 9, "Portal and languages"; docs/decisions.md, "Portal sessions"):
// a contact asks for a link, opens it from the dev outbox, corrects a postal code, leaves one topic,
// cancels an RSVP, downloads a receipt and their data, and signs out; in English, and in German by
// Accept-Language (and in Spanish and French, so axe has seen the portal's pages in all four languages);
// axe finds nothing on them.
type Catalogue = { [key: string]: string | Catalogue };
type Shipped = "en" | "es" | "fr" | "de";
const load = createRequire(import.meta.url);
const CATALOGUES: Record<Shipped, Catalogue> = {
  en: load("../../messages/en.json"),
  es: load("../../messages/es.json"),
  fr: load("../../messages/fr.json"),
  de: load("../../messages/de.json"),
};

/** A message of the catalogue the page should be in, formatted as the app formats it. */
function msg(locale: Shipped, key: string, values: Record<string, string | number> = {}): string {
  const text = key
    .split(".")
    .reduce<Catalogue | string>((node, part) => (node as Catalogue)[part], CATALOGUES[locale]);
  return String(new IntlMessageFormat(text as string, locale).format(values));
}

/** axe-core's rules on the page's main region: the violations' rule ids (tests/e2e/phone-layout.spec.ts). */
async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: createRequire(import.meta.url).resolve("axe-core/axe.min.js") });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (c: unknown) => Promise<{ violations: { id: string }[] }> } }
    ).axe;
    const { violations } = await axe.run({ include: ["main"] });
    return violations.map((v) => v.id);
  });
}

async function arrange(page: Page) {
  const owner = await newAccount(page);
  const contact = await createContactFor(owner, {
    postal_code: "10115",
    is_subscribed: true,
    opt_in_timestamp: new Date(),
    opt_in_source: "Form",
  });
  return withAppDb(async (sql) => {
    const [{ workspace_id: workspaceId, name }] = await sql`
      select c.workspace_id, w.name from contacts c join workspaces w on w.id = c.workspace_id where c.id = ${contact.id}`;
    const topics = await sql`
      insert into email_topics (workspace_id, key, name)
      values (${workspaceId}, 'news', 'News'), (${workspaceId}, 'events', 'Events') returning id, key`;
    for (const topic of topics)
      await sql`insert into contact_topics (workspace_id, contact_id, topic_id, subscribed)
                values (${workspaceId}, ${contact.id}, ${topic.id}, true)
                on conflict on constraint contact_topics_pkey do update set subscribed = true`;
    const [event] = await sql`
      insert into events (workspace_id, name, start_time, is_published)
      values (${workspaceId}, 'Gala', now() + interval '10 days', true) returning id`;
    const [registration] = await sql`
      insert into event_registrations (workspace_id, event_id, contact_id) values (${workspaceId}, ${event.id}, ${contact.id})
      returning id`;
    const [product] =
      await sql`insert into products (workspace_id, name) values (${workspaceId}, 'Gala ticket') returning id`;
    await sql`insert into transactions (workspace_id, contact_id, product_id, amount_paid, currency)
              values (${workspaceId}, ${contact.id}, ${product.id}, 25, 'eur')`;
    const events = topics.find((t) => t.key === "events")!;
    return {
      workspaceId,
      workspace: name as string,
      contact,
      registrationId: registration.id,
      eventsTopic: events.id,
    };
  });
}

async function journey(page: Page, locale: Shipped) {
  const world = await arrange(page);
  const { workspaceId, workspace, contact } = world;
  const t = (key: string, values: Record<string, string | number> = {}) => msg(locale, key, values);
  await page.context().clearCookies(); // the contact is not the member who arranged the world

  await asDistinctClient(page, async () => {
    await page.goto(`/portal/${workspaceId}`);
    await expect(page.getByRole("heading", { name: t("portal.title", { workspace }) })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel(t("portal.signIn.email")).fill(contact.email);
    await page.getByRole("button", { name: t("portal.signIn.submit") }).click();
    await expect(page.getByRole("status")).toHaveText(t("portal.signIn.sent", { workspace }));
  });

  const link = await emailedLink(contact.email, `/portal/${workspaceId}/enter`);
  const [email] = await withAppDb(
    (sql) =>
      sql`select subject from email_sends where to_email = ${contact.email} order by created_at desc limit 1`,
  );
  expect(email.subject).toBe(t("portal.linkEmail.subject", { workspace }));
  await page.goto(link);
  await expect(page.getByRole("heading", { name: t("portal.enter.title", { workspace }) })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await page.getByRole("button", { name: t("portal.enter.submit") }).click();
  await expect(page.getByText(t("portal.me.signedInAs", { email: contact.email }))).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  // a postal code corrected (spec 4.10, the contact as the actor)
  await page.getByLabel(t("portal.details.postal_code")).fill("10117");
  await page.getByRole("button", { name: t("portal.details.save") }).click();
  await expect(page.locator("#notice")).toHaveText(t("portal.notice.details"));
  const postal = await withAppDb((sql) => sql`select postal_code from contacts where id = ${contact.id}`);
  expect(postal[0].postal_code).toBe("10117");

  // one topic left, with its ledger entry
  await page.getByRole("checkbox", { name: "Events" }).uncheck();
  await page.getByRole("button", { name: t("portal.topics.save") }).click();
  await expect(page.locator("#notice")).toHaveText(t("portal.notice.topics"));
  const topics = await withAppDb(
    (sql) =>
      sql`select topic_id, subscribed from contact_topics where contact_id = ${contact.id} and not subscribed`,
  );
  expect(topics.map((r) => r.topic_id)).toEqual([world.eventsTopic]);

  // the RSVP cancelled
  await page.getByRole("button", { name: t("portal.registrations.cancel", { event: "Gala" }) }).click();
  await expect(page.locator("#notice")).toHaveText(t("portal.notice.rsvpCancelled"));
  const [registration] = await withAppDb(
    (sql) => sql`select status from event_registrations where id = ${world.registrationId}`,
  );
  expect(registration.status).toBe("cancelled");

  // a receipt and the data export downloaded
  const receipt = page.waitForEvent("download");
  await page.getByRole("link", { name: t("portal.purchases.receipt", { item: "Gala ticket" }) }).click();
  expect((await receipt).suggestedFilename()).toMatch(/^receipt-.*\.txt$/);
  const data = page.waitForEvent("download");
  await page.getByRole("link", { name: t("portal.data.export") }).click();
  expect((await data).suggestedFilename()).toMatch(/^my-data-\d{4}-\d{2}-\d{2}\.zip$/);

  // signed out: the session is revoked, its page is the sign-in page again
  await page.getByRole("button", { name: t("portal.signOut"), exact: true }).click();
  await expect(page.getByRole("status")).toHaveText(t("portal.signIn.signedOut"));
  await page.goto(`/portal/${workspaceId}/me`);
  await expect(page.getByRole("status")).toHaveText(t("portal.signIn.expired"));
  // the link works once
  await page.goto(link);
  await expect(page.getByRole("heading", { name: t("portal.invalidLink.title") })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  const audit = await withAppDb(
    (sql) =>
      sql`select action from audit_log where target_id = ${contact.id} and action like 'contact.portal%' order by id`,
  );
  expect(audit.map((r) => r.action)).toEqual([
    "contact.portal_link_sent",
    "contact.portal_signed_in",
    "contact.portal_details_corrected",
    "contact.portal_topics_changed",
    "contact.portal_rsvp_cancelled",
    "contact.portal_receipt_downloaded",
    "contact.portal_exported",
    "contact.portal_signed_out",
  ]);
}

test("DESIGN.md section 9: the contact signs in by link, corrects a postal code, leaves a topic, cancels an RSVP, downloads a receipt and their data, and signs out", async ({
  page,
}) => {
  await journey(page, "en");
});

test.describe("in German (Accept-Language: de)", () => {
  test.use({ locale: "de-DE" });
  test("the same journey sees German on every page and in the link email", async ({ page }) => {
    await journey(page, "de");
  });
});

for (const [locale, language] of [
  ["es", "Spanish"],
  ["fr", "French"],
] as const)
  test.describe(`in ${language} (Accept-Language: ${locale})`, () => {
    test.use({ locale });
    test("the same journey, every page in the language and without an accessibility violation", async ({
      page,
    }) => {
      await journey(page, locale);
    });
  });
