-- The director's PIN is no longer kept in clear (host_sync.event.pin): the `pin` setting
-- becomes {"salt", "kdf", "key"}, K = PBKDF2-HMAC-SHA256(PIN, the event's salt), from which
-- each terminal's check is derived. Neither SQLite nor PostgreSQL has PBKDF2, so that part is
-- a Python step run right after this file in the same transaction
-- (host_sync.event.pin.migrate_clear_pin, named by host_sync.event.db._python_step).
--
-- Here: every audit row of the `pin` setting written before (each insert and update carried
-- the PIN in clear in `old` and `new`) keeps who, when and what action, and loses the values.
-- This is the one place the audit is rewritten, and it says so in the values it leaves.

UPDATE audit
SET old = CASE WHEN old IS NULL THEN NULL
               ELSE '{"value": "redacted by migration 008: the director''s PIN is no longer kept"}' END,
    new = CASE WHEN new IS NULL THEN NULL
               ELSE '{"value": "redacted by migration 008: the director''s PIN is no longer kept"}' END
WHERE tbl = 'settings' AND row_key LIKE '%"name": "pin"%';
