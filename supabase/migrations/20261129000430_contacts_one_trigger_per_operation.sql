-- One BEFORE ROW and one AFTER STATEMENT trigger per operation on contacts. The rules are the same
-- as before; only how they are wired changes. Until now every write went through about twenty triggers:
-- five BEFORE ROW triggers (contacts_before_write, contacts_check_custom_fields_insert/_update,
-- contacts_guard_consent, contacts_protect_source), each checking part of one row, and twelve AFTER
-- STATEMENT triggers in five families (contact_counts_*, contact_stats_*, contacts_webhooks_*,
-- contacts_sync_field_values_*, contacts_restore_suppressions), each reading the statement's
-- transition tables again, plus the row trigger contacts_readdress_suppressions. Postgres fires
-- triggers of one event in name order, so which rule ran first depended on the names.
--
-- Now:
-- * contacts_before_insert / contacts_before_update (BEFORE ROW, security invoker as before: they
--   read as the writer, under its policies) call named check functions in a stated order. Deletes
--   have no BEFORE check, so there is no BEFORE DELETE trigger (it would only cost a call per row).
-- * contacts_after_insert / _update / _delete (AFTER STATEMENT with transition tables, security
--   definer as before: the writer, often a member, may not write the kept tables) read the
--   statement's rows once and do every family's work in the order the old trigger names gave it.
-- * contacts_sync_topics_insert/_update stay as they are: constraint triggers deferred to commit
--   (migration 20261127000400_topics.sql: a flow that chooses topics writes them after the contact's
--   columns). Postgres allows only row-level constraint triggers, and a statement trigger cannot be
--   deferred, so folding them into contacts_after_* would run the topic rule before the flow wrote its
--   topics. That changes behaviour, so they stay.
--
-- Errors are unchanged: the same SQLSTATEs, messages and details. A write that breaks several rules
-- fails on the same rule as before, because the checks run in the order of the old trigger names.

drop trigger contacts_before_write on public.contacts;
drop trigger contacts_check_custom_fields_insert on public.contacts;
drop trigger contacts_check_custom_fields_update on public.contacts;
drop trigger contacts_guard_consent on public.contacts;
drop trigger contacts_protect_source on public.contacts;
drop trigger contact_counts_insert on public.contacts;
drop trigger contact_counts_update on public.contacts;
drop trigger contact_counts_delete on public.contacts;
drop trigger contact_stats_insert on public.contacts;
drop trigger contact_stats_update on public.contacts;
drop trigger contact_stats_delete on public.contacts;
drop trigger contacts_webhooks_insert on public.contacts;
drop trigger contacts_webhooks_update on public.contacts;
drop trigger contacts_webhooks_delete on public.contacts;
drop trigger contacts_sync_field_values_insert on public.contacts;
drop trigger contacts_sync_field_values_update on public.contacts;
drop trigger contacts_restore_suppressions on public.contacts;
drop trigger contacts_readdress_suppressions on public.contacts;

drop function public.contacts_before_write();
drop function public.contacts_check_custom_fields();
drop function public.contacts_guard_consent();
drop function public.protect_contact_source();
drop function public.contact_counts_after_write();
drop function public.contact_stats_after_write();
drop function public.contacts_webhook_events();
drop function public.contacts_sync_field_values();
drop function public.contacts_restore_suppressions();
drop function public.contacts_readdress_suppressions();

-- ---------------------------------------------------------------------------------------------
-- The checks. Each takes the row (and the old row on update) and returns it as it is to be
-- stored, or raises. Security invoker, like the triggers that held them: current_user is the writer
-- (the consent rule and the authorship check depend on it) and the custom fields are read under
-- the writer's policies, so a member's write to another workspace cannot tell its field keys apart.
-- A member's write calls them, so authenticated and service_role may execute them. Called directly
-- (/rpc) they write nothing and read nothing the caller could not read already.
-- ---------------------------------------------------------------------------------------------

