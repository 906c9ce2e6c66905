import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, test } from "vitest";
import SubscribeConfirmedPage from "@/app/subscribe/confirmed/page";
import SubscribeErrorPage from "@/app/subscribe/error/page";
import SubscribePage from "@/app/subscribe/[contactId]/page";
import UnsubscribePage from "@/app/unsubscribe/[contactId]/page";
import VerifiedPage from "@/app/verified/page";
import RsvpPage from "@/app/rsvp/[eventId]/page";
import ClaimPage from "@/app/rsvp/[eventId]/claim/page";
import { GET as verify } from "@/app/api/forms/verify/route";
import { createTopic } from "@/lib/consent/topics";
import { signLink } from "@/lib/crypto/signed-link";
import { withService } from "@/lib/db/doors";
import { rsvpConfirmationEmail } from "@/lib/events/rsvp/rsvp-confirmation-email";
import type { EventRow } from "@/lib/events/event-row";
import { offerEmail, offerTokenHash } from "@/lib/events/waitlist/offers";
import { verificationEmail } from "@/lib/forms/verification-email";
import { LOCALES, type Locale } from "@/lib/i18n/locales";
import { documentLocale } from "@/lib/i18n/flows/page-locale";
import { RECIPIENT_LANG_HEADER, RECIPIENT_PATH_HEADER } from "@/lib/i18n/recipient-paths";
import { MESSAGES, translator } from "@/lib/i18n/translator";
import { parse, TYPE } from "@formatjs/icu-messageformat-parser";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace } from "../helpers/factories";

/**
 * CI guard of the recipient languages (DESIGN.md section 9; docs/decisions.md, "Recipient
 * languages"): every recipient page (its server component or handler) and system email is rendered
 * in each shipped language and must show neither a raw catalogue key nor an English text where the
 * language has its own.
 */
const db = setupTestDatabase();
const session = (globalThis as { testSession?: { headers: Headers } }).testSession!;

beforeAll(() => {
  process.env.APP_URL = "http://crm.test";
  delete process.env.RESEND_API_KEY;
});

const KEYS = Object.keys(MESSAGES.en);

/** The English texts a page in `locale` must not show: the literal runs of messages translated there. */
function englishOnly(locale: Locale): string[] {
  if (locale === "en") return [];
  const runs = new Set<string>();
  for (const [key, english] of Object.entries(MESSAGES.en)) {
    if (MESSAGES[locale][key] === english) continue; // the same in both ("Website", "Name")
    const walk = (elements: ReturnType<typeof parse>) => {
      for (const element of elements) {
        if (element.type === TYPE.literal) {
          const text = element.value.trim();
          if (text.length >= 12) runs.add(text);
        } else if (element.type === TYPE.tag) walk(element.children);
        else if (element.type === TYPE.plural || element.type === TYPE.select)
          for (const option of Object.values(element.options)) walk(option.value);
      }
    };
    walk(parse(english));
  }
  return [...runs];
}

