-- 005_host_corrections.sql in PostgreSQL's spelling (the rule and its reasons are there): the
-- three SQLite triggers as trigger functions; a BEFORE trigger that returns NULL skips the row,
-- as RAISE(IGNORE) does.

ALTER TABLE results ADD COLUMN corrected_at TEXT;

CREATE FUNCTION results_correction_stands() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.corrected_at IS NOT NULL AND (TG_OP = 'DELETE' OR NEW.seq IS NOT NULL) THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER results_correction_stands BEFORE UPDATE OR DELETE ON results
FOR EACH ROW EXECUTE FUNCTION results_correction_stands();

CREATE FUNCTION results_correction_refused() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.tbl = 'results' AND NEW.terminal_id IS NOT NULL AND NEW.action IN ('update', 'delete')
       AND EXISTS (SELECT 1 FROM results WHERE id = (NEW.row_key::json ->> 'id')::integer
                   AND corrected_at IS NOT NULL) THEN
        UPDATE audit SET action = 'refused' WHERE id = NEW.id;
        INSERT INTO flags (session_id, round_id, board, terminal_id, seq, source, why, law,
                           detail)
        SELECT sec.session_id, r.round_id, r.board, NEW.terminal_id,
               (SELECT MAX(seq) FROM records WHERE terminal_id = NEW.terminal_id), 'host',
               'host_correction_stands', '79C',
               'a terminal record would have changed the result corrected at the host ('
               || NEW.action || '); the correction stands'
        FROM results r JOIN rounds ro ON ro.id = r.round_id JOIN tables t ON t.id = ro.table_id
        JOIN sections sec ON sec.id = t.section_id
        WHERE r.id = (NEW.row_key::json ->> 'id')::integer
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER results_correction_refused AFTER INSERT ON audit
FOR EACH ROW EXECUTE FUNCTION results_correction_refused();
