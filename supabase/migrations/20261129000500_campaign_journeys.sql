-- Campaign journeys (docs/decisions.md, "Campaign goals and exits at once" and "Campaign enrollment
-- from a segment"; DESIGN section 9, "Campaigns"): the step outcomes of the new step types, goals and
-- exits that end an enrollment in the transaction of the fact itself, and enrollment from a segment.

-- The outcomes of the new step types (docs/api.md, "Campaign steps"), and 'moved' (an enrollment
-- moved to a newer version, docs/decisions.md, "Moving enrollments to a new campaign version").
alter table public.campaign_step_runs drop constraint campaign_step_runs_outcome_check;
alter table public.campaign_step_runs add constraint campaign_step_runs_outcome_check
  check (outcome in ('sent', 'waiting', 'branched', 'tagged', 'untagged', 'exited', 'completed', 'skipped',
                     'topic_joined', 'topic_left', 'task_created', 'field_updated', 'webhook_queued',
                     'notified', 'moved', 'enrolled'));

-- The segment whose entrants are enrolled (null: none), and the progress of a one-off "enroll
-- everyone in it now" ({"segment_id", "total", "done", "enrolled", "started_at", "finished_at"}).
alter table public.campaigns
  add column enroll_segment_id uuid,
  add column bulk_enroll jsonb,
  add constraint campaigns_workspace_id_enroll_segment_id_fkey
    foreign key (workspace_id, enroll_segment_id) references public.segments (workspace_id, id)
    on delete set null (enroll_segment_id);
-- the key's referential action (a segment deleted) and the sweep's campaigns with a segment
create index campaigns_workspace_enroll_segment_idx on public.campaigns (workspace_id, enroll_segment_id)
  where enroll_segment_id is not null;

-- Who was in a campaign's enrollment segment at the last look: a contact in the segment now and
-- not here has entered it (and is enrolled); one here and no longer in it has left (and its row
-- goes, so coming back is entering again).
create table public.campaign_segment_members (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  campaign_id uuid not null,
  contact_id uuid not null,
  seen_at timestamptz not null default now(),
  unique (workspace_id, id),
  unique (workspace_id, campaign_id, contact_id),
  foreign key (workspace_id, campaign_id) references public.campaigns (workspace_id, id) on delete cascade,
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id) on delete cascade
);
-- the contact key's referential action (a contact deleted or merged away) finds its rows
create index campaign_segment_members_workspace_contact_idx
  on public.campaign_segment_members (workspace_id, contact_id);
alter table public.campaign_segment_members enable row level security;
-- SELECT(campaign_segment_members): workspace members read who the segment held; only the runner writes it
create policy campaign_segment_members_members_read on public.campaign_segment_members for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
-- written only by the campaign sweep (the service)
revoke all on public.campaign_segment_members from anon, authenticated;
grant select on public.campaign_segment_members to authenticated;
grant all on public.campaign_segment_members to service_role;

-- Ends the active enrollments named ('completed' by a goal, 'exited' with the reason), each with
-- its step-run row, skipping those a campaign sweep holds locked (the sweep's own checks end those:
-- lib/campaigns/run-enrollments.ts). Called by the triggers below only.
create or replace function public.campaign_enrollments_end(p_ids uuid[], p_status text, p_reason text)
returns void
language sql security definer
set search_path = ''
as $$
  with locked as (
    select e.id from public.campaign_enrollments e
    where e.id = any (p_ids) and e.status = 'active' and e.version is not null
    for update of e skip locked
  ), done as (
    update public.campaign_enrollments e
    set status = p_status, exit_reason = case when p_status = 'exited' then p_reason end,
        due_at = null, ended_at = now()
    from locked where e.id = locked.id
    returning e.id, e.workspace_id, e.campaign_id, e.version, e.current_step
  )
  insert into public.campaign_step_runs (workspace_id, enrollment_id, campaign_id, version, step_id, outcome, detail)
  select workspace_id, id, campaign_id, version, coalesce(current_step, 'start'), p_status, left(p_reason, 500)
  from done
$$;
revoke execute on function public.campaign_enrollments_end(uuid[], text, text) from public, anon, authenticated;

