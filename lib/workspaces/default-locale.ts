import { z } from "zod";
import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import { LOCALES, type Locale } from "@/lib/i18n/locales";
import { MESSAGES } from "@/lib/i18n/translator";
import { callerRole, isAdmin } from "./member-permissions";

export const DEFAULT_LOCALE_FORBIDDEN = "Only owners and admins can change the workspace's language.";

/** The shipped languages as a select offers them, each named in its own language. */
export const LANGUAGE_OPTIONS = LOCALES.map((locale) => ({
  value: locale,
  label: MESSAGES[locale]["common.languageName"] ?? locale,
}));

export const localeSchema = z.enum(LOCALES, { error: "Choose one of the languages offered." });

/** The workspace's default language for recipient pages and emails (docs/decisions.md, "Recipient languages"). */
export async function getWorkspaceDefaultLocale(db: Db, workspaceId: string): Promise<Locale> {
  const [row] = await db<{ default_locale: Locale }[]>`
    select default_locale from public.workspaces where id = ${workspaceId}`;
  return row?.default_locale ?? "en";
}

/** Admin+ set it, as the workspace's name (RLS workspaces_update holds the same line). */
export async function setWorkspaceDefaultLocale(
  db: Db,
  input: { workspaceId: string; locale: string },
): Promise<Result<{ locale: Locale }>> {
  const parsed = localeSchema.safeParse(input.locale);
  if (!parsed.success) return refused("invalid", "Choose one of the languages offered.", { field: "locale" });
  if (!isAdmin(await callerRole(db, input.workspaceId)))
    return refused("forbidden", DEFAULT_LOCALE_FORBIDDEN);
  const updated = await db`
    update public.workspaces set default_locale = ${parsed.data} where id = ${input.workspaceId} returning id`;
  if (updated.length === 0) return refused("forbidden", DEFAULT_LOCALE_FORBIDDEN);
  return { data: { locale: parsed.data } };
}
