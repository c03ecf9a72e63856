-- 010_log_keys_per_statement.sql says why: the logs' foreign keys to terminals and rounds,
-- checked once per statement. What the constraints did, these triggers do: an insert naming a
-- terminal or round that does not exist is refused (foreign_key_violation, an IntegrityError
-- to psycopg), and so is deleting a terminal or round (or changing its id) while a log row
-- names it. What they do not do is lock the parent row against a concurrent delete: every
-- write of host_sync takes the event's writer lock first (host_sync/event/postgres.py), so no
-- delete can run between the check and the commit.

ALTER TABLE records DROP CONSTRAINT records_terminal_id_fkey,
                    DROP CONSTRAINT records_round_id_fkey;
ALTER TABLE calls DROP CONSTRAINT calls_terminal_id_fkey,
                  DROP CONSTRAINT calls_round_id_fkey;
ALTER TABLE rulings DROP CONSTRAINT rulings_terminal_id_fkey,
                    DROP CONSTRAINT rulings_round_id_fkey;

CREATE FUNCTION log_keys_known() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    missing text;
BEGIN
    SELECT a.terminal_id INTO missing FROM (SELECT DISTINCT terminal_id FROM added) a
    WHERE NOT EXISTS (SELECT 1 FROM terminals t WHERE t.id = a.terminal_id) LIMIT 1;
    IF FOUND THEN
        RAISE foreign_key_violation USING MESSAGE = format(
            'insert into %s: terminal %s is not in terminals', TG_TABLE_NAME, missing);
    END IF;
    SELECT a.round_id INTO missing FROM (SELECT DISTINCT round_id FROM added) a
    WHERE a.round_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM rounds r WHERE r.id = a.round_id)
    LIMIT 1;
    IF FOUND THEN
        RAISE foreign_key_violation USING MESSAGE = format(
            'insert into %s: round %s is not in rounds', TG_TABLE_NAME, missing);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER records_keys_known AFTER INSERT ON records REFERENCING NEW TABLE AS added
FOR EACH STATEMENT EXECUTE FUNCTION log_keys_known();
CREATE TRIGGER calls_keys_known AFTER INSERT ON calls REFERENCING NEW TABLE AS added
FOR EACH STATEMENT EXECUTE FUNCTION log_keys_known();
CREATE TRIGGER rulings_keys_known AFTER INSERT ON rulings REFERENCING NEW TABLE AS added
FOR EACH STATEMENT EXECUTE FUNCTION log_keys_known();

CREATE FUNCTION log_keys_kept() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    named boolean;
BEGIN
    IF TG_OP = 'UPDATE' AND NEW.id = OLD.id THEN
        RETURN NULL;
    END IF;
    IF TG_TABLE_NAME = 'terminals' THEN
        named := EXISTS (SELECT 1 FROM records WHERE terminal_id = OLD.id)
              OR EXISTS (SELECT 1 FROM calls WHERE terminal_id = OLD.id)
              OR EXISTS (SELECT 1 FROM rulings WHERE terminal_id = OLD.id);
    ELSE
        named := EXISTS (SELECT 1 FROM records WHERE round_id = OLD.id)
              OR EXISTS (SELECT 1 FROM calls WHERE round_id = OLD.id)
              OR EXISTS (SELECT 1 FROM rulings WHERE round_id = OLD.id);
    END IF;
    IF named THEN
        RAISE foreign_key_violation USING MESSAGE = format(
            '%s %s is named by the terminals'' logs', TG_TABLE_NAME, OLD.id);
    END IF;
    RETURN NULL;
END $$;

-- after the row changed, as a foreign key's own check runs: raising undoes the statement
CREATE TRIGGER terminals_log_keys_kept AFTER DELETE OR UPDATE OF id ON terminals
FOR EACH ROW EXECUTE FUNCTION log_keys_kept();
CREATE TRIGGER rounds_log_keys_kept AFTER DELETE OR UPDATE OF id ON rounds
FOR EACH ROW EXECUTE FUNCTION log_keys_kept();
