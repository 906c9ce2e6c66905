-- Outbound webhooks (docs/decisions.md, "Outbound webhooks"): endpoints that receive signed events (Standard
-- Webhooks) as data changes. Events are written by triggers on the tables whose changes they
-- describe, so an event exists exactly when its change commits, whichever code path made it
-- (dashboard, form, webhook, import, job), and never for a rolled-back change. Row-level
-- security and grants: *_rls.sql (owners and admins manage endpoints and read the delivery
-- log; no member writes a delivery).

create table public.webhook_endpoints (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  url text not null check (length(url) between 8 and 2000),
  description text check (description is null or length(description) <= 200),
  event_types text[] not null check (cardinality(event_types) > 0),
  enabled boolean not null default true,
  -- the Standard Webhooks signing secret, AES-256-GCM encrypted by the app (lib/crypto/secret-box.ts);
  -- shown to the member once, when created or rotated, and never readable through RLS
  secret_ciphertext text not null,
  -- the first failure of the current run of failures; cleared by a success
  failing_since timestamptz,
  disabled_reason text,
  created_by uuid references public.user_profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint webhook_endpoints_workspace_id_id_key unique (workspace_id, id)
);
create index webhook_endpoints_workspace_idx on public.webhook_endpoints (workspace_id) where enabled;
create index webhook_endpoints_created_by_idx on public.webhook_endpoints (created_by);
-- webhook_endpoints.updated_at kept by the database
create trigger webhook_endpoints_updated_at before update on public.webhook_endpoints
  for each row execute function public.set_updated_at();

create table public.webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  endpoint_id uuid not null,
  -- the webhook-id header: the same for every attempt and every manual replay of one message
  message_id text not null default 'msg_' || replace(gen_random_uuid()::text, '-', ''),
  event_type text not null,
  -- the body as sent (versioned: api_version), signed as jsonb renders it
  payload jsonb not null,
  status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  last_attempt_at timestamptz,
  last_status_code integer,
  last_duration_ms integer,
  last_response_excerpt text,
  -- the delivery this one replays (informational: the log shows "replay"); no foreign key, a
  -- delivery is only ever deleted with its endpoint
  replay_of uuid,
  created_at timestamptz not null default now(),
  foreign key (workspace_id, endpoint_id) references public.webhook_endpoints (workspace_id, id) on delete cascade
);
create index webhook_deliveries_endpoint_idx on public.webhook_deliveries (workspace_id, endpoint_id, created_at desc);
create index webhook_deliveries_due_idx on public.webhook_deliveries (next_attempt_at) where status = 'pending';

-- One delivery per enabled endpoint of the row's workspace that subscribes to the event type.
-- `events` holds (workspace_id, data) of the rows the statement changed; a workspace being
-- deleted (the join with workspaces finds it gone) emits nothing.
create or replace function public.emit_webhook_events(event_type text, events jsonb)
returns void
language sql security definer
set search_path = ''
as $$
  insert into public.webhook_deliveries (workspace_id, endpoint_id, event_type, payload)
  select e.workspace_id, e.id, event_type,
         jsonb_build_object('type', event_type, 'api_version', '2026-11-23',
                            'timestamp', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                            'workspace_id', e.workspace_id, 'data', x.value -> 'data')
  from jsonb_array_elements(events) x
  join public.webhook_endpoints e
    on e.workspace_id = (x.value ->> 'workspace_id')::uuid and e.enabled and event_type = any (e.event_types)
  join public.workspaces w on w.id = e.workspace_id
$$;
revoke execute on function public.emit_webhook_events(text, jsonb) from public, anon, authenticated;

-- The public shape of a contact in webhook payloads (no IP, no internal tokens).
create or replace function public.webhook_contact_data(c public.contacts) returns jsonb
language sql immutable
set search_path = ''
as $$
  select jsonb_build_object(
    'id', c.id, 'email', c.email, 'first_name', c.first_name, 'last_name', c.last_name, 'phone', c.phone,
    'source', c.source, 'is_subscribed', c.is_subscribed, 'opt_in_source', c.opt_in_source,
    'opt_in_timestamp', c.opt_in_timestamp, 'unsubscribed_at', c.unsubscribed_at,
    'created_at', c.created_at, 'updated_at', c.updated_at)
$$;

