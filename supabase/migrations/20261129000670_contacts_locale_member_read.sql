-- contacts.locale (20261129000600_recipient_languages.sql) came after members' table-wide SELECT on
-- contacts became a grant of named columns, every one but portal_token
-- (20261129000580_contact_portal.sql; docs/decisions.md, "Portal sessions"): a column added since is
-- readable only when granted. Members read a contact's language as they read its other fields.
grant select (locale) on public.contacts to authenticated;
