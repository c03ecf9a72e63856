-- The event's facts a federation submission and the exports carry (`host-sync event create
-- --date --venue --director --club`, `event set`; PBN [Date] [Site], USEBIO): NULL when not
-- given. `held_on` is the date in ISO 8601 (YYYY-MM-DD).
--
-- The correction period of a session (Law 79C): `corrections_closed_at` is set by `host-sync
-- session close`; from then on a terminal's `fix` record is stored and flagged
-- `correction_period_over` (law 79C) and changes nothing (host_sync.event.corrections).

ALTER TABLE events ADD COLUMN held_on TEXT;

ALTER TABLE events ADD COLUMN venue TEXT;

ALTER TABLE events ADD COLUMN director TEXT;

ALTER TABLE events ADD COLUMN club TEXT;

ALTER TABLE sessions ADD COLUMN corrections_closed_at TEXT;
