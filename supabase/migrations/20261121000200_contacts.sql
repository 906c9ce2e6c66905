-- Contacts (spec 2.4) and the records that hang off them (spec 2.4.2, 2.10).
--
-- Tenant integrity: every link between two workspace-scoped rows is a composite foreign
-- key (workspace_id, x_id) -> parent (workspace_id, id), so a row can only point at a row of
-- its own workspace, whoever writes it (spec 5.4: "every table is limited to the rows of the
-- caller's workspaces"). Each parent carries `unique (workspace_id, id)` for that. Set-null
-- rules name the column (`on delete set null (contact_id)`, PostgreSQL 15+) so that
-- workspace_id is kept. Each such key has an index whose leading columns are its columns.

create table public.contacts (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  email text not null check (email <> ''),
  first_name text,
  last_name text,
  phone text,
  -- spec 2.4.1 (plus 'event', set by the RSVP endpoint)
  source text not null default 'manual'
    check (source in ('manual', 'form', 'import', 'ticketing', 'payproc', 'event')),
  address_line1 text,
  address_line2 text,
  city text,
  state text,
  postal_code text,
  country text,
  birth_month integer check (birth_month between 1 and 12),
  birth_day integer check (birth_day between 1 and 31),
  is_subscribed boolean not null default false,
  opt_in_timestamp timestamptz,
  opt_in_source text,
  opt_in_ip inet,
  unsubscribed_at timestamptz,
  assigned_user_id uuid references public.user_profiles (id) on delete set null,
  portal_token uuid default gen_random_uuid(),
  -- beyond the spec: who created and last changed the row (getContactById); null = system
  created_by uuid references public.user_profiles (id) on delete set null,
  updated_by uuid references public.user_profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint contacts_workspace_email_key unique (workspace_id, email),
  constraint contacts_workspace_id_id_key unique (workspace_id, id),
  constraint contacts_birthday_paired check ((birth_month is null) = (birth_day is null))
);
create index contacts_workspace_created_idx on public.contacts (workspace_id, created_at desc, id desc);
create index contacts_workspace_name_idx on public.contacts (workspace_id, first_name, last_name, id);
create index contacts_workspace_source_idx on public.contacts (workspace_id, source, created_at desc);
create index contacts_assigned_user_idx on public.contacts (assigned_user_id);
create index contacts_created_by_idx on public.contacts (created_by);
create index contacts_updated_by_idx on public.contacts (updated_by);
create unique index contacts_portal_token_key on public.contacts (portal_token);

-- Emails are unique per workspace regardless of case or surrounding blanks, and
-- the signed-in user (null for system writers) is recorded as creator and modifier.
create or replace function public.contacts_before_write() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.email := lower(btrim(new.email));
  if tg_op = 'INSERT' then
    new.created_by := coalesce(new.created_by, (select auth.uid()));
    new.updated_by := coalesce(new.updated_by, new.created_by);
  else
    new.updated_by := (select auth.uid());
    new.updated_at := now();
  end if;
  return new;
end
$$;
create trigger contacts_before_write before insert or update on public.contacts
  for each row execute function public.contacts_before_write();

-- Spec 4.15, last paragraph: contacts.source is protected. Without a signed-in user
-- (webhooks, form endpoints, sync jobs) an existing source is forced back; a signed-in
-- owner or admin may change it. Members cannot either (they use updateContactSource,
-- which refuses them).
create or replace function public.protect_contact_source() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if old.source is not null and new.source is distinct from old.source
     and ((select auth.uid()) is null
          or not public.has_workspace_role(old.workspace_id, array['owner', 'admin']))
  then
    new.source := old.source;
  end if;
  return new;
end
$$;
create trigger contacts_protect_source before update of source on public.contacts
  for each row execute function public.protect_contact_source();

create table public.tags (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  name text not null check (length(btrim(name)) between 1 and 100),
  color text,
  created_at timestamptz not null default now(),
  constraint tags_workspace_name_key unique (workspace_id, name),
  constraint tags_workspace_id_id_key unique (workspace_id, id)
);

create table public.contact_tags (
  contact_id uuid not null,
  tag_id uuid not null,
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (contact_id, tag_id),
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id) on delete cascade,
  foreign key (workspace_id, tag_id) references public.tags (workspace_id, id) on delete cascade
);
create index contact_tags_tag_contact_idx on public.contact_tags (tag_id, workspace_id, contact_id);
create index contact_tags_workspace_contact_idx on public.contact_tags (workspace_id, contact_id);
create trigger contact_tags_fill_workspace before insert on public.contact_tags
  for each row execute function public.fill_workspace_from_contact();

create table public.products (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  name text not null,
  payproc_product_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint products_workspace_payproc_key unique (workspace_id, payproc_product_id),
  constraint products_workspace_id_id_key unique (workspace_id, id)
);
create trigger products_updated_at before update on public.products
  for each row execute function public.set_updated_at();

create table public.tasks (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  contact_id uuid,
  title text not null default '',
  description text,
  kind text not null default 'general' check (kind in ('general', 'refund_review')),
  status text not null default 'open' check (status in ('open', 'in_progress', 'completed', 'cancelled')),
  due_date date,
  completed_at timestamptz,
  assigned_user_id uuid references public.user_profiles (id) on delete set null,
  payproc_payment_intent_id text,
  created_by uuid references public.user_profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint tasks_workspace_id_id_key unique (workspace_id, id),
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id)
    on delete set null (contact_id)
);
create index tasks_workspace_status_idx on public.tasks (workspace_id, status, due_date);
create index tasks_contact_idx on public.tasks (contact_id, workspace_id);
create index tasks_assigned_user_idx on public.tasks (assigned_user_id);
create index tasks_created_by_idx on public.tasks (created_by);
create index tasks_intent_idx on public.tasks (workspace_id, payproc_payment_intent_id) where payproc_payment_intent_id is not null;
create trigger tasks_updated_at before update on public.tasks
  for each row execute function public.set_updated_at();

