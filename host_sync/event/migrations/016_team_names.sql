-- A team's name (the `team` column of `host-sync names import`, host_sync.interchange.
-- names_csv, audited): "Спартак" beside its number on the standings and match tables of
-- `score`, the report and the live page, and in the PBN export's HomeTeam and VisitTeam
-- (4.4.3, 4.4.8: the team's name) and TeamName column. Carried to each next teams session
-- of the event with the players (host_sync.event.setup.carry_players). `team` is the team's
-- number in its section's movement (pairs 2t-1 and 2t).

CREATE TABLE team_names (
    id          INTEGER PRIMARY KEY,
    section_id  INTEGER NOT NULL REFERENCES sections(id),
    team        INTEGER NOT NULL,
    name        TEXT NOT NULL,
    UNIQUE (section_id, team)
);
