-- The contact's portal (DESIGN section 9, "Portal and languages"; docs/decisions.md, "Portal sessions"):
-- a contact signs in with a single-use link emailed to them and then holds a short-lived session bound
-- to that contact and workspace. Both are service-only: the portal's pages reach them through the
-- service door after the link or cookie was checked, never a member.

-- The links the portal emails: 'sign_in' (the link of {base_url}/portal/{workspace_id}/enter, 15
-- minutes) and 'email_change' (the confirmation sent to a new address the contact gave). The token
-- is kept as its SHA-256 digest only; `portal_token` is the contact's portal token when the link
-- was issued: the link opens only while it is still the contact's (a later link or an erasure
-- request rotates it), so only the newest link of a contact ever works.
create table public.portal_links (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  contact_id uuid not null,
  purpose text not null check (purpose in ('sign_in', 'email_change')),
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  portal_token uuid not null,
  -- the confirmed-to-be address of an 'email_change' link, lowercased
  new_email text check ((purpose = 'email_change') = (new_email is not null)),
  ip inet,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz,
  unique (workspace_id, id),
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id) on delete cascade
);
create index portal_links_contact_idx on public.portal_links (workspace_id, contact_id, created_at);
-- the sweep of spent and expired links
create index portal_links_expires_idx on public.portal_links (expires_at);

alter table public.portal_links enable row level security;
revoke all on public.portal_links from anon, authenticated;
-- service only: issued and spent by lib/portal through the service door
grant all on public.portal_links to service_role;
-- like every workspace table, closed to a token without the second factor its workspace requires
-- (docs/decisions.md, "The second factor holds at the database"), whatever grants come later
create policy portal_links_second_factor on public.portal_links as restrictive for all to authenticated
  using (workspace_id <> all ((select public.aal_blocked_workspaces())::uuid[]))
  with check (workspace_id <> all ((select public.aal_blocked_workspaces())::uuid[]));

-- A contact's portal session (docs/decisions.md, "Portal sessions"): the cookie holds a random
-- token, the row its digest. Bound to one contact of one workspace; revoked at sign-out
-- (revoked_at), dead after expires_at, gone with the contact (an erasure).
create table public.portal_sessions (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  contact_id uuid not null,
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  ip inet,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz,
  unique (workspace_id, id),
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id) on delete cascade
);
create index portal_sessions_contact_idx on public.portal_sessions (workspace_id, contact_id, created_at);
create index portal_sessions_expires_idx on public.portal_sessions (expires_at);

alter table public.portal_sessions enable row level security;
revoke all on public.portal_sessions from anon, authenticated;
-- service only: opened, read and revoked by lib/portal through the service door
grant all on public.portal_sessions to service_role;
-- closed to a token without its workspace's second factor, like every workspace table
create policy portal_sessions_second_factor on public.portal_sessions as restrictive for all to authenticated
  using (workspace_id <> all ((select public.aal_blocked_workspaces())::uuid[]))
  with check (workspace_id <> all ((select public.aal_blocked_workspaces())::uuid[]));

-- contacts.portal_token (spec 2.4, "client portal authentication token") is never shown to a member
-- or an API key (docs/decisions.md, "Portal sessions"): members read every column of their
-- workspace's contacts but that one. A table grant covers every column, so it is replaced by a grant
-- of the others; writes stay as they were (contacts_guard_consent_update refuses a member's change
-- of portal_token).
revoke select on public.contacts from anon, authenticated;
grant select (id, workspace_id, email, first_name, last_name, phone, source, address_line1, address_line2,
  city, state, postal_code, country, birth_month, birth_day, is_subscribed, opt_in_timestamp, opt_in_source,
  opt_in_ip, unsubscribed_at, assigned_user_id, created_by, updated_by, created_at, updated_at, search_text,
  email_suppressed, custom_fields) on public.contacts to authenticated;

-- The last change at update (migration 20261129000430_contacts_one_trigger_per_operation.sql), now
-- also leaving updated_by/updated_at alone when only the portal token rotated (a link was issued:
-- not an edit of the contact).
create or replace function public.contacts_stamp_update(c public.contacts, old public.contacts) returns public.contacts
language plpgsql
set search_path = ''
as $$
begin
  c.email := lower(btrim(c.email));
  if (c.email_suppressed is distinct from old.email_suppressed or c.portal_token is distinct from old.portal_token)
    and to_jsonb(c) - array['email_suppressed', 'portal_token', 'updated_at', 'updated_by', 'search_text']
      = to_jsonb(old) - array['email_suppressed', 'portal_token', 'updated_at', 'updated_by', 'search_text'] then
    c.updated_by := old.updated_by;
    c.updated_at := old.updated_at;
  else
    c.updated_by := (select auth.uid());
    c.updated_at := now();
  end if;
  return c;
end
$$;
