-- Automations (spec 6.2), the durable webhook inbox (spec 6.1) and the schema of the
-- job engine that processes it. Row-level security and grants: *_rls.sql.

create table public.automations (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  name text not null,
  trigger_type text not null check (trigger_type in ('form_submitted', 'product_refunded', 'event_registration')),
  form_id uuid,
  product_id uuid,
  event_id uuid,
  action_type text not null check (action_type in ('add_tag', 'enroll_campaign', 'create_task')),
  action_config jsonb not null default '{}'::jsonb,
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint automations_workspace_id_id_key unique (workspace_id, id),
  -- an automation's subject belongs to its own workspace (spec 5.4)
  foreign key (workspace_id, form_id) references public.forms (workspace_id, id) on delete cascade,
  foreign key (workspace_id, product_id) references public.products (workspace_id, id) on delete cascade,
  foreign key (workspace_id, event_id) references public.events (workspace_id, id) on delete cascade
);
create index automations_trigger_idx on public.automations (workspace_id, trigger_type);
create index automations_form_idx on public.automations (form_id, workspace_id);
create index automations_product_idx on public.automations (product_id, workspace_id);
create index automations_event_idx on public.automations (event_id, workspace_id);
-- automations.updated_at kept by the database
create trigger automations_updated_at before update on public.automations
  for each row execute function public.set_updated_at();

create table public.automation_runs (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  automation_id uuid not null,
  contact_id uuid,
  trigger_type text not null,
  status text not null check (status in ('succeeded', 'failed', 'skipped')),
  error text,
  payload jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  foreign key (workspace_id, automation_id) references public.automations (workspace_id, id) on delete cascade,
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id)
    on delete set null (contact_id)
);
create index automation_runs_automation_idx on public.automation_runs (automation_id, created_at desc);
create index automation_runs_contact_idx on public.automation_runs (contact_id, workspace_id);
create index automation_runs_workspace_automation_idx on public.automation_runs (workspace_id, automation_id);

-- Inbound webhooks are kept here before they are processed; a replayed provider
-- event id hits the unique key and is acknowledged without being processed twice.
create table public.webhook_inbox (
  id uuid primary key default gen_random_uuid(),
  provider text not null check (provider in ('payproc', 'ticketing', 'email')),
  event_id text not null,
  event_type text not null,
  workspace_id uuid references public.workspaces (id) on delete cascade,
  payload jsonb not null,
  -- 'dead': a ticketing delivery whose last attempt failed (docs/decisions.md, "The job engine"), kept with
  -- its error, shown on the jobs page, retried only by hand
  status text not null default 'pending'
    check (status in ('pending', 'processing', 'done', 'failed', 'ignored', 'dead')),
  attempts integer not null default 0,
  last_error text,
  received_at timestamptz not null default now(),
  processed_at timestamptz,
  constraint webhook_inbox_provider_event_key unique (provider, event_id)
);
create index webhook_inbox_pending_idx on public.webhook_inbox (provider, received_at) where status in ('pending', 'failed');
create index webhook_inbox_workspace_idx on public.webhook_inbox (workspace_id);
-- The per-connection count of stored-but-unprocessed deliveries (the ticketing inbox cap,
-- docs/decisions.md, "The ticketing webhook") reads these rows.
create index webhook_inbox_unprocessed_workspace_idx on public.webhook_inbox (provider, workspace_id)
  where status in ('pending', 'processing', 'failed');

-- Background work runs on pg-boss (docs/decisions.md, "The job engine"). pg-boss installs and
-- upgrades its own tables in the pgboss schema when a worker or `npm start` starts; the schema is
-- created here so that it is closed to the API roles before anything is put in it. It is not an
-- exposed schema: members see their workspace's jobs through the jobs page, which reads them as
-- the service after checking the member's role.
create schema if not exists pgboss;
revoke all on schema pgboss from public;
revoke all on schema pgboss from anon, authenticated;
-- The service (withService: webhooks, workers, the jobs page after its role check) enqueues and
-- reads jobs in its own transactions. Default privileges reach the tables pg-boss creates later,
-- as the same owner that runs this migration.
grant usage on schema pgboss to service_role;
alter default privileges in schema pgboss grant all on tables to service_role;
alter default privileges in schema pgboss grant all on sequences to service_role;
grant all on all tables in schema pgboss to service_role;
grant all on all sequences in schema pgboss to service_role;
