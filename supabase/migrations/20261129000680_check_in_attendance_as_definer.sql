-- event_registrations.checked_in_at follows event_check_ins (20261129000540_signed_tickets_check_ins.sql).
-- The trigger ran as the caller, so an owner deleting the workspace (a cascade that removes the
-- check-ins) was refused: the cascade's trigger cleared checked_in_at, a column members may not
-- write. It keeps a derived column of a row in the same workspace from a row only the service
-- writes, so it runs as its owner, like the other triggers that keep derived data.
alter function public.event_check_ins_attendance() security definer;
