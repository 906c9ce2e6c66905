import type { Db } from "@/lib/db/doors";
import { isUuid } from "@/lib/ids/uuid";
import { chooseLocale, type Locale } from "./locales";

/** Whom a recipient page or email is for: a contact, an event's visitors, or a workspace's. */
export interface RecipientScope {
  contactId?: string | null;
  eventId?: string | null;
  workspaceId?: string | null;
}

export interface RecipientLocaleInput extends RecipientScope {
  /** `?lang=` of the request (a repeated parameter: its first value) */
  lang?: string | string[] | null;
  /** the request's `Accept-Language` */
  acceptLanguage?: string | null;
  /** the form's language (forms.locale), weighed where the contact's own is unknown */
  formLocale?: string | null;
}

/** The first value of a query parameter that may be repeated. */
export function firstParam(value: string | string[] | null | undefined): string | null {
  const one = Array.isArray(value) ? value[0] : value;
  return typeof one === "string" && one !== "" ? one : null;
}

/**
 * The stored sources of a recipient's language in one statement: the contact's locale and the
 * default of the workspace the contact, the event or the id given belongs to. An id that is not a
 * uuid or names nothing gives nulls (the choice then passes to the next source), never an error.
 */
export async function recipientLocaleSources(
  db: Db,
  scope: RecipientScope,
): Promise<{ contactLocale: string | null; workspaceDefault: string | null }> {
  const contactId = isUuid(scope.contactId) ? scope.contactId : null;
  const eventId = isUuid(scope.eventId) ? scope.eventId : null;
  const workspaceId = isUuid(scope.workspaceId) ? scope.workspaceId : null;
  if (!contactId && !eventId && !workspaceId) return { contactLocale: null, workspaceDefault: null };
  const [row] = await db<{ contact_locale: string | null; default_locale: string | null }[]>`
    select (select c.locale from public.contacts c where c.id = ${contactId}::uuid) as contact_locale,
           (select w.default_locale from public.workspaces w
            where w.id = coalesce(${workspaceId}::uuid,
                                  (select c.workspace_id from public.contacts c where c.id = ${contactId}::uuid),
                                  (select e.workspace_id from public.events e where e.id = ${eventId}::uuid)))
             as default_locale`;
  return { contactLocale: row?.contact_locale ?? null, workspaceDefault: row?.default_locale ?? null };
}

/**
 * The language of a recipient page or email (DESIGN.md section 9): `?lang=`, then the contact's
 * locale (or, for a person not yet known, the form's language), then `Accept-Language`, then the
 * workspace's default, then English. A language that is not shipped passes to the next source.
 */
export async function recipientLocale(db: Db, input: RecipientLocaleInput): Promise<Locale> {
  const stored = await recipientLocaleSources(db, input);
  return chooseLocale({
    lang: firstParam(input.lang),
    contactLocale: stored.contactLocale ?? input.formLocale ?? null,
    acceptLanguage: input.acceptLanguage,
    workspaceDefault: stored.workspaceDefault,
  });
}

/**
 * A recipient link that keeps its page's language: `lang=` appended (after `?` or `&`) unless the
 * language is English, the catalogues' source, or none; the next page then opens in it too.
 */
export function withLang(url: string, locale: string | null | undefined): string {
  if (!locale || locale === "en") return url;
  return `${url}${url.includes("?") ? "&" : "?"}lang=${encodeURIComponent(locale)}`;
}
