-- The director's decision of a tied knockout match (`host-sync team through`,
-- host_sync.event.knockout_draw.decide_tie, audited): equal totals decide nothing (rule book
-- 1.5.4), the Regulations' extra boards or other means do, and the director records the team
-- that went through, with the reason, in the session the match was played in. Read into the
-- session's TeamPlan (`through`): `score`, `report` and the live page name the team, and the
-- next round's draw takes it; a knockout's final is decided the same way. `team` is the
-- team's number in its section's movement.

CREATE TABLE knockout_ties (
    id          INTEGER PRIMARY KEY,
    section_id  INTEGER NOT NULL REFERENCES sections(id),
    team        INTEGER NOT NULL,
    reason      TEXT NOT NULL
);

CREATE UNIQUE INDEX knockout_ties_once ON knockout_ties (section_id, team);