-- Authorship and normalisation at insert (docs/decisions.md, "The database is the boundary";
-- migration 20261128000800_authorship.sql): the email is stored trimmed and lowercased; created_by
-- defaults to the signed-in caller and updated_by to created_by; a member's new contact is last
-- changed by the member.
create function public.contacts_stamp_insert(c public.contacts) returns public.contacts
language plpgsql
set search_path = ''
as $$
begin
  c.email := lower(btrim(c.email));
  c.created_by := coalesce(c.created_by, (select auth.uid()));
  c.updated_by := coalesce(c.updated_by, c.created_by);
  if current_user = 'authenticated' and c.updated_by is distinct from (select auth.uid()) then
    raise exception 'contacts.updated_by is the signed-in member' using errcode = '42501';
  end if;
  return c;
end
$$;

-- Normalisation and the last change at update: the email as at insert; updated_by/updated_at name
-- the caller and now, except when only email_suppressed moved (the suppressions' trigger keeping
-- the flag is not an edit). search_text is generated and is not yet computed in a BEFORE row.
create function public.contacts_stamp_update(c public.contacts, old public.contacts) returns public.contacts
language plpgsql
set search_path = ''
as $$
begin
  c.email := lower(btrim(c.email));
  if c.email_suppressed is distinct from old.email_suppressed
    and to_jsonb(c) - array['email_suppressed', 'updated_at', 'updated_by', 'search_text']
      = to_jsonb(old) - array['email_suppressed', 'updated_at', 'updated_by', 'search_text'] then
    c.updated_by := old.updated_by;
    c.updated_at := old.updated_at;
  else
    c.updated_by := (select auth.uid());
    c.updated_at := now();
  end if;
  return c;
end
$$;

-- Custom fields (docs/decisions.md, "Custom fields"; migration 20261127000100_custom_fields.sql):
-- the object of `fields` without its empty values, each remaining key defined in the workspace and
-- of its field's type. Only the keys whose value differs from `old_fields` are checked; at insert
-- `old_fields` is null and every key is checked. Raises 23514 naming the key (detail).
create function public.contacts_check_custom_fields(ws uuid, fields jsonb, old_fields jsonb) returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  k text;
  v jsonb;
  def record;
  ok boolean;