/** The text of rendered HTML, entities decoded, as a reader sees it. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

function expectTranslated(html: string, locale: Locale, where: string) {
  const text = textOf(html);
  const rawKeys = KEYS.filter((key) => html.includes(key));
  expect({ where, locale, rawKeys }).toEqual({ where, locale, rawKeys: [] });
  // a raw key of any catalogue's shape (`rsvp.errors.email`) never shows
  const shaped = (text.match(/\b[a-z]+\.[a-zA-Z_]+\.[a-zA-Z_.]+\b/g) ?? []).filter((m) => KEYS.includes(m));
  expect({ where, locale, shaped }).toEqual({ where, locale, shaped: [] });
  const english = englishOnly(locale).filter((run) => text.includes(run));
  expect({ where, locale, english }).toEqual({ where, locale, english: [] });
}

const render = async (page: Promise<ReactElement> | ReactElement) => renderToStaticMarkup(await page);

let fixtures: {
  workspaceId: string;
  contactId: string;
  signature: string;
  blockedId: string;
  subscribedId: string;
  eventId: string;
  offerToken: string;
};

beforeAll(async () => {
  const ws = await createWorkspace(db.sql, { name: "Kino am Fluss" });
  await withService((tx) =>
    createTopic(tx, { workspaceId: ws.id, key: "news", name: "News", description: "", defaultOn: true }),
  );
  const contact = await createContact(db.sql, ws.id);
  const blocked = await createContact(db.sql, ws.id, { unsubscribed_at: new Date() });
  await db.sql`insert into contact_suppressions (contact_id, reason) values (${blocked.id}, 'bounce')`;
  const subscribed = await createContact(db.sql, ws.id);
  await db.sql`update contacts set is_subscribed = true where id = ${subscribed.id}`;
  const [event] = await db.sql`
    insert into events (workspace_id, name, start_time, end_time, timezone, is_published, location, capacity)
    values (${ws.id}, 'Open house', ${new Date(Date.now() + 86_400_000)}, ${new Date(Date.now() + 90_000_000)},
            'Europe/Paris', true, 'Hall 1', 40)
    returning id`;
  // a waitlist offer open on the event: its claim page shows the held seat
  const offerToken = "o".repeat(43);
  const waiting = await createContact(db.sql, ws.id);
  await db.sql`insert into event_registrations (workspace_id, event_id, contact_id, status, offered_at, offer_expires_at, offer_token_hash)
               values (${ws.id}, ${event.id}, ${waiting.id}, 'offered', now(), now() + interval '1 day', ${offerTokenHash(offerToken)})`;
  fixtures = {
    offerToken,
    workspaceId: ws.id,
    contactId: contact.id,
    signature: signLink("preferences", { workspaceId: ws.id, contactId: contact.id }),
    blockedId: blocked.id,
    subscribedId: subscribed.id,
    eventId: event.id,
  };
});

describe.each(LOCALES)(
  "every recipient page in %s shows no raw key and no untranslated English",
  (locale) => {
    const lang = locale;
    const contact = (contactId: string, extra: Record<string, string> = {}) => ({
      params: Promise.resolve({ contactId }),
      searchParams: Promise.resolve({ lang, ...extra }),
    });

    test("/unsubscribe/{contact_id} with the preference centre", async () => {
      const html = await render(UnsubscribePage(contact(fixtures.contactId, { sig: fixtures.signature })));
      expect(html).toContain(MESSAGES[locale]["preferences.save"]);
      expectTranslated(html, locale, "unsubscribe");
    });

    test("/unsubscribe/{contact_id} with a link that is not valid", async () => {
      const html = await render(UnsubscribePage(contact("00000000-0000-4000-8000-000000000000")));
      expect(html).toContain(MESSAGES[locale]["unsubscribe.invalidTitle"]);
      expectTranslated(html, locale, "unsubscribe invalid");
    });

    test("/subscribe/{contact_id}: the question, the bounced address, the subscribed one", async () => {
      for (const id of [fixtures.contactId, fixtures.blockedId, fixtures.subscribedId]) {
        const html = await render(SubscribePage(contact(id)));
        expectTranslated(html, locale, `subscribe ${id}`);
      }
    });

    test("/subscribe/confirmed, /subscribe/error (each reason) and /verified", async () => {
      const only = { searchParams: Promise.resolve({ lang }) };
      expectTranslated(await render(SubscribeConfirmedPage(only)), locale, "confirmed");
      expectTranslated(await render(VerifiedPage(only)), locale, "verified");
      for (const reason of ["not_found", "complaint", "bounce", "<script>"]) {
        const html = await render(SubscribeErrorPage({ searchParams: Promise.resolve({ reason, lang }) }));
        expectTranslated(html, locale, `subscribe error ${reason}`);
      }
    });

    test("/rsvp/{event_id}: the form, each outcome and each refusal", async () => {
      const page = (query: Record<string, string>, eventId = fixtures.eventId) =>
        render(
          RsvpPage({
            params: Promise.resolve({ eventId }),
            searchParams: Promise.resolve({ lang, ...query }),
          }),
        );
      const form = await page({});
      expect(form).toContain(MESSAGES[locale]["rsvp.addToCalendar"]);
      expectTranslated(form, locale, "rsvp");
      for (const query of [
        { status: "registered" },
        { status: "already" },
        ...["email", "first_name", "last_name", "phone", "rate_limited", "invalid", "event_full", "???"].map(
          (error) => ({ error }),
        ),
      ])
        expectTranslated(await page(query), locale, `rsvp ${JSON.stringify(query)}`);
      expectTranslated(await page({}, "00000000-0000-4000-8000-000000000000"), locale, "rsvp unknown event");
    });

    test("/rsvp/{event_id}/claim: the held seat and each refusal", async () => {
      const page = (query: Record<string, string>) =>
        render(
          ClaimPage({
            params: Promise.resolve({ eventId: fixtures.eventId }),
            searchParams: Promise.resolve({ lang, ...query }),
          }),
        );
      const held = await page({ token: fixtures.offerToken });
      expect(held).toContain(MESSAGES[locale]["waitlist.claimButton"]);
      expectTranslated(held, locale, "claim");
      for (const query of [
        { token: "x".repeat(43) },
        ...["offer_used", "offer_expired", "not_found", "__proto__"].map((error) => ({ error })),
      ])
        expectTranslated(await page(query), locale, `claim ${JSON.stringify(query)}`);
    });

    test("the verify link's pages (unknown token) carry the language in <html lang>", async () => {
      const res = await verify(new Request(`http://crm.test/api/forms/verify?token=nope&lang=${lang}`));
      expect(res.status).toBe(404);
      const html = await res.text();
      expect(html).toContain(`<html lang="${locale}">`);
      expectTranslated(html, locale, "verify unknown");
    });

    test("the system emails: double opt-in, RSVP confirmation and waitlist offer", async () => {
      const t = translator(locale, "Europe/Paris");
      const optIn = verificationEmail({ workspaceName: "Kino", formName: "Newsletter", token: "tok", t });
      const [event] = await db.sql<EventRow[]>`select * from events where id = ${fixtures.eventId}`;
      const rsvp = rsvpConfirmationEmail(event, "Ana", t);
      const offer = offerEmail(event, "Ana", "http://crm.test/rsvp/e/claim?token=t", new Date(), t);
      for (const [name, email] of [
        ["verification", optIn],
        ["rsvp", rsvp],
        ["waitlist offer", offer],
      ] as const) {
        expectTranslated(`${email.subject}\n${email.text}`, locale, `${name} email text`);
        expectTranslated(email.html, locale, `${name} email html`);
      }
    });
  },
);

describe("<html lang> of a recipient page is its language", () => {
  test("the layout reads the path and ?lang= the proxy hands it, and the contact's locale", async () => {
    await db.sql`update contacts set locale = 'fr' where id = ${fixtures.contactId}`;
    session.headers = new Headers({ [RECIPIENT_PATH_HEADER]: `/unsubscribe/${fixtures.contactId}` });
    expect(await documentLocale()).toBe("fr");
    session.headers = new Headers({
      [RECIPIENT_PATH_HEADER]: `/unsubscribe/${fixtures.contactId}`,
      [RECIPIENT_LANG_HEADER]: "es",
    });
    expect(await documentLocale()).toBe("es");
    session.headers = new Headers({
      [RECIPIENT_PATH_HEADER]: "/verified",
      "accept-language": "de-CH, en;q=0.5",
    });
    expect(await documentLocale()).toBe("de");
    // not a recipient page: the dashboard stays English whatever the browser says
    session.headers = new Headers({ [RECIPIENT_PATH_HEADER]: "/contacts", "accept-language": "de" });
    expect(await documentLocale()).toBe("en");
    session.headers = new Headers({ "accept-language": "de" });
    expect(await documentLocale()).toBe("en");
    session.headers = new Headers();
  });
});

test("a page component returns markup React can render (guards createElement use above)", () => {
  expect(renderToStaticMarkup(createElement("p", null, "ok"))).toBe("<p>ok</p>");
});
