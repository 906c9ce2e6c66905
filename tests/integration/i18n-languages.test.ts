import { beforeAll, describe, expect, test } from "vitest";
import { POST as rsvpPost } from "@/app/api/rsvp/[eventId]/route";
import * as contacts from "@/app/api/v1/contacts/route";
import * as one from "@/app/api/v1/contacts/[id]/route";
import { withService } from "@/lib/db/doors";
import { appUrl } from "@/lib/config";
import { setWorkspaceDefaultLocale } from "@/lib/workspaces/default-locale";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace } from "../helpers/factories";
import {
  createForm,
  openVerifyLink,
  randomIp,
  storedCounts,
  submit,
  verificationLink,
} from "../helpers/forms";
import { apiKey, call } from "../helpers/api-v1";

/**
 * Recipient languages (DESIGN.md section 9; docs/decisions.md, "Recipient languages"): the language
 * is `?lang=`, then the contact's locale, then `Accept-Language`, then the workspace's default; the
 * English texts stay the spec's; a language not shipped falls back without an error.
 */
const db = setupTestDatabase();

beforeAll(() => {
  process.env.APP_URL = "http://crm.test";
  delete process.env.RESEND_API_KEY;
});

async function createEvent(workspaceId: string, name = "Open house") {
  const [event] = await db.sql`
    insert into events (workspace_id, name, start_time, end_time, timezone, is_published, location)
    values (${workspaceId}, ${name}, ${new Date("2031-06-01T16:00:00Z")}, ${new Date("2031-06-01T18:00:00Z")},
            'Europe/Paris', true, 'Salle 2')
    returning id`;
  return event.id as string;
}

function rsvp(
  eventId: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
  query = "",
) {
  return rsvpPost(
    new Request(`http://crm.test/api/rsvp/${eventId}${query}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": randomIp(), ...headers },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ eventId }) },
  );
}

const newestEmail = async (to: string) => {
  const [mail] = await db.sql`
    select subject, text_body, html from email_sends where to_email = ${to} order by created_at desc limit 1`;
  return mail as { subject: string; text_body: string; html: string } | undefined;
};

describe("the public form endpoint answers in the submitter's language", () => {
  test("the same refused submission: English without a language, German with Accept-Language: de; nothing stored", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id);
    const before = await storedCounts(db.sql, ws.id);
    const english = await submit(form.id, { json: { first_name: "Ana" } });
    const german = await submit(form.id, {
      json: { first_name: "Ana" },
      headers: { "accept-language": "de-DE,de;q=0.9" },
    });
    expect(english.status).toBe(400);
    expect(german.status).toBe(400);
    expect(await english.json()).toEqual({
      success: false,
      error: "Email is required.",
      code: "invalid",
      field: undefined,
    });
    expect(await german.json()).toMatchObject({
      success: false,
      error: "Die E-Mail-Adresse fehlt.",
      code: "invalid",
    });
    // a message with a field and a bound: both said in German, the code unchanged
    const long = await submit(form.id, {
      json: { email: "ana@example.test", first_name: "A".repeat(101) },
      headers: { "accept-language": "de" },
    });
    expect(await long.json()).toMatchObject({
      error: "Vorname darf höchstens 100 Zeichen lang sein.",
      code: "invalid",
    });
    const unknown = await submit("7c9e6679-7425-40de-944b-e07fc1f90ae7", {
      json: { email: "a@example.test" },
      headers: { "accept-language": "fr" },
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: "Ce formulaire n’existe pas.", code: "not_found" });
    expect(await storedCounts(db.sql, ws.id)).toEqual(before);
  });

  test("the double opt-in email follows Accept-Language for a contact without a language, and the contact's own before it", async () => {
    const ws = await createWorkspace(db.sql, { name: "Kino" });
    const form = await createForm(db.sql, ws.id);
    const plain = await createContact(db.sql, ws.id);
    const french = await createContact(db.sql, ws.id, { locale: "fr" });
    const de = { "accept-language": "de" };
    expect((await submit(form.id, { json: { email: plain.email }, headers: de })).status).toBe(200);
    expect((await submit(form.id, { json: { email: french.email }, headers: de })).status).toBe(200);
    const german = await newestEmail(plain.email);
    expect(german?.subject).toBe("Bestätigen Sie Ihre Angaben für Kino");
    expect(german?.text_body).toContain(
      "hat mit dieser E-Mail-Adresse das Formular „Newsletter“ von Kino abgeschickt.",
    );
    const fr = await newestEmail(french.email);
    expect(fr?.subject).toBe("Confirmez vos informations pour Kino");
    expect(fr?.html).toContain("Confirmer mes informations");
    // the link's pages: the confirmation page is handed the contact's language
    const res = await openVerifyLink(await verificationLink(db.sql, french.email));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${appUrl()}/verified?lang=fr`);
  });

  test("a form's language becomes the contact's when the contact has none, never over one it has", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id, { locale: "de", require_verification: false });
    const spanish = await createContact(db.sql, ws.id, { locale: "es" });
    expect((await submit(form.id, { json: { email: "neu@example.test" } })).status).toBe(200);
    expect((await submit(form.id, { json: { email: spanish.email } })).status).toBe(200);
    const rows =
      await db.sql`select email, locale from contacts where workspace_id = ${ws.id} order by email`;
    expect(rows).toEqual([
      { email: spanish.email, locale: "es" },
      { email: "neu@example.test", locale: "de" },
    ]);
    // its refusals are in its language too, whatever the browser says
    const refused = await submit(form.id, { json: {}, headers: { "accept-language": "fr" } });
    expect(await refused.json()).toMatchObject({ error: "Die E-Mail-Adresse fehlt." });
  });
});

