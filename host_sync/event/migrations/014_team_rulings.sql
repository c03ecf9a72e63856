-- The director's rulings on a teams session's matches (`host-sync team withdraw|forfeit|
-- reinstate`, host_sync.event.team_rulings, audited), read into the session's TeamPlan:
-- * round NULL: the team is removed from the session's competition (rule book 5.7.3,
--   «удаление»): if it has played more than half of its matches its remaining ones are
--   technical defeats, else the results of the matches it played are annulled;
-- * a round: its match of that round is a technical defeat (a match not played, or lost by
--   a sanction): no VP to it, the bye's VPs to its opponents.
-- `team` is the team's number in its section's movement (pairs 2t-1 and 2t).

CREATE TABLE team_rulings (
    id          INTEGER PRIMARY KEY,
    section_id  INTEGER NOT NULL REFERENCES sections(id),
    team        INTEGER NOT NULL,
    round       INTEGER,
    reason      TEXT NOT NULL
);

CREATE UNIQUE INDEX team_rulings_once ON team_rulings (section_id, team, COALESCE(round, 0));
