-- Recipient languages (DESIGN.md section 9, "Portal and languages"; docs/decisions.md, "Recipient
-- languages"): the language a contact reads, the workspace's default, and a form's language.
--
-- contacts.locale: a BCP 47 tag (nullable: unknown). Any well-formed tag is kept, also one the service
-- does not ship ('it', 'pt-BR'): the choice of language passes over it to the next source, and it is
-- there when a translation comes. The check is the tag's shape (language, then subtags of 1 to 8
-- letters or digits), not the registry.
alter table public.contacts
  add column locale text
    check (locale is null or (length(locale) <= 35 and locale ~ '^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$'));

-- The workspace's default language, the last source before English; one of the shipped languages
-- (lib/i18n/locales.ts LOCALES; adding a language widens this check).
alter table public.workspaces
  add column default_locale text not null default 'en'
    check (default_locale in ('en', 'es', 'fr', 'de'));
-- Admin+ set it on the settings page, as the other workspace settings (RLS keeps it to their workspace)
grant update (default_locale) on public.workspaces to authenticated;

-- A form's language: its messages, its confirmation email, and the locale of a contact it creates or
-- reaches without one. Null: chosen for each submission (Accept-Language, then the workspace's default).
alter table public.forms
  add column locale text
    check (locale is null or locale in ('en', 'es', 'fr', 'de'));
