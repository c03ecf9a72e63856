-- Law 81B (a fouled board): «разделяет результаты на группы и производит подсчет результатов в
-- каждой группе отдельно». `fouled` names the group of a traveller line, the board as one of
-- its versions was played; NULL for a line of the board as dealt (host_sync.event.corrections
-- `fouled`, `host-sync result fouled`, audited; the scoring reads it as Result.group).
ALTER TABLE results ADD COLUMN fouled TEXT;
