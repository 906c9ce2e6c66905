-- A broadcast's own reply-to address, optional (docs/decisions.md, "Sending domains and warm-up"):
-- when set, replies to the broadcast go there instead of the workspace's reply-to. One address with
-- no line break, as workspaces.email_reply_to; written through the broadcast door, as every
-- broadcast column (members only read public.broadcasts).
alter table public.broadcasts
  add column reply_to text
    check (reply_to is null or (length(reply_to) <= 254 and reply_to ~ '^[^@[:space:]<>",;]+@[^@[:space:]<>",;]+\.[^@[:space:]<>",;]+$'));
