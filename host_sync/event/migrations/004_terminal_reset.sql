-- A terminal whose flash was wiped keeps its identity but starts its journal at seq 1 again.
-- `host-sync terminal reset` sets `rebase`; the terminal's next sync then re-bases it: from
-- there on a record is stored under the terminal's own seq plus `journal_offset` (the last seq
-- stored before the wipe), so the rows already stored stay as they are, the new journal's
-- records follow them under the same (terminal_id, seq) key, and the host's replay of the
-- facts reads only the current journal (seq > journal_offset). The audit table holds every
-- reset and re-base with the old and new values.

ALTER TABLE terminals ADD COLUMN journal_offset INTEGER NOT NULL DEFAULT 0;

ALTER TABLE terminals ADD COLUMN rebase INTEGER NOT NULL DEFAULT 0;  -- 1: reset asked for
