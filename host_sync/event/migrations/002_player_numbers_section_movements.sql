-- Set-up from the command line (host_sync.cli_setup): federation player numbers imported with
-- the names (the terminal fills its players form with them), and a movement per section, as a
-- session may have several sections each with its own movement. A section without one plays
-- the session's movement (sessions.movement, which stays the first section's).

ALTER TABLE players ADD COLUMN number INTEGER;     -- federation number, NULL when not known

ALTER TABLE sections ADD COLUMN movement TEXT;     -- JSON of Movement.to_dict(), or NULL
