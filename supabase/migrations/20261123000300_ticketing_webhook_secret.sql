-- Ticketing webhook secret (issue 13, attack 4; DESIGN 7): Eventbrite deliveries carry no
-- signature, so the endpoint registered with Eventbrite carries a random secret in its query
-- string (?secret=); the connection keeps only its lowercase hex SHA-256. A delivery is
-- accepted only when its webhook_id names a connection and its secret matches this digest.
-- Connections made before this column existed have none and accept nothing until reconnected.
alter table public.ticketing_connections
  add column webhook_secret_hash text check (webhook_secret_hash is null or webhook_secret_hash ~ '^[0-9a-f]{64}$'),
  -- what the settings page may show (members cannot read the digest): reconnect when false
  add column webhook_secured boolean generated always as (webhook_secret_hash is not null) stored;

-- The per-connection count of stored-but-unprocessed deliveries (the inbox cap) reads these rows.
create index webhook_inbox_unprocessed_workspace_idx on public.webhook_inbox (provider, workspace_id)
  where status in ('pending', 'processing', 'failed');