-- contact.created, contact.updated, contact.subscribed, contact.unsubscribed, contact.deleted
-- (see the file's head). Statement-level with transition tables: one insert per statement, nothing at all
-- when the workspace has no endpoint (a 100,000-row import costs one empty join).
create or replace function public.contacts_webhook_events() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from public.webhook_endpoints limit 1) then
    return null;
  end if;
  if tg_op = 'INSERT' then
    perform public.emit_webhook_events('contact.created',
      (select jsonb_agg(jsonb_build_object('workspace_id', n.workspace_id, 'data', public.webhook_contact_data(n)))
       from new_rows n));
  elsif tg_op = 'DELETE' then
    perform public.emit_webhook_events('contact.deleted',
      (select jsonb_agg(jsonb_build_object('workspace_id', o.workspace_id,
                                           'data', jsonb_build_object('id', o.id, 'email', o.email)))
       from old_rows o));
  else
    perform public.emit_webhook_events('contact.updated',
      (select jsonb_agg(jsonb_build_object('workspace_id', n.workspace_id, 'data', public.webhook_contact_data(n)))
       from new_rows n join old_rows o on o.id = n.id
       where (n.email, n.first_name, n.last_name, n.phone, n.source, n.address_line1, n.address_line2, n.city,
              n.state, n.postal_code, n.country, n.birth_month, n.birth_day, n.assigned_user_id)
             is distinct from
             (o.email, o.first_name, o.last_name, o.phone, o.source, o.address_line1, o.address_line2, o.city,
              o.state, o.postal_code, o.country, o.birth_month, o.birth_day, o.assigned_user_id)));
    -- subscribed: now cleanly subscribed (spec 3.3), and was not
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
-- contact.created for contacts inserted
create trigger contacts_webhooks_insert after insert on public.contacts
  referencing new table as new_rows for each statement execute function public.contacts_webhook_events();
-- contact.updated, contact.subscribed, contact.unsubscribed for contacts changed
create trigger contacts_webhooks_update after update on public.contacts
  referencing old table as old_rows new table as new_rows
  for each statement execute function public.contacts_webhook_events();
-- contact.deleted for contacts deleted
create trigger contacts_webhooks_delete after delete on public.contacts
  referencing old table as old_rows for each statement execute function public.contacts_webhook_events();

-- contact.suppressed: a suppression of any reason was added.
create or replace function public.suppressions_webhook_events() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.webhook_endpoints limit 1) then
    perform public.emit_webhook_events('contact.suppressed',
      (select jsonb_agg(jsonb_build_object('workspace_id', n.workspace_id, 'data',
                jsonb_build_object('contact_id', n.contact_id, 'reason', n.reason, 'created_at', n.created_at)))
       from new_rows n));
  end if;
  return null;
end
$$;
-- contact.suppressed for suppressions added
create trigger contact_suppressions_webhooks after insert on public.contact_suppressions
  referencing new table as new_rows for each statement execute function public.suppressions_webhook_events();

-- form.submitted (a submission accepted: applied at once, or staged for double opt-in) and
-- form.verified (a staged submission confirmed through its link).
create or replace function public.form_submissions_webhook_events() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from public.webhook_endpoints limit 1) then
    return null;
  end if;
  if tg_table_name = 'pending_form_submissions' then
    perform public.emit_webhook_events('form.submitted',
      (select jsonb_agg(jsonb_build_object('workspace_id', n.workspace_id, 'data',
                jsonb_build_object('form_id', n.form_id, 'email', n.email, 'status', 'pending_verification',
                                   'payload', n.payload, 'created_at', n.created_at)))
       from new_rows n));
  else
    perform public.emit_webhook_events(
      case when s.submission_type = 'verified_email' then 'form.verified' else 'form.submitted' end,
      jsonb_agg(jsonb_build_object('workspace_id', s.workspace_id, 'data',
                jsonb_build_object('id', s.id, 'form_id', s.form_id, 'contact_id', s.contact_id,
                                   'submission_type', s.submission_type, 'status', 'applied',
                                   'payload', s.payload, 'created_at', s.created_at))))
    from new_rows s
    group by s.submission_type = 'verified_email';
  end if;
  return null;
end
$$;
-- form.submitted / form.verified for submissions stored
create trigger form_submissions_webhooks after insert on public.form_submissions
  referencing new table as new_rows for each statement execute function public.form_submissions_webhook_events();
-- form.submitted for submissions staged for verification
create trigger pending_form_submissions_webhooks after insert on public.pending_form_submissions
  referencing new table as new_rows for each statement execute function public.form_submissions_webhook_events();

