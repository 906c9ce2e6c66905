-- Signed tickets and check-in at the door (DESIGN section 9, "Events"; docs/decisions.md, "Signed
-- tickets" and "One check-in per registration").

-- The `events:write` scope: a key may check tickets in (POST /api/v1/events/{id}/check-ins). The list
-- is the same as lib/api/v1/scopes.ts.
alter table public.api_keys drop constraint api_keys_scopes_check;
alter table public.api_keys
  add constraint api_keys_scopes_check check (
    scopes <@ array['contacts:read', 'contacts:write', 'consent:write', 'events:read', 'events:write',
                    'transactions:read', 'transactions:write', 'forms:read', 'webhooks:write',
                    'email:read', 'email:write', 'campaigns:read', 'campaigns:write']::text[]
    and array_position(scopes, null) is null);

-- A workspace's Ed25519 ticket key: the public half (raw 32 bytes, base64url) that scanners verify
-- with, and the private half sealed like every secret the app reads back (lib/crypto/secret-box.ts).
-- One key per workspace; its id is the tokens' `kid`. Service only: members never read it over
-- PostgREST (the private half is sealed, but a dump of ciphertexts is still nothing to hand out), and
-- the public half reaches scanners through the app (the scanner page, GET /api/v1/events/ticket-key).
create table public.event_ticket_keys (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  public_key text not null check (public_key ~ '^[A-Za-z0-9_-]{43}$'),
  private_key_sealed text not null check (private_key_sealed like 'v1.%' and length(private_key_sealed) <= 500),
  created_at timestamptz not null default now(),
  unique (workspace_id, id),
  -- one key per workspace (a rotation would retire the old one; not built)
  unique (workspace_id)
);
alter table public.event_ticket_keys enable row level security;
revoke all on public.event_ticket_keys from anon, authenticated;
grant all on public.event_ticket_keys to service_role;
-- like every workspace table, closed to a token without the second factor its workspace requires
-- (docs/decisions.md, "The second factor holds at the database"), whatever grants come later
create policy event_ticket_keys_second_factor on public.event_ticket_keys as restrictive for all to authenticated
  using (workspace_id <> all ((select public.aal_blocked_workspaces())::uuid[]))
  with check (workspace_id <> all ((select public.aal_blocked_workspaces())::uuid[]));

-- the parent key event_check_ins names its registration by (a workspace's registration, never another's)
alter table public.event_registrations
  add constraint event_registrations_workspace_id_id_key unique (workspace_id, id);

-- A check-in: at most one per registration (the unique key decides, never a read-then-write), with
-- when the ticket was scanned (the first scan wins: an offline scanner syncing an earlier scan takes
-- the row over), who scanned it (a member, or an API key) and on which device.
create table public.event_check_ins (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  event_id uuid not null,
  registration_id uuid not null,
  checked_in_at timestamptz not null,
  recorded_at timestamptz not null default now(),
  -- the member who scanned (no key to auth.users: a member removed later keeps their check-ins)
  checked_in_by_user_id uuid,
  checked_in_by_api_key_id uuid,
  -- what the check-in showed for its author when written (a member's email, a key's name)
  checked_in_by_label text check (length(checked_in_by_label) <= 320),
  device_id text check (length(device_id) <= 100),
  source text not null check (source in ('scanner', 'api', 'dashboard')),
  unique (workspace_id, id),
  constraint event_check_ins_registration_key unique (workspace_id, registration_id),
  foreign key (workspace_id, event_id) references public.events (workspace_id, id) on delete cascade,
  foreign key (workspace_id, registration_id) references public.event_registrations (workspace_id, id) on delete cascade,
  foreign key (workspace_id, checked_in_by_api_key_id) references public.api_keys (workspace_id, id) on delete set null (checked_in_by_api_key_id)
);
-- the keys' referential actions find their rows; the event's list and counts read by (workspace, event)
create index event_check_ins_event_idx on public.event_check_ins (workspace_id, event_id, checked_in_at desc);
create index event_check_ins_api_key_idx on public.event_check_ins (workspace_id, checked_in_by_api_key_id)
  where checked_in_by_api_key_id is not null;
alter table public.event_check_ins enable row level security;
-- SELECT(event_check_ins): workspace members read who checked whom in (the event page, the scanner)
create policy event_check_ins_select_members on public.event_check_ins for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
-- written only through the app's check-in (lib/events/tickets/check-in.ts, as the service): a
-- member's direct INSERT could name another member as the scanner or a time of their choosing
revoke all on public.event_check_ins from anon, authenticated;
grant select on public.event_check_ins to authenticated;
grant all on public.event_check_ins to service_role;

-- event_registrations.checked_in_at stays the attendance column the segments, the timeline and the
-- lists read (docs/decisions.md, "Segments"); a check-in row sets it, and removing the row clears it.
create function public.event_check_ins_attendance() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    update public.event_registrations set checked_in_at = null
    where workspace_id = old.workspace_id and id = old.registration_id;
    return null;
  end if;
  update public.event_registrations set checked_in_at = new.checked_in_at
  where workspace_id = new.workspace_id and id = new.registration_id
    and checked_in_at is distinct from new.checked_in_at;
  return null;
end
$$;
revoke all on function public.event_check_ins_attendance() from public;
create trigger event_check_ins_attendance after insert or update or delete on public.event_check_ins
  for each row execute function public.event_check_ins_attendance();
