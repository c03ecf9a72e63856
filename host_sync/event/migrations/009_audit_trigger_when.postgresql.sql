-- 009_audit_trigger_when.sql says why: the audit trigger of 005 with SQLite's WHEN clause, so
-- PostgreSQL runs its function only for the rows it can act on (the function still checks).

DROP TRIGGER results_correction_refused ON audit;

CREATE TRIGGER results_correction_refused AFTER INSERT ON audit
FOR EACH ROW
WHEN (NEW.tbl = 'results' AND NEW.terminal_id IS NOT NULL AND NEW.action IN ('update', 'delete'))
EXECUTE FUNCTION results_correction_refused();
