-- Members' writes to transactions are audited, not revoked (docs/decisions.md, same title). Spec 5.4
-- grants workspace members INSERT, UPDATE(status, amount_refunded) and DELETE on transactions, and
-- each such write fires the outbound transaction.* webhooks; a write made directly through
-- PostgREST left no audit row. A statement-level trigger now appends one audit row per changed
-- transaction whenever the writer is a member (current_user authenticated: PostgREST, or the
-- dashboard's member path), as the member (auth.uid(), the email of their claims). The service's
-- writes (payment webhooks, backfills) are not a member's and are not logged here.

create or replace function public.audit_member_transaction_writes() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    insert into public.audit_log (workspace_id, actor_id, actor_email, action, target_type, target_id, after)
    select n.workspace_id, (select auth.uid()), (select auth.jwt()) ->> 'email', 'transaction.created',
           'transaction', n.id::text,
           jsonb_build_object('status', n.status, 'amount_paid', n.amount_paid, 'currency', n.currency,
                              'amount_refunded', n.amount_refunded, 'via', 'database')
    from new_rows n;
  elsif tg_op = 'UPDATE' then
    insert into public.audit_log (workspace_id, actor_id, actor_email, action, target_type, target_id, before, after)
    select n.workspace_id, (select auth.uid()), (select auth.jwt()) ->> 'email', 'transaction.updated',
           'transaction', n.id::text,
           jsonb_build_object('status', o.status, 'amount_refunded', o.amount_refunded),
           jsonb_build_object('status', n.status, 'amount_refunded', n.amount_refunded, 'via', 'database')
    from new_rows n join old_rows o on o.id = n.id
    where (n.status, n.amount_refunded) is distinct from (o.status, o.amount_refunded);
  else
    insert into public.audit_log (workspace_id, actor_id, actor_email, action, target_type, target_id, before)
    select o.workspace_id, (select auth.uid()), (select auth.jwt()) ->> 'email', 'transaction.deleted',
           'transaction', o.id::text,
           jsonb_build_object('status', o.status, 'amount_paid', o.amount_paid, 'currency', o.currency,
                              'amount_refunded', o.amount_refunded, 'via', 'database')
    from old_rows o;
  end if;
  return null;
end
$$;
-- a trigger function: nobody calls it (Postgres checks EXECUTE when the trigger is created)
revoke execute on function public.audit_member_transaction_writes() from public, anon, authenticated;

create trigger transactions_audit_member_insert after insert on public.transactions
  referencing new table as new_rows
  for each statement when (current_user = 'authenticated')
  execute function public.audit_member_transaction_writes();
create trigger transactions_audit_member_update after update on public.transactions
  referencing old table as old_rows new table as new_rows
  for each statement when (current_user = 'authenticated')
  execute function public.audit_member_transaction_writes();
create trigger transactions_audit_member_delete after delete on public.transactions
  referencing old table as old_rows
  for each statement when (current_user = 'authenticated')
  execute function public.audit_member_transaction_writes();
