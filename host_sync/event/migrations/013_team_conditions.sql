-- A teams event's conditions of contest, which the rule book leaves to the event's
-- Regulations (1.5.1): the VPs a team gets for a bye and how equal VPs are ranked
-- (`host-sync event set --bye-vp VP --tie-break shared|quotient`). NULL: the defaults of
-- host_sync.scoring.team_session (12 VPs, equal VPs share the place). Read by `score`,
-- `report` and the live page alike, so the three never disagree.

ALTER TABLE events ADD COLUMN bye_vp TEXT;

ALTER TABLE events ADD COLUMN tie_break TEXT;
