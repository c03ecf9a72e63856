-- A journal record whose fields break docs/RECORDS.md is kept as received but is not a fact:
-- `valid` = 0 marks it, and every reader of facts (auction and play replay, quick contracts,
-- opening leads) reads only valid = 1. Records already flagged invalid_record are marked.

ALTER TABLE records ADD COLUMN valid INTEGER NOT NULL DEFAULT 1;

UPDATE records SET valid = 0 WHERE EXISTS (
    SELECT 1 FROM flags f WHERE f.terminal_id = records.terminal_id AND f.seq = records.seq
    AND f.why = 'invalid_record');
