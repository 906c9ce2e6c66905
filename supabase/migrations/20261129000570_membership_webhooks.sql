-- Outbound webhook events of recurring money (docs/decisions.md, "Outbound webhooks"; DESIGN section 9
-- "Recurring"), written in the membership change's transaction like every other event:
-- membership.started (a membership appears, active or in grace), membership.renewed (an active
-- membership's expiry moves on), membership.lapsed (it becomes lapsed). payment.failed is emitted by the
-- payment webhook for each invoice.payment_failed (lib/payments/flows/prepare-billing-event.ts).
create function public.memberships_webhook_events() returns trigger
  language plpgsql security definer set search_path = ''
as $$
begin
  if not exists (select 1 from public.webhook_endpoints limit 1) then
    return null;
  end if;
  if tg_op = 'INSERT' then
    perform public.emit_webhook_events('membership.started',
      (select jsonb_agg(jsonb_build_object('workspace_id', n.workspace_id, 'data', to_jsonb(n)))
       from new_rows n where n.status in ('active', 'grace')));
    perform public.emit_webhook_events('membership.lapsed',
      (select jsonb_agg(jsonb_build_object('workspace_id', n.workspace_id, 'data', to_jsonb(n)))
       from new_rows n where n.status = 'lapsed'));
  else
    perform public.emit_webhook_events('membership.renewed',
      (select jsonb_agg(jsonb_build_object('workspace_id', n.workspace_id, 'data', to_jsonb(n)))
       from new_rows n join old_rows o on o.id = n.id
       where n.status = 'active' and o.status in ('active', 'grace') and n.expires_at > o.expires_at));
    perform public.emit_webhook_events('membership.lapsed',
      (select jsonb_agg(jsonb_build_object('workspace_id', n.workspace_id, 'data', to_jsonb(n)))
       from new_rows n join old_rows o on o.id = n.id
       where n.status = 'lapsed' and o.status <> 'lapsed'));
  end if;
  return null;
end
$$;
revoke all on function public.memberships_webhook_events() from public;

create trigger memberships_webhooks_insert after insert on public.memberships
  referencing new table as new_rows for each statement execute function public.memberships_webhook_events();
create trigger memberships_webhooks_update after update on public.memberships
  referencing old table as old_rows new table as new_rows
  for each statement execute function public.memberships_webhook_events();
