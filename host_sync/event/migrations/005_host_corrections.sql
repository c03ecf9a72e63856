-- Results corrected at the host in the correction period (Law 79C; host_sync.event.corrections,
-- `host-sync result`). `corrected_at` is set on a traveller line the host wrote (a corrected
-- contract or tricks: source 'host'; an adjusted score: source 'adjusted'), with terminal_id
-- and seq NULL; NULL on a line as the terminals' records made it.
--
-- The rule (docs/RECORDS.md): a line the host corrected stands against every terminal record
-- synced after it. A terminal may still hold records made before the correction (a res, ver,
-- adj or erase not yet synced, or synced again after a restore): ingest writes every change it
-- makes to a line with the record's seq, so an UPDATE with a seq on a corrected line, or a
-- DELETE of one, is ignored here, whoever the writer. The audit row the writer then adds for
-- that change is turned into action 'refused' (what the record asked for stays in `new`), and
-- the director gets a `host_correction_stands` flag (Law 79C) on the board, under the record
-- that asked. The host's own writes carry no seq and no terminal in the audit; the host clears
-- `corrected_at` (audited) before it deletes a line itself. (A PostgreSQL port writes these
-- three triggers as trigger functions: BEFORE ... RETURN NULL skips the row as RAISE(IGNORE).)

ALTER TABLE results ADD COLUMN corrected_at TEXT;

CREATE TRIGGER results_correction_stands_update BEFORE UPDATE ON results
WHEN OLD.corrected_at IS NOT NULL AND NEW.seq IS NOT NULL
BEGIN
    SELECT RAISE(IGNORE);
END;

CREATE TRIGGER results_correction_stands_delete BEFORE DELETE ON results
WHEN OLD.corrected_at IS NOT NULL
BEGIN
    SELECT RAISE(IGNORE);
END;

CREATE TRIGGER results_correction_refused AFTER INSERT ON audit
WHEN NEW.tbl = 'results' AND NEW.terminal_id IS NOT NULL AND NEW.action IN ('update', 'delete')
    AND EXISTS (SELECT 1 FROM results WHERE id = json_extract(NEW.row_key, '$.id')
                AND corrected_at IS NOT NULL)
BEGIN
    UPDATE audit SET action = 'refused' WHERE id = NEW.id;
    INSERT OR IGNORE INTO flags (session_id, round_id, board, terminal_id, seq, source, why,
                                 law, detail)
    SELECT sec.session_id, r.round_id, r.board, NEW.terminal_id,
           (SELECT MAX(seq) FROM records WHERE terminal_id = NEW.terminal_id), 'host',
           'host_correction_stands', '79C',
           'a terminal record would have changed the result corrected at the host ('
           || NEW.action || '); the correction stands'
    FROM results r JOIN rounds ro ON ro.id = r.round_id JOIN tables t ON t.id = ro.table_id
    JOIN sections sec ON sec.id = t.section_id
    WHERE r.id = json_extract(NEW.row_key, '$.id');
END;
