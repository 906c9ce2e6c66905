-- Spec 4.2.1 keeps the rate limiter's state in a table. check_rate_limit() deletes a key's
-- expired hits only when that key is seen again, so the hits of keys never seen again (one
-- visit from an address) would pile up for ever. This sweep removes hits older than an hour
-- (longer than any window in use) in bounded batches; the form endpoint runs it now and then.

create index rate_limit_hits_hit_at_idx on public.rate_limit_hits (hit_at);

-- Spec 4.2.1: the system alone maintains the limiter table (service_role only).
create or replace function public.sweep_rate_limit_hits()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_deleted integer;
begin
  delete from public.rate_limit_hits h
  where h.ctid = any (array(
    select old.ctid from public.rate_limit_hits old
    where old.hit_at < clock_timestamp() - interval '1 hour'
    limit 10000));
  get diagnostics v_deleted = row_count;
  return v_deleted;
end
$$;
revoke execute on function public.sweep_rate_limit_hits() from public, anon, authenticated;
grant execute on function public.sweep_rate_limit_hits() to service_role;