begin
  if jsonb_typeof(fields) is distinct from 'object' then
    raise exception using errcode = '23514', message = 'custom_fields must be an object';
  end if;
  fields := coalesce(
    (select jsonb_object_agg(e.key, e.value) from jsonb_each(fields) e
     where e.value not in ('null'::jsonb, '""'::jsonb, '[]'::jsonb)),
    '{}'::jsonb);
  for k, v in
    select e.key, e.value from jsonb_each(fields) e
    where old_fields is null or (old_fields -> e.key) is distinct from e.value
  loop
    select f.field_type, f.options into def
    from public.custom_fields f where f.workspace_id = ws and f.key = k;
    if not found then
      raise exception using errcode = '23514', message = format('custom field %s is not defined', k),
        detail = k;
    end if;
    ok := case def.field_type
      when 'text' then jsonb_typeof(v) = 'string' and length(v #>> '{}') <= 10000
      when 'number' then jsonb_typeof(v) = 'number'
      when 'boolean' then jsonb_typeof(v) = 'boolean'
      when 'select' then jsonb_typeof(v) = 'string' and (v #>> '{}') = any (def.options)
      when 'multi_select' then jsonb_typeof(v) = 'array'
        and not exists (select 1 from jsonb_array_elements(v) x
                        where jsonb_typeof(x) <> 'string' or not ((x #>> '{}') = any (def.options)))
        and jsonb_array_length(v) = (select count(distinct x) from jsonb_array_elements(v) x)
      when 'date' then jsonb_typeof(v) = 'string' and (v #>> '{}') ~ '^\d{4}-\d{2}-\d{2}$'
      else false
    end;
    if ok and def.field_type = 'date' then
      begin
        ok := to_char((v #>> '{}')::date, 'YYYY-MM-DD') = (v #>> '{}');
      exception when others then
        ok := false;
      end;
    end if;
    if not ok then
      raise exception using errcode = '23514',
        message = format('custom field %s: not a valid %s value', k, def.field_type), detail = k;
    end if;
  end loop;
  return fields;
end
$$;

-- Consent at a member's insert (spec 3.3, 4.9; migration 20261128000500_consent_boundary.sql):
-- stored unsubscribed, unsuppressed, created by the caller, with a fresh portal token. Anything
-- else is refused (42501): consent is written only through the consent door (service_role).
create function public.contacts_guard_consent_insert(c public.contacts) returns public.contacts
language plpgsql
set search_path = ''
as $$
begin
  if c.is_subscribed or c.opt_in_timestamp is not null or c.opt_in_source is not null
     or c.opt_in_ip is not null or c.unsubscribed_at is not null or c.email_suppressed
     or c.created_by is distinct from (select auth.uid())
  then
    raise exception 'Consent is changed only through the consent flows (spec 3.3).' using errcode = '42501';
  end if;
  c.portal_token := pg_catalog.gen_random_uuid();
  return c;
end
$$;

-- Consent at a member's update: the consent columns, email_suppressed, portal_token and
-- created_by do not change (42501 otherwise).
create function public.contacts_guard_consent_update(c public.contacts, old public.contacts) returns void
language plpgsql
set search_path = ''
as $$
begin
  if (c.is_subscribed, c.opt_in_timestamp, c.opt_in_source, c.opt_in_ip, c.unsubscribed_at,
      c.email_suppressed, c.portal_token, c.created_by)
     is distinct from
     (old.is_subscribed, old.opt_in_timestamp, old.opt_in_source, old.opt_in_ip, old.unsubscribed_at,
      old.email_suppressed, old.portal_token, old.created_by)
  then
    raise exception 'Consent is changed only through the consent flows (spec 3.3).' using errcode = '42501';
  end if;
end
$$;

-- The source a contact keeps (spec 4.15 sources; lib/contacts/update-contact-source.ts): only a
-- signed-in owner or admin changes it. Anyone else's new value is ignored, not refused.
create function public.contacts_protect_source(c public.contacts, old public.contacts) returns text
language plpgsql
set search_path = ''
as $$
begin
  if old.source is not null and c.source is distinct from old.source
     and ((select auth.uid()) is null
          or not public.has_workspace_role(old.workspace_id, array['owner', 'admin']))
  then
    return old.source;
  end if;
  return c.source;
end
$$;

revoke execute on function public.contacts_stamp_insert(public.contacts),
  public.contacts_stamp_update(public.contacts, public.contacts),
  public.contacts_check_custom_fields(uuid, jsonb, jsonb),
  public.contacts_guard_consent_insert(public.contacts),
  public.contacts_guard_consent_update(public.contacts, public.contacts),
  public.contacts_protect_source(public.contacts, public.contacts)
  from public, anon;
grant execute on function public.contacts_stamp_insert(public.contacts),
  public.contacts_stamp_update(public.contacts, public.contacts),
  public.contacts_check_custom_fields(uuid, jsonb, jsonb),
  public.contacts_guard_consent_insert(public.contacts),
  public.contacts_guard_consent_update(public.contacts, public.contacts),
  public.contacts_protect_source(public.contacts, public.contacts)
  to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- BEFORE ROW: the checks in order. The order is the old trigger names' order, so a write breaking
-- two rules fails on the same one as before:
--   1. stamp (contacts_before_write): goes first because the later checks read what it fills: the
--      consent rule compares created_by, which it defaults to the caller.
--   2. custom fields (contacts_check_custom_fields_*): only when the object is non-empty at insert,
--      or differs from the old one at update, as the old triggers' WHEN clauses said.
--   3. consent (contacts_guard_consent): only for the roles PostgREST gives callers (authenticated,
--      anon), as its WHEN said; the service role and security-definer flows write consent.
--   4. source, at update (contacts_protect_source): raises nothing, so its place changes no error.
-- ---------------------------------------------------------------------------------------------

create function public.contacts_before_insert() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new := public.contacts_stamp_insert(new);
  if new.custom_fields <> '{}'::jsonb then
    new.custom_fields := public.contacts_check_custom_fields(new.workspace_id, new.custom_fields, null);
  end if;
  if current_user in ('authenticated', 'anon') then
    new := public.contacts_guard_consent_insert(new);
  end if;
  return new;
end
$$;

create function public.contacts_before_update() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new := public.contacts_stamp_update(new, old);
  if new.custom_fields is distinct from old.custom_fields then
    new.custom_fields := public.contacts_check_custom_fields(new.workspace_id, new.custom_fields,
                                                             old.custom_fields);
  end if;
  if current_user in ('authenticated', 'anon') then
    perform public.contacts_guard_consent_update(new, old);
  end if;
  if new.source is distinct from old.source then
    new.source := public.contacts_protect_source(new, old);
  end if;
  return new;
end
$$;

revoke execute on function public.contacts_before_insert(), public.contacts_before_update()
  from public, anon, authenticated;

-- Spec 3.3, 4.15, 5.4 and docs/decisions.md "The database is the boundary": every row written is
-- normalised, stamped and checked (the checks above, in their order)
create trigger contacts_before_insert before insert on public.contacts
  for each row execute function public.contacts_before_insert();
-- The same rules at update, and the source only an owner or admin changes
create trigger contacts_before_update before update on public.contacts
  for each row execute function public.contacts_before_update();

-- ---------------------------------------------------------------------------------------------
-- AFTER STATEMENT: every family's work from one read of the statement's rows, in the old names'
-- order (contact_counts, contact_stats, contacts_restore_suppressions, contacts_sync_field_values,
-- contacts_webhooks; on update the email change's suppressions first, as that was a row trigger and
-- row triggers fired before statement triggers).
--
-- contact_counts from contact_stats: at insert and delete the (workspace, source) deltas of
-- contact_counts are the sums of the (workspace, day, source, status) groups contact_stats is
-- written from, so the rows are grouped once and both come from that. Both tables stay: getContacts
-- reads contact_counts (a few rows a workspace, 64 shards by source) while contact_daily_counts
-- holds a row per day, source and shard, so a total from it would read hundreds of times more rows.
-- Members also read contact_counts directly (its policy), so dropping it would change what they see.
-- At update the two differ (contact_counts moves a contact to another workspace; contact_stats
-- counts a moved contact under its old workspace, and restates status changes), so each gets its
-- own deltas, from the same joined rows.
-- ---------------------------------------------------------------------------------------------

create function public.contacts_after_insert() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  ws uuid[];
  days date[];
  sources text[];
  statuses text[];
  ns bigint[];
  any_fields boolean;
begin
  -- the one read of new_rows: per (workspace, day, source, status), and whether any has custom fields
  select array_agg(g.workspace_id), array_agg(g.day), array_agg(g.source), array_agg(g.status),
         array_agg(g.n), coalesce(bool_or(g.has_fields), false)
  into ws, days, sources, statuses, ns, any_fields
  from (select workspace_id, (created_at at time zone 'UTC')::date as day, source,
               public.contact_email_status(is_subscribed, unsubscribed_at, email_suppressed) as status,
               count(*) as n, bool_or(custom_fields <> '{}'::jsonb) as has_fields
        from new_rows group by 1, 2, 3, 4) g;

  -- contact_counts (spec 4.15 getContacts total): the groups summed per (workspace, source)
  perform public.contact_counts_add(array_agg(d.workspace_id), array_agg(d.source), array_agg(d.n))
  from (select u.workspace_id, u.source, sum(u.n)::bigint as n
        from unnest(ws, sources, ns) as u(workspace_id, source, n) group by 1, 2) d;

  -- contact_stats (home dashboard): day, source and email status counts
  perform public.contact_stats_add(ws, days, sources, statuses, ns);

  -- docs/decisions.md "Suppressions belong to the address": re-creating an address restores its
  -- suppressions; skipped at once where no workspace written has a list
  if exists (select 1 from public.address_suppressions a where a.workspace_id = any (ws)) then
    perform public.restore_address_suppressions(array(select n.id from new_rows n));
  end if;

  -- docs/decisions.md "Custom fields": the typed rows equal the contact's object
  if any_fields then
    insert into public.contact_field_values (workspace_id, contact_id, field_id, ord, value_text, value_num, value_date, value_bool)
    select r.* from new_rows n
    cross join lateral public.contact_field_value_rows(n.workspace_id, n.id, n.custom_fields) r
    where n.custom_fields <> '{}'::jsonb;
  end if;

  -- outbound webhooks (spec: contact.created), where any endpoint exists
  if exists (select 1 from public.webhook_endpoints limit 1) then
    perform public.emit_webhook_events('contact.created',
      (select jsonb_agg(jsonb_build_object('workspace_id', n.workspace_id, 'data', public.webhook_contact_data(n)))
       from new_rows n));
  end if;
  return null;
end
$$;

create function public.contacts_after_update() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  count_ws uuid[];
  count_sources text[];
  count_ns bigint[];
  stat_ws uuid[];
  stat_days date[];
  stat_sources text[];
  stat_statuses text[];
  stat_deltas bigint[];
  any_fields_moved boolean;
  moved_ids uuid[];
  moved_ws uuid[];
  moved_emails text[];
  i int;
begin
  -- the one read of old_rows and new_rows. A full join: an update that changed a contact's id
  -- leaves unmatched rows, which only the custom fields' sync counts (as before); counts, stats and
  -- the email change pair rows by id (inner join), as the old triggers did.
  with c as materialized (
    select o.id is not null and r.id is not null as paired, r.id,
           o.workspace_id as old_ws, r.workspace_id as new_ws, o.source as old_source, r.source as new_source,
           (o.created_at at time zone 'UTC')::date as old_day, (r.created_at at time zone 'UTC')::date as new_day,
           public.contact_email_status(o.is_subscribed, o.unsubscribed_at, o.email_suppressed) as old_status,
           public.contact_email_status(r.is_subscribed, r.unsubscribed_at, r.email_suppressed) as new_status,
           o.id is null or r.id is null
             or (o.workspace_id, o.custom_fields) is distinct from (r.workspace_id, r.custom_fields) as fields_moved,
           o.email is distinct from r.email as email_moved, r.email as new_email
    from old_rows o full join new_rows r on r.id = o.id
  ), moves as (
    -- contact_counts: a contact moved to another (workspace, source) moves its count
    select workspace_id, source, sum(n)::bigint as n
    from (select old_ws as workspace_id, old_source as source, -1 as n from c
          where paired and (old_ws, old_source) is distinct from (new_ws, new_source)
          union all
          select new_ws, new_source, 1 from c
          where paired and (old_ws, old_source) is distinct from (new_ws, new_source)) x
    group by 1, 2
  ), m as (
    select *, (old_day, old_source) is distinct from (new_day, new_source) as moved,
           old_status is distinct from new_status as restated
    from c where paired and (old_day, old_source, old_status) is distinct from (new_day, new_source, new_status)
  ), stats as (
    -- contact_stats: -1 for the old keys that changed, +1 for the new (under the old workspace, as before)
    select old_ws as workspace_id, case when moved then old_day end as day,
           case when moved then old_source end as source, case when restated then old_status end as status,
           -1::bigint as delta from m
    union all
    select old_ws, case when moved then new_day end, case when moved then new_source end,
           case when restated then new_status end, 1 from m
  )
  select mv.ws, mv.sources, mv.ns, st.ws, st.days, st.sources, st.statuses, st.deltas, f.fields_moved,
         f.ids, f.wss, f.emails
  into count_ws, count_sources, count_ns, stat_ws, stat_days, stat_sources, stat_statuses, stat_deltas,
       any_fields_moved, moved_ids, moved_ws, moved_emails
  from (select array_agg(workspace_id) as ws, array_agg(source) as sources, array_agg(n) as ns from moves) mv,
       (select array_agg(workspace_id) as ws, array_agg(day) as days, array_agg(source) as sources,
               array_agg(status) as statuses, array_agg(delta) as deltas from stats) st,
       (select coalesce(bool_or(c.fields_moved), false) as fields_moved,
               array_agg(id) filter (where paired and email_moved) as ids,
               array_agg(new_ws) filter (where paired and email_moved) as wss,
               array_agg(new_email) filter (where paired and email_moved) as emails from c) f;

  -- docs/decisions.md "Suppressions belong to the address" (was the row trigger
  -- contacts_readdress_suppressions, one contact at a time as there): the old address's bounce
  -- stays on that address, not on the contact (ledger entry as before); the contact's other
  -- suppressions follow the person to the new address; the new address's own are restored.
  for i in 1 .. coalesce(array_length(moved_ids, 1), 0) loop
    with removed as (
      delete from public.contact_suppressions
      where contact_id = moved_ids[i] and reason = 'bounce'
      returning workspace_id, contact_id
    )
    insert into public.consent_events (workspace_id, contact_id, action, flow, reason, actor_user_id)
    select r.workspace_id, r.contact_id, 'unsuppressed', 'email_change', 'bounce', (select auth.uid())
    from removed r;
    perform public.ensure_privacy_salt(moved_ws[i]);
    insert into public.address_suppressions (workspace_id, address_hash, reason, created_at)
    select s.workspace_id, public.erased_address_hash(s.workspace_id, moved_emails[i]), s.reason, s.created_at
    from public.contact_suppressions s where s.contact_id = moved_ids[i]
    on conflict (workspace_id, address_hash, reason) do nothing;
    perform public.restore_address_suppressions(array[moved_ids[i]]);
  end loop;

  -- contact_counts (spec 4.15 getContacts total)
  perform public.contact_counts_add(count_ws, count_sources, count_ns);
  -- contact_stats (home dashboard)
  perform public.contact_stats_add(stat_ws, stat_days, stat_sources, stat_statuses, stat_deltas);

  -- docs/decisions.md "Custom fields": a contact counts as changed unless the statement left a
  -- row with its workspace, id and object (an update that moved the id rewrites both ids' rows)
  if any_fields_moved then
    delete from public.contact_field_values v
    using old_rows o
    where v.workspace_id = o.workspace_id and v.contact_id = o.id
      and not exists (select 1 from new_rows n
                      where n.id = o.id and n.workspace_id = o.workspace_id
                        and n.custom_fields is not distinct from o.custom_fields);
    insert into public.contact_field_values (workspace_id, contact_id, field_id, ord, value_text, value_num, value_date, value_bool)
    select r.* from new_rows n
    cross join lateral public.contact_field_value_rows(n.workspace_id, n.id, n.custom_fields) r
    where n.custom_fields <> '{}'::jsonb
      and not exists (select 1 from old_rows o
                      where o.id = n.id and o.workspace_id = n.workspace_id
                        and o.custom_fields is not distinct from n.custom_fields);
  end if;

  -- outbound webhooks: contact.updated (a documented column changed), contact.subscribed (now
  -- cleanly subscribed, spec 3.3, and was not), contact.unsubscribed (the reverse)
  if exists (select 1 from public.webhook_endpoints limit 1) then
    perform public.emit_webhook_events('contact.updated',
      (select jsonb_agg(jsonb_build_object('workspace_id', n.workspace_id, 'data', public.webhook_contact_data(n)))
       from new_rows n join old_rows o on o.id = n.id
       where (n.email, n.first_name, n.last_name, n.phone, n.source, n.address_line1, n.address_line2, n.city,
              n.state, n.postal_code, n.country, n.birth_month, n.birth_day, n.assigned_user_id)
             is distinct from
             (o.email, o.first_name, o.last_name, o.phone, o.source, o.address_line1, o.address_line2, o.city,
              o.state, o.postal_code, o.country, o.birth_month, o.birth_day, o.assigned_user_id)));
    perform public.emit_webhook_events('contact.subscribed',
      (select jsonb_agg(jsonb_build_object('workspace_id', n.workspace_id, 'data', public.webhook_contact_data(n)))
       from new_rows n join old_rows o on o.id = n.id
       where n.is_subscribed and n.unsubscribed_at is null
         and not (o.is_subscribed and o.unsubscribed_at is null)));
    perform public.emit_webhook_events('contact.unsubscribed',
      (select jsonb_agg(jsonb_build_object('workspace_id', n.workspace_id, 'data', public.webhook_contact_data(n)))
       from new_rows n join old_rows o on o.id = n.id
       where o.is_subscribed and o.unsubscribed_at is null
         and not (n.is_subscribed and n.unsubscribed_at is null)));
  end if;
  return null;
end
$$;

create function public.contacts_after_delete() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  ws uuid[];
  days date[];
  sources text[];
  statuses text[];
  ns bigint[];
begin
  -- the one read of old_rows, negated: the deleted contacts leave their groups
  select array_agg(g.workspace_id), array_agg(g.day), array_agg(g.source), array_agg(g.status), array_agg(-g.n)
  into ws, days, sources, statuses, ns
  from (select workspace_id, (created_at at time zone 'UTC')::date as day, source,
               public.contact_email_status(is_subscribed, unsubscribed_at, email_suppressed) as status,
               count(*) as n
        from old_rows group by 1, 2, 3, 4) g;

  perform public.contact_counts_add(array_agg(d.workspace_id), array_agg(d.source), array_agg(d.n))
  from (select u.workspace_id, u.source, sum(u.n)::bigint as n
        from unnest(ws, sources, ns) as u(workspace_id, source, n) group by 1, 2) d;
  perform public.contact_stats_add(ws, days, sources, statuses, ns);

  -- outbound webhooks: contact.deleted, with the id and the address only
  if exists (select 1 from public.webhook_endpoints limit 1) then
    perform public.emit_webhook_events('contact.deleted',
      (select jsonb_agg(jsonb_build_object('workspace_id', o.workspace_id,
                                           'data', jsonb_build_object('id', o.id, 'email', o.email)))
       from old_rows o));
  end if;
  return null;
end
$$;

revoke execute on function public.contacts_after_insert(), public.contacts_after_update(),
  public.contacts_after_delete() from public, anon, authenticated;

-- Spec 4.15 (getContacts total), the home dashboard's counts, the address's suppressions, the custom
-- fields' typed rows and the contact.created webhook, for the statement's new contacts
create trigger contacts_after_insert after insert on public.contacts
  referencing new table as new_rows
  for each statement execute function public.contacts_after_insert();
-- The same for changed contacts (moves between counts, an email change's suppressions, changed
-- objects, contact.updated/subscribed/unsubscribed)
create trigger contacts_after_update after update on public.contacts
  referencing old table as old_rows new table as new_rows
  for each statement execute function public.contacts_after_update();
-- The counts the deleted contacts leave, and contact.deleted
create trigger contacts_after_delete after delete on public.contacts
  referencing old table as old_rows
  for each statement execute function public.contacts_after_delete();