-- Spec 2.10: notes carry HTML and plain text; created_by null is a system note ('System').
create table public.notes (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  contact_id uuid,
  task_id uuid,
  type text not null default 'contact' check (type in ('contact', 'task')),
  content text not null default '',
  content_text text not null default '',
  created_by uuid references public.user_profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id) on delete cascade,
  foreign key (workspace_id, task_id) references public.tasks (workspace_id, id) on delete cascade
);
create index notes_contact_created_idx on public.notes (contact_id, created_at desc);
create index notes_task_idx on public.notes (task_id, workspace_id);
create index notes_workspace_contact_idx on public.notes (workspace_id, contact_id);
create index notes_created_by_idx on public.notes (created_by);
create trigger notes_fill_workspace before insert on public.notes
  for each row execute function public.fill_workspace_from_contact();
create trigger notes_updated_at before update on public.notes
  for each row execute function public.set_updated_at();

create table public.companies (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  name text not null,
  created_at timestamptz not null default now(),
  constraint companies_workspace_id_id_key unique (workspace_id, id)
);

create table public.company_contacts (
  company_id uuid not null,
  contact_id uuid not null,
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (company_id, contact_id),
  foreign key (workspace_id, company_id) references public.companies (workspace_id, id) on delete cascade,
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id) on delete cascade
);
create index company_contacts_contact_idx on public.company_contacts (contact_id, workspace_id);
create index company_contacts_workspace_company_idx on public.company_contacts (workspace_id, company_id);
create trigger company_contacts_fill_workspace before insert on public.company_contacts
  for each row execute function public.fill_workspace_from_contact();

create table public.deals (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  contact_id uuid,
  title text not null,
  value numeric(10,2),
  stage text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint deals_workspace_id_id_key unique (workspace_id, id),
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id)
    on delete set null (contact_id)
);
create index deals_contact_idx on public.deals (contact_id, workspace_id);
create trigger deals_updated_at before update on public.deals
  for each row execute function public.set_updated_at();

create table public.deal_payments (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  deal_id uuid not null,
  label text not null default '',
  amount numeric(10,2) not null default 0,
  currency text not null default 'usd',
  status text not null default 'pending' check (status in ('pending', 'paid', 'cancelled')),
  paid_at timestamptz,
  created_at timestamptz not null default now(),
  foreign key (workspace_id, deal_id) references public.deals (workspace_id, id) on delete cascade
);
create index deal_payments_deal_idx on public.deal_payments (deal_id, workspace_id);
create index deal_payments_workspace_idx on public.deal_payments (workspace_id);

create table public.appointments (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  title text not null,
  start_time timestamptz,
  end_time timestamptz,
  created_at timestamptz not null default now(),
  constraint appointments_workspace_id_id_key unique (workspace_id, id)
);

create table public.appointment_external_attendees (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  appointment_id uuid not null,
  contact_id uuid not null,
  created_at timestamptz not null default now(),
  foreign key (workspace_id, appointment_id) references public.appointments (workspace_id, id) on delete cascade,
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id) on delete cascade
);
create index appointment_attendees_appointment_idx on public.appointment_external_attendees (appointment_id, workspace_id);
create index appointment_attendees_contact_idx on public.appointment_external_attendees (contact_id, workspace_id);
create index appointment_attendees_workspace_idx on public.appointment_external_attendees (workspace_id);
create trigger appointment_attendees_fill_workspace before insert on public.appointment_external_attendees
  for each row execute function public.fill_workspace_from_contact();

create table public.agreements (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  title text not null,
  created_at timestamptz not null default now(),
  constraint agreements_workspace_id_id_key unique (workspace_id, id)
);

create table public.agreement_contacts (
  agreement_id uuid not null,
  contact_id uuid not null,
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (agreement_id, contact_id),
  foreign key (workspace_id, agreement_id) references public.agreements (workspace_id, id) on delete cascade,
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id) on delete cascade
);
create index agreement_contacts_contact_idx on public.agreement_contacts (contact_id, workspace_id);
create index agreement_contacts_workspace_agreement_idx on public.agreement_contacts (workspace_id, agreement_id);
create trigger agreement_contacts_fill_workspace before insert on public.agreement_contacts
  for each row execute function public.fill_workspace_from_contact();

-- Spec 2.5. Money is numeric(10,2); the application computes in integer cents.
create table public.transactions (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  contact_id uuid,
  product_id uuid,
  amount_paid numeric(10,2) not null default 0 check (amount_paid >= 0),
  currency text not null default 'usd' check (currency = lower(currency)),
  external_payproc_transaction_id text unique,
  payproc_payment_intent_id text,
  status text not null default 'succeeded' check (status in ('succeeded', 'refunded')),
  amount_refunded numeric(10,2) not null default 0 check (amount_refunded >= 0),
  constraint transactions_refund_within_paid check (amount_refunded <= amount_paid),
  transaction_date timestamptz not null default now(),
  created_at timestamptz not null default now(),
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id)
    on delete set null (contact_id),
  foreign key (workspace_id, product_id) references public.products (workspace_id, id)
    on delete set null (product_id)
);
create index transactions_workspace_intent_idx on public.transactions (workspace_id, payproc_payment_intent_id);
create index transactions_contact_idx on public.transactions (contact_id, workspace_id, transaction_date desc);
create index transactions_product_idx on public.transactions (product_id, workspace_id);
create index transactions_null_intent_idx on public.transactions (workspace_id) where payproc_payment_intent_id is null;