-- Goals reached by a fact (a tag added, a purchase, a form submitted): the contact's active
-- enrollments whose version has that goal are completed at once, in the fact's transaction.
-- Statement-level: one set-based statement per insert, nothing when no campaign has such a goal.
create or replace function public.campaign_goals_on_fact() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  ids uuid[];
  goal text := tg_argv[0];
  ref text := tg_argv[1];
begin
  if not exists (select 1 from public.campaign_versions v where v.goals @> jsonb_build_array(jsonb_build_object('type', goal))) then
    return null;
  end if;
  select array_agg(distinct e.id) into ids
  from (select distinct n.workspace_id, n.contact_id, to_jsonb(n) ->> ref as ref_id from new_rows n
        -- a purchase is a succeeded transaction (a refunded one is none); other facts have no status
        where coalesce(to_jsonb(n) ->> 'status', 'succeeded') = 'succeeded') f
  join public.campaign_enrollments e
    on e.contact_id = f.contact_id and e.workspace_id = f.workspace_id and e.status = 'active'
  join public.campaign_versions v
    on v.campaign_id = e.campaign_id and v.version = e.version and v.workspace_id = e.workspace_id
  where f.contact_id is not null and f.ref_id is not null
    and v.goals @> jsonb_build_array(jsonb_build_object('type', goal, ref, f.ref_id));
  if ids is not null then
    perform public.campaign_enrollments_end(ids, 'completed', 'goal reached: ' || goal);
  end if;
  return null;
end
$$;
-- tag_added: a tag given to the contact
create trigger contact_tags_campaign_goals after insert on public.contact_tags
  referencing new table as new_rows for each statement
  execute function public.campaign_goals_on_fact('tag_added', 'tag_id');
-- purchased: a succeeded purchase of the product stored
create trigger transactions_campaign_goals after insert on public.transactions
  referencing new table as new_rows for each statement
  execute function public.campaign_goals_on_fact('purchased', 'product_id');
-- form_submitted: a submission of the form stored (a staged one counts once verified and stored)
create trigger form_submissions_campaign_goals after insert on public.form_submissions
  referencing new table as new_rows for each statement
  execute function public.campaign_goals_on_fact('form_submitted', 'form_id');

-- Exits (spec 8.3): a suppression of any reason (a bounce, a complaint, an unsubscribe, a manual
-- block) ends at once the contact's active enrollments whose version sends email.
create or replace function public.campaign_exits_on_suppression() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  r record;
begin
  for r in
    select n.reason, array_agg(distinct e.id) as ids
    from new_rows n
    join public.campaign_enrollments e
      on e.contact_id = n.contact_id and e.workspace_id = n.workspace_id and e.status = 'active'
    join public.campaign_versions v
      on v.campaign_id = e.campaign_id and v.version = e.version and v.workspace_id = e.workspace_id
    where v.steps @> '[{"type": "send_email"}]'::jsonb
    group by n.reason
  loop
    perform public.campaign_enrollments_end(r.ids, 'exited', r.reason || ' suppression');
  end loop;
  return null;
end
$$;
create trigger contact_suppressions_campaign_exits after insert on public.contact_suppressions
  referencing new table as new_rows for each statement
  execute function public.campaign_exits_on_suppression();

-- Exits: leaving a topic ends at once the contact's active enrollments whose version sends to it.
create or replace function public.campaign_exits_on_topic_left() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  ids uuid[];
begin
  select array_agg(distinct e.id) into ids
  from new_rows n
  join old_rows o on o.contact_id = n.contact_id and o.topic_id = n.topic_id
  join public.campaign_enrollments e
    on e.contact_id = n.contact_id and e.workspace_id = n.workspace_id and e.status = 'active'
  join public.campaign_versions v
    on v.campaign_id = e.campaign_id and v.version = e.version and v.workspace_id = e.workspace_id
  where o.subscribed and not n.subscribed
    and v.steps @> jsonb_build_array(jsonb_build_object('type', 'send_email', 'topic_id', n.topic_id));
  if ids is not null then
    perform public.campaign_enrollments_end(ids, 'exited', 'unsubscribed from the topic');
  end if;
  return null;
end
$$;
create trigger contact_topics_campaign_exits after update on public.contact_topics
  referencing old table as old_rows new table as new_rows for each statement
  execute function public.campaign_exits_on_topic_left();
