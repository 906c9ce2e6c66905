import { z } from "zod";
import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";

export const LOCALE_ERROR = "Give a language tag such as en, fr or de-AT.";

/**
 * A contact's language (contacts.locale, DESIGN.md section 9): a BCP 47 tag, stored canonical
 * ('de-at' → 'de-AT'); any well-formed tag, also one the service does not ship (the choice of
 * language passes over it, docs/decisions.md "Recipient languages"). The check constraint of
 * migration 20261129000600 holds the shape whoever writes.
 */
export function canonicalLocale(value: string): string | null {
  const tag = value.trim();
  if (tag.length === 0 || tag.length > 35 || !/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(tag)) return null;
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    return canonical && canonical.length <= 35 ? canonical : null;
  } catch {
    return null;
  }
}

/** The locale a client sends: a tag, or null (or, from a form, empty) to clear it. */
export const contactLocaleSchema = z
  .string({ error: LOCALE_ERROR })
  .max(35, LOCALE_ERROR)
  .nullable()
  .transform((value, ctx) => {
    if (value === null || value.trim() === "") return null;
    const canonical = canonicalLocale(value);
    if (canonical === null) {
      ctx.addIssue({ code: "custom", message: LOCALE_ERROR });
      return z.NEVER;
    }
    return canonical;
  });

/**
 * Sets (or, with null, clears) a contact's language in its workspace; the caller's door decides
 * who may (a member's RLS, an API key's workspace). Answers whether it changed.
 */
export async function setContactLocale(
  db: Db,
  input: { workspaceId: string; contactId: string; locale: string | null },
): Promise<Result<{ changed: boolean; before: string | null }>> {
  const locale = input.locale === null ? null : canonicalLocale(input.locale);
  if (input.locale !== null && locale === null) return refused("invalid", LOCALE_ERROR, { field: "locale" });
  const [row] = await db<{ before: string | null; changed: boolean }[]>`
    with old as (
      select id, locale from public.contacts
      where id = ${input.contactId} and workspace_id = ${input.workspaceId}
      for update
    ), updated as (
      update public.contacts c set locale = ${locale}
      from old where c.id = old.id and c.locale is distinct from ${locale}
      returning c.id
    )
    select old.locale as before, exists (select 1 from updated) as changed from old`;
  if (!row) return refused("not_found");
  return { data: { changed: row.changed, before: row.before } };
}
