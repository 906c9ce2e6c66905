-- Broadcasts at the database boundary (docs/decisions.md, "The database is the boundary").
-- PostgREST lets a member run any statement their grants allow with their own JWT. Members held
-- INSERT, UPDATE and DELETE on every column of public.broadcasts, so a PATCH could write
-- body_html past the composer (merge tags unchecked, raw HTML, no unsubscribe link), move the
-- status to 'sent' or 'sending' past the state machine and its job (lib/email/control-broadcast.ts),
-- set scheduled_at with no delayed job, rewrite a broadcast while it sends, or delete one whose
-- report and sends depend on it. Now members only read broadcasts; the composer, the draft editor
-- and the schedule controls write them through the service door after checking the caller is a
-- member of the workspace in the same transaction (lib/email/broadcasts.ts, writeBroadcast).
drop policy broadcasts_members_all on public.broadcasts;
revoke insert, update, delete on public.broadcasts from authenticated;
-- SELECT(broadcasts): workspace members (spec 5.4: limited to the rows of the caller's workspaces)
create policy broadcasts_select_members on public.broadcasts for select to authenticated
  using (workspace_id in (select public.user_workspace_ids()));

