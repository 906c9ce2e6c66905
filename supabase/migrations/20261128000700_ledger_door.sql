-- The consent ledger is evidence of consent (spec 3.3, 4.9): only the app's consent flows write it,
-- as service_role through the consent door after checking the member (lib/consent/consent-door.ts;
-- docs/decisions.md, "The database is the boundary"). A member reaching public.consent_events
-- directly (PostgREST, their own JWT) could append a fabricated entry ('subscribed' with made-up
-- proof) in their own name: they keep reading their workspace's ledger, and no longer write it.
drop policy consent_events_insert_members on public.consent_events;
revoke insert on public.consent_events from authenticated;
