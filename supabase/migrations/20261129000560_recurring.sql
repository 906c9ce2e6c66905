-- Recurring money through Stripe Billing (DESIGN section 9 "Recurring"; docs/decisions.md,
-- "Subscriptions mirror Stripe's newest object"): the prices a workspace sells as plans, a mirror of
-- each Stripe subscription, and the membership derived from it. Written only by the payment webhook
-- through the service door: every value comes from Stripe, so a member writing one could make a
-- lapsed member active.

-- A plan is a Stripe Price on the workspace's connected account. A subscription to a price that is
-- no plan of the workspace is parked for review, never guessed.
create table public.plans (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  payproc_price_id text not null check (length(payproc_price_id) between 1 and 255),
  payproc_product_id text,
  name text not null check (length(name) between 1 and 200),
  kind text not null default 'membership' check (kind in ('membership', 'gift')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (workspace_id, id),
  unique (workspace_id, payproc_price_id)
);
create trigger plans_updated_at before update on public.plans
  for each row execute function public.set_updated_at();
alter table public.plans enable row level security;
revoke all on public.plans from anon, authenticated;
-- SELECT(plans): workspace members (the contact page names a membership's plan)
grant select on public.plans to authenticated;
create policy plans_select_members on public.plans for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
grant all on public.plans to service_role;

-- The mirror of a Stripe subscription. `status` is Stripe's own word; `synced_through` is the
-- creation time of the newest event whose object the row holds: an event no newer than it makes the
-- webhook fetch the subscription instead of applying the event's (possibly stale) copy.
create table public.subscriptions (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  contact_id uuid,
  plan_id uuid not null,
  payproc_subscription_id text not null unique check (length(payproc_subscription_id) between 1 and 255),
  payproc_customer_id text not null,
  status text not null
    check (status in ('incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'canceled',
                      'unpaid', 'paused')),
  started_at timestamptz not null,
  current_period_start timestamptz,
  current_period_end timestamptz,
  cancel_at_period_end boolean not null default false,
  canceled_at timestamptz,
  ended_at timestamptz,
  -- Stripe's cancellation_details.reason: a cancellation for non-payment is a lapse
  cancellation_reason text,
  latest_invoice_id text,
  synced_through timestamptz not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (workspace_id, id),
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id) on delete set null (contact_id),
  foreign key (workspace_id, plan_id) references public.plans (workspace_id, id) on delete restrict
);
create index subscriptions_contact_idx on public.subscriptions (workspace_id, contact_id);
create index subscriptions_plan_idx on public.subscriptions (workspace_id, plan_id);
-- GET /api/v1/subscriptions?status=: keyset by creation within a status
create index subscriptions_workspace_status_idx on public.subscriptions (workspace_id, status, created_at, id);
create trigger subscriptions_updated_at before update on public.subscriptions
  for each row execute function public.set_updated_at();
alter table public.subscriptions enable row level security;
revoke all on public.subscriptions from anon, authenticated;
-- SELECT(subscriptions): workspace members (the contact page's membership panel)
grant select on public.subscriptions to authenticated;
create policy subscriptions_select_members on public.subscriptions for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
grant all on public.subscriptions to service_role;

-- A membership, derived from its subscription whenever the subscription row is written
-- (lib/payments/subscriptions/membership-of.ts): one per subscription.
create table public.memberships (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  subscription_id uuid not null,
  contact_id uuid,
  plan_id uuid not null,
  status text not null check (status in ('active', 'grace', 'lapsed', 'cancelled')),
  member_since timestamptz not null,
  expires_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (workspace_id, id),
  unique (workspace_id, subscription_id),
  foreign key (workspace_id, subscription_id) references public.subscriptions (workspace_id, id) on delete cascade,
  foreign key (workspace_id, contact_id) references public.contacts (workspace_id, id) on delete set null (contact_id),
  foreign key (workspace_id, plan_id) references public.plans (workspace_id, id) on delete restrict
);
create index memberships_contact_idx on public.memberships (workspace_id, contact_id);
create index memberships_plan_idx on public.memberships (workspace_id, plan_id);
-- segments: members by status and expiry
create index memberships_workspace_status_idx on public.memberships (workspace_id, status, expires_at);
create trigger memberships_updated_at before update on public.memberships
  for each row execute function public.set_updated_at();
alter table public.memberships enable row level security;
revoke all on public.memberships from anon, authenticated;
-- SELECT(memberships): workspace members
grant select on public.memberships to authenticated;
create policy memberships_select_members on public.memberships for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));
grant all on public.memberships to service_role;

-- A subscription the webhook could not place (a price that is no plan of the workspace) is parked
-- with a review task naming it; one open task per subscription.
alter table public.tasks drop constraint tasks_kind_check;
alter table public.tasks add constraint tasks_kind_check
  check (kind in ('general', 'refund_review', 'subscription_review'));
alter table public.tasks add column payproc_subscription_id text;
create unique index tasks_open_subscription_review_key on public.tasks (workspace_id, payproc_subscription_id)
  where kind = 'subscription_review' and status = 'open';