-- transaction.created and transaction.refunded: a purchase row stored; a refund
-- applied to it (amount_refunded grew).
create or replace function public.transactions_webhook_events() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from public.webhook_endpoints limit 1) then
    return null;
  end if;
  if tg_op = 'INSERT' then
    perform public.emit_webhook_events('transaction.created',
      (select jsonb_agg(jsonb_build_object('workspace_id', n.workspace_id, 'data', to_jsonb(n))) from new_rows n));
  else
    perform public.emit_webhook_events('transaction.refunded',
      (select jsonb_agg(jsonb_build_object('workspace_id', n.workspace_id, 'data',
                to_jsonb(n) || jsonb_build_object('refunded_now', n.amount_refunded - o.amount_refunded)))
       from new_rows n join old_rows o on o.id = n.id
       where n.amount_refunded > o.amount_refunded));
  end if;
  return null;
end
$$;
-- transaction.created for purchases stored
create trigger transactions_webhooks_insert after insert on public.transactions
  referencing new table as new_rows for each statement execute function public.transactions_webhook_events();
-- transaction.refunded when amount_refunded grows
create trigger transactions_webhooks_update after update on public.transactions
  referencing old table as old_rows new table as new_rows
  for each statement execute function public.transactions_webhook_events();

-- event_registration.created (every registration), rsvp.created (one made on the RSVP page:
-- no ticketing attendee) and event_registration.cancelled.
create or replace function public.event_registrations_webhook_events() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from public.webhook_endpoints limit 1) then
    return null;
  end if;
  if tg_op = 'INSERT' then
    perform public.emit_webhook_events('event_registration.created',
      (select jsonb_agg(jsonb_build_object('workspace_id', n.workspace_id, 'data', to_jsonb(n))) from new_rows n));
    perform public.emit_webhook_events('rsvp.created',
      (select jsonb_agg(jsonb_build_object('workspace_id', n.workspace_id, 'data', to_jsonb(n)))
       from new_rows n where n.external_attendee_id is null));
  else
    perform public.emit_webhook_events('event_registration.cancelled',
      (select jsonb_agg(jsonb_build_object('workspace_id', n.workspace_id, 'data', to_jsonb(n)))
       from new_rows n join old_rows o on o.id = n.id
       where n.status = 'cancelled' and o.status <> 'cancelled'));
  end if;
  return null;
end
$$;
-- event_registration.created and rsvp.created for registrations stored
create trigger event_registrations_webhooks_insert after insert on public.event_registrations
  referencing new table as new_rows for each statement execute function public.event_registrations_webhook_events();
-- event_registration.cancelled for registrations cancelled
create trigger event_registrations_webhooks_update after update on public.event_registrations
  referencing old table as old_rows new table as new_rows
  for each statement execute function public.event_registrations_webhook_events();

-- A manual replay: a new delivery of the same message (same webhook-id, same body)
-- to the same endpoint. Owners and admins of the delivery's workspace only; members write no
-- delivery themselves, so a body is never forged under the workspace's signature.
create or replace function public.replay_webhook_delivery(delivery_id uuid) returns uuid
language sql security definer
set search_path = ''
as $$
  insert into public.webhook_deliveries (workspace_id, endpoint_id, message_id, event_type, payload, replay_of)
  select d.workspace_id, d.endpoint_id, d.message_id, d.event_type, d.payload, d.id
  from public.webhook_deliveries d
  where d.id = delivery_id and public.has_workspace_role(d.workspace_id, array['owner', 'admin'])
  returning id
$$;
revoke execute on function public.replay_webhook_delivery(uuid) from public, anon;
grant execute on function public.replay_webhook_delivery(uuid) to authenticated;

-- "Send test event": a webhook.test message to one endpoint, enabled or not.
create or replace function public.send_webhook_test_event(endpoint_id uuid) returns uuid
language sql security definer
set search_path = ''
as $$
  insert into public.webhook_deliveries (workspace_id, endpoint_id, event_type, payload)
  select e.workspace_id, e.id, 'webhook.test',
         jsonb_build_object('type', 'webhook.test', 'api_version', '2026-11-23',
                            'timestamp', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                            'workspace_id', e.workspace_id,
                            'data', jsonb_build_object('endpoint_id', e.id, 'message', 'A test event from your CRM.'))
  from public.webhook_endpoints e
  where e.id = endpoint_id and public.has_workspace_role(e.workspace_id, array['owner', 'admin'])
  returning id
$$;
revoke execute on function public.send_webhook_test_event(uuid) from public, anon;
grant execute on function public.send_webhook_test_event(uuid) to authenticated;
