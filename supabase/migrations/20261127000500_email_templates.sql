-- Email templates, branding and scheduled broadcasts (docs/decisions.md, "Email templates and
-- scheduled broadcasts"). Additive: new columns with defaults, one wider status check.

-- Workspace branding: the logo (https only), two colours (#rrggbb) and the postal address the
-- marketing footer must carry (required before a branded broadcast is scheduled or sent).
alter table public.workspaces
  add column brand_logo_url text check (brand_logo_url is null or brand_logo_url like 'https://%'),
  add column brand_color text not null default '#1f2937' check (brand_color ~ '^#[0-9a-f]{6}$'),
  add column brand_accent_color text not null default '#2563eb' check (brand_accent_color ~ '^#[0-9a-f]{6}$'),
  add column postal_address text check (postal_address is null or length(postal_address) <= 500);
-- Admin+ change them on the email settings page, as they change the footer settings
grant update (brand_logo_url, brand_color, brand_accent_color, postal_address)
  on public.workspaces to authenticated;

-- A broadcast composed in Markdown keeps its source (the editor reopens it); the rendered HTML
-- and text parts stay in body_html and body_text, merge tags in them in canonical form.
alter table public.broadcasts
  add column body_markdown text,
  -- when a 'scheduled' broadcast starts: its delayed job carries the same instant, and a job
  -- whose instant is no longer the broadcast's (rescheduled, unscheduled) does nothing
  add column scheduled_at timestamptz;
alter table public.broadcasts drop constraint broadcasts_status_check;
alter table public.broadcasts add constraint broadcasts_status_check
  check (status in ('draft', 'scheduled', 'sending', 'paused', 'cancelled', 'sent', 'failed'));
alter table public.broadcasts add constraint broadcasts_scheduled_has_time
  check (status <> 'scheduled' or scheduled_at is not null);
