-- Members' SELECT on contacts is a grant of named columns since 20261129000580_contact_portal.sql
-- (every one but portal_token; docs/decisions.md, "Portal sessions"). A system column is covered only
-- by a table-wide grant, so the CSV import's upsert, which tells an inserted contact from an updated
-- one by `xmax = 0` in its RETURNING (lib/contacts/import/apply-import.ts), was refused. xmax is the
-- row version's deleting transaction id: nothing about the contact.
grant select (xmax) on public.contacts to authenticated;
