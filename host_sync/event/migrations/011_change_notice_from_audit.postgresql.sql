-- 011_change_notice_from_audit.sql says why: the change notice sent by the server whenever a
-- statement adds audit rows (PostgreSQL delivers it at the commit, once per transaction for
-- the same channel and payload).

CREATE FUNCTION audit_change_notice() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('host_sync_change', '');
    RETURN NULL;
END $$;

CREATE TRIGGER audit_change_notice AFTER INSERT ON audit
FOR EACH STATEMENT EXECUTE FUNCTION audit_change_notice();
