-- campaign_step_runs.at defaulted to now(), the transaction's start: every step one run of an
-- enrollment takes (and the goal trigger's 'completed') had the same time, and the contact's
-- timeline and the campaign's report listed them in the order of their random ids. The time the
-- row is written keeps them in the order they happened.
alter table public.campaign_step_runs alter column at set default clock_timestamp();
