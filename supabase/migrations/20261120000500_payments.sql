-- Payments (spec 2.5, 3.1, 4.4, 4.11-4.12): products, transactions and the workspace's
-- payment-processor connection (spec 2.10). Row-level security and grants: *_rls.sql.

-- Spec 2.10: products (fields beyond those named are not shown).
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
-- products.updated_at kept by the database
create trigger products_updated_at before update on public.products
  for each row execute function public.set_updated_at();

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
-- A period's revenue and refunds on the dashboard (docs/decisions.md, "Home dashboard"): an index-only range
-- scan over the period's purchases.
create index transactions_workspace_date_idx on public.transactions (workspace_id, transaction_date)
  include (amount_paid, amount_refunded);

-- Spec 2.10: payproc_connections.
create table public.payproc_connections (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null unique references public.workspaces (id) on delete cascade,
  payproc_account_id text unique,
  livemode boolean not null default false,
  auto_subscribe_purchasers boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- payproc_connections.updated_at kept by the database
create trigger payproc_connections_updated_at before update on public.payproc_connections
  for each row execute function public.set_updated_at();
