-- Read-your-writes with a read replica (docs/deployment.md "Read replica"). After a transaction of a
-- member (or an API key) that wrote, the service records here the primary's WAL insert position at
-- that moment; a read of that caller goes to the replica only once the replica has replayed past
-- it. Written and read by the connection's login user outside the caller's transaction: no role of
-- the API may touch it (app_meta is closed to them). Unlogged: it is only ever read on the primary
-- and a mark needs no WAL of its own. After a crash of the primary the marks are gone: a write made
-- just before it may then be read from a replica that is behind, within DATABASE_READ_MAX_LAG_MS.
create unlogged table app_meta.read_marks (
  caller text primary key,
  lsn pg_lsn not null,
  written_at timestamptz not null default now()
);
revoke all on app_meta.read_marks from public;
