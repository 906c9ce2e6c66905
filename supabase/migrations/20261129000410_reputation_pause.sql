-- Protecting a workspace's sending reputation (docs/decisions.md, "A broadcast pauses itself for its
-- workspace's reputation"): a broadcast pauses itself when the workspace's recent complaints or hard
-- bounces pass their limits. `pause_kind` says who paused it and so who may resume it: 'provider'
-- (the provider did not take the mail past every retry; any member resumes), 'reputation' (only an
-- owner resumes), null (a member paused it). An owner's resume of a reputation pause is kept in
-- `reputation_override`: the broadcast is not paused again for the same rates.
alter table public.broadcasts
  add column pause_kind text check (pause_kind in ('provider', 'reputation')),
  add column reputation_override boolean not null default false;
