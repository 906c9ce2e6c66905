-- Spec 4.15 getContacts returns the total count of matches. Counting a million contacts
-- row by row takes about half a second, so the count of each workspace's contacts per
-- source is kept here, by statement-level triggers on contacts: one upsert per statement
-- and (workspace, source), never one per row. getContacts reads it when no search, event
-- or tag-inclusion filter narrows the list.
create table public.contact_counts (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  source text not null,
  n bigint not null default 0,
  primary key (workspace_id, source)
);

alter table public.contact_counts enable row level security;
revoke all on public.contact_counts from anon, authenticated;
grant select on public.contact_counts to authenticated;
grant all on public.contact_counts to service_role;
-- SELECT(contact_counts): members of the workspace (the rows they count are theirs to see);
-- written only by the triggers below
create policy contact_counts_select_members on public.contact_counts for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));

-- Adds signed deltas per (workspace, source), in key order so that concurrent statements
-- lock counters in the same order. A workspace being deleted is skipped (its counters go
-- with it).
create or replace function public.contact_counts_add(workspace_ids uuid[], sources text[], deltas bigint[])
returns void
language sql security definer
set search_path = ''
as $$
  insert into public.contact_counts as cc (workspace_id, source, n)
  select d.workspace_id, d.source, d.delta
  from unnest(workspace_ids, sources, deltas) as d(workspace_id, source, delta)
  where d.delta <> 0 and exists (select 1 from public.workspaces w where w.id = d.workspace_id)
  order by d.workspace_id, d.source
  on conflict (workspace_id, source) do update set n = cc.n + excluded.n
$$;
revoke execute on function public.contact_counts_add(uuid[], text[], bigint[]) from public, anon, authenticated;

-- Keeps contact_counts: contacts inserted, deleted, or moved to another source
create or replace function public.contact_counts_after_write() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform public.contact_counts_add(array_agg(workspace_id), array_agg(source), array_agg(n))
    from (select workspace_id, source, count(*) as n from new_rows group by 1, 2) d;
  elsif tg_op = 'DELETE' then
    perform public.contact_counts_add(array_agg(workspace_id), array_agg(source), array_agg(-n))
    from (select workspace_id, source, count(*) as n from old_rows group by 1, 2) d;
  else
    perform public.contact_counts_add(array_agg(workspace_id), array_agg(source), array_agg(n))
    from (
      select workspace_id, source, sum(n)::bigint as n
      from (
        select o.workspace_id, o.source, -1 as n from old_rows o join new_rows r on r.id = o.id
        where (o.workspace_id, o.source) is distinct from (r.workspace_id, r.source)
        union all
        select r.workspace_id, r.source, 1 from old_rows o join new_rows r on r.id = o.id
        where (o.workspace_id, o.source) is distinct from (r.workspace_id, r.source)
      ) moves
      group by 1, 2
    ) d;
  end if;
  return null;
end
$$;

create trigger contact_counts_insert after insert on public.contacts
  referencing new table as new_rows
  for each statement execute function public.contact_counts_after_write();
create trigger contact_counts_delete after delete on public.contacts
  referencing old table as old_rows
  for each statement execute function public.contact_counts_after_write();
create trigger contact_counts_update after update on public.contacts
  referencing old table as old_rows new table as new_rows
  for each statement execute function public.contact_counts_after_write();

insert into public.contact_counts (workspace_id, source, n)
select workspace_id, source, count(*) from public.contacts group by 1, 2;
