-- A campaign pauses itself for its workspace's reputation as a broadcast does (docs/decisions.md, "A
-- broadcast pauses itself for its workspace's reputation"): `pause_kind` 'reputation' when the runner
-- paused it (only an owner resumes it), null when a member did; `paused_reason` the words the page shows;
-- `reputation_override` keeps an owner's resume, so the same rates do not pause it again.
alter table public.campaigns
  add column pause_kind text check (pause_kind in ('reputation')),
  add column paused_reason text check (char_length(paused_reason) <= 500),
  add column reputation_override boolean not null default false;

-- Members reach campaigns over the Data API too (the campaigns_members_all policy): only an owner, or the
-- service (the runner, the dashboard after its own owner check), lifts a reputation pause or sets what
-- keeps it from coming back.
create function public.campaigns_keep_reputation_pause() returns trigger
  language plpgsql
  set search_path to ''
as $$
begin
  if current_setting('role', true) = 'service_role'
     or public.has_workspace_role(old.workspace_id, array['owner']) then
    return new;
  end if;
  if new.pause_kind is distinct from old.pause_kind
     or new.paused_reason is distinct from old.paused_reason
     or new.reputation_override is distinct from old.reputation_override
     or (old.pause_kind = 'reputation' and new.status is distinct from old.status) then
    raise exception 'Only an owner can resume a campaign paused to protect the workspace''s sending reputation.'
      using errcode = '42501';
  end if;
  return new;
end
$$;
revoke all on function public.campaigns_keep_reputation_pause() from public;

create trigger campaigns_keep_reputation_pause before update on public.campaigns
  for each row execute function public.campaigns_keep_reputation_pause();