describe("system emails in the contact's language", () => {
  test("a contact with locale fr gets a French RSVP confirmation: its email_sends row, the event's time in French and in its zone", async () => {
    const ws = await createWorkspace(db.sql);
    const eventId = await createEvent(ws.id);
    const contact = await createContact(db.sql, ws.id, { locale: "fr", first_name: "Zoé" });
    const res = await rsvp(eventId, { email: contact.email }, { "accept-language": "de" });
    expect(res.status).toBe(200);
    const [row] = await db.sql`
      select subject, text_body, html, kind, status from email_sends where contact_id = ${contact.id}`;
    expect(row).toMatchObject({
      subject: "Votre inscription est confirmée : Open house",
      kind: "transactional",
      status: "outbox",
    });
    expect(row.text_body).toContain("Bonjour Zoé,");
    expect(row.text_body).toContain("Vous êtes inscrit à Open house.");
    // 16:00 UTC on a summer Sunday is 18:00 in Paris
    expect(row.text_body).toMatch(/Quand : dim\. 1 juin 2031,? 18:00/);
    expect(row.text_body).toContain("Où : Salle 2");
    expect(row.text_body).toContain(`${appUrl()}/rsvp/${eventId}?lang=fr`);
    expect(row.html).toContain("Vous êtes inscrit à <strong>Open house</strong>.");
  });

  test("the English confirmation keeps its words exactly (the spec's texts are the English messages)", async () => {
    const ws = await createWorkspace(db.sql);
    const eventId = await createEvent(ws.id);
    const res = await rsvp(eventId, { email: "en@example.test", first_name: "Nia" });
    expect(res.status).toBe(200);
    const mail = await newestEmail("en@example.test");
    expect(mail?.subject).toBe("You're registered: Open house");
    expect(mail?.text_body.split("\n").slice(0, 4)).toEqual([
      "Hi Nia,",
      "",
      "You're registered for Open house.",
      "When: Sun 1 Jun 2031, 18:00 GMT+2",
    ]);
  });
});

describe("a language with no translation falls back without an error", () => {
  test("?lang= and Accept-Language naming languages not shipped (or malformed) fall through to English", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id);
    const res = await submit(form.id, {
      json: {},
      query: "?lang=xx-%3Cscript%3E",
      headers: { "accept-language": "tlh, i-klingon;q=0.9, *;q=0.1, ;;;" },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "Email is required.", code: "invalid" });
  });

  test("a contact's locale not shipped (it) passes to Accept-Language, then to the workspace's default", async () => {
    const ws = await createWorkspace(db.sql);
    const set = await withService((tx) =>
      setWorkspaceDefaultLocale(tx, { workspaceId: ws.id, locale: "es" }),
    );
    expect("error" in set).toBe(true); // the service door is no member: Admin+ only, refused
    await db.sql`update workspaces set default_locale = 'es' where id = ${ws.id}`;
    const eventId = await createEvent(ws.id);
    const italian = await createContact(db.sql, ws.id, { locale: "it" });
    expect(
      (await rsvp(eventId, { email: italian.email }, { "accept-language": "it-IT, ja;q=0.5" })).status,
    ).toBe(200);
    expect((await newestEmail(italian.email))?.subject).toBe("Inscripción confirmada: Open house");
    const other = await createContact(db.sql, ws.id, { locale: "it" });
    expect((await rsvp(eventId, { email: other.email }, { "accept-language": "de" })).status).toBe(200);
    expect((await newestEmail(other.email))?.subject).toBe("Sie sind angemeldet: Open house");
  });

  test("the database keeps a contact's locale a language tag and the workspace's default a shipped language", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id);
    await expect(db.sql`update contacts set locale = 'not a tag' where id = ${c.id}`).rejects.toThrow();
    await expect(db.sql`update workspaces set default_locale = 'it' where id = ${ws.id}`).rejects.toThrow();
    await db.sql`update contacts set locale = 'pt-BR' where id = ${c.id}`;
  });
});

describe("REST contacts carry `locale`", () => {
  test("create and PATCH set it canonical, null clears it, a malformed tag is 400 and nothing changes", async () => {
    const ws = await createWorkspace(db.sql);
    const key = await apiKey(db.sql, ws.id, ["contacts:read", "contacts:write"]);
    const made = await call(contacts.POST, {
      method: "POST",
      key: key.raw,
      body: { email: "lang@example.test", locale: "de-at" },
    });
    expect(made.status).toBe(201);
    expect(made.body.locale).toBe("de-AT");
    const id = made.body.id as string;
    const bad = await call(one.PATCH, {
      method: "PATCH",
      key: key.raw,
      params: { id },
      body: { locale: "<de>" },
    });
    expect(bad.status).toBe(400);
    expect((await db.sql`select locale from contacts where id = ${id}`)[0].locale).toBe("de-AT");
    const french = await call(one.PATCH, {
      method: "PATCH",
      key: key.raw,
      params: { id },
      body: { locale: "fr" },
    });
    expect(french.body.locale).toBe("fr");
    const [audit] = await db.sql`
      select after from audit_log where target_id = ${id} and action = 'contact.updated' order by created_at desc limit 1`;
    expect(audit.after.changed).toContain("locale");
    const cleared = await call(one.PATCH, {
      method: "PATCH",
      key: key.raw,
      params: { id },
      body: { locale: null },
    });
    expect(cleared.body.locale).toBeNull();
    expect((await db.sql`select locale from contacts where id = ${id}`)[0].locale).toBeNull();
  });
});
