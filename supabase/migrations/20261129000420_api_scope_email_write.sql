-- The `email:write` scope (DESIGN section 9, "Sending"): a key may create broadcasts, send or schedule
-- them and cancel them through /api/v1/broadcasts. The list is the same as lib/api/v1/scopes.ts.
alter table public.api_keys drop constraint api_keys_scopes_check;
alter table public.api_keys
  add constraint api_keys_scopes_check check (
    scopes <@ array['contacts:read', 'contacts:write', 'consent:write', 'events:read',
                    'transactions:read', 'transactions:write', 'forms:read', 'webhooks:write',
                    'email:read', 'email:write']::text[]
    and array_position(scopes, null) is null);
