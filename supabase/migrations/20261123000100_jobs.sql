-- Issue 14: background work runs on pg-boss (docs/decisions.md, "Jobs"). pg-boss installs and
-- upgrades its own tables in the pgboss schema when a worker or `npm start` starts; the schema is
-- created here so that it is closed to the API roles before anything is put in it. It is not an
-- exposed schema: members see their workspace's jobs through the jobs page, which reads them as
-- the service after checking the member's role.
create schema if not exists pgboss;
revoke all on schema pgboss from public;
-- The service (withService: webhooks, workers, the jobs page after its role check) enqueues and
-- reads jobs in its own transactions. Default privileges reach the tables pg-boss creates later,
-- as the same owner that runs this migration.
grant usage on schema pgboss to service_role;
alter default privileges in schema pgboss grant all on tables to service_role;
alter default privileges in schema pgboss grant all on sequences to service_role;
grant all on all tables in schema pgboss to service_role;
grant all on all sequences in schema pgboss to service_role;
do $$
begin
  if exists (select 1 from pg_roles where rolname = 'anon') then
    execute 'revoke all on schema pgboss from anon, authenticated';
  end if;
end
$$;

-- A ticketing delivery whose last attempt failed is 'dead': kept with its error, shown on the
-- jobs page, retried only by hand.
alter table public.webhook_inbox drop constraint webhook_inbox_status_check;
alter table public.webhook_inbox add constraint webhook_inbox_status_check
  check (status in ('pending', 'processing', 'done', 'failed', 'ignored', 'dead'));

-- Broadcasts run as a job: 'sending' while the job works on it; 'paused' and 'cancelled' are
-- read by the job before each batch.
alter table public.broadcasts drop constraint broadcasts_status_check;
alter table public.broadcasts add constraint broadcasts_status_check
  check (status in ('draft', 'sending', 'paused', 'cancelled', 'sent', 'failed'));

-- Where the broadcast's claims have reached in contact id order: each batch takes the audience's
-- next contacts after it, so a batch costs the same at the end of 100,000 contacts as at the start.
alter table public.broadcasts add column claim_cursor uuid;
