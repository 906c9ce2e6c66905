-- Events people can plan around (issue 16): an optional number of seats per event. Null means
-- unlimited. The RSVP endpoint counts 'registered' rows against it while holding the event
-- row's lock (select ... for update), so concurrent RSVPs for the last seat queue and exactly
-- one of them gets it; ticketing registrations are counted too but never refused (the
-- provider sold the ticket).
alter table public.events add column capacity integer
  constraint events_capacity_positive check (capacity is null or capacity > 0);
