-- The sender of a workspace's mail (docs/decisions.md, "Mail leaves in the workspace's name"): until
-- it has a sending domain of its own, a workspace's mail leaves from the platform's address with the
-- workspace's name as the display name, and replies go to the address it names here. Owners and
-- admins set it with the other email settings (spec 4.8's settings page).
alter table public.workspaces
  add column email_reply_to text
    check (email_reply_to is null or (length(email_reply_to) <= 254 and email_reply_to ~ '^[^@[:space:]<>",;]+@[^@[:space:]<>",;]+\.[^@[:space:]<>",;]+$'));
grant update (email_reply_to) on public.workspaces to authenticated;
