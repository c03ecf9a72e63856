"""Movements: who plays whom, where, and with which boards, round by round.

Pair events: mitchell(), howell(). Team events: a Schedule of matches from round_robin() or
a Swiss round's pair_round() (host_sync.event.swiss_draw), laid out on tables by
teams_movement(). All produce model.Movement /
model.Schedule, which export to plain dicts for the database and the terminals.
"""

from host_sync.movements.howell import howell
from host_sync.movements.mitchell import mitchell
from host_sync.movements.model import EW, NS, Movement, MovementError, Position, Schedule, Seating
from host_sync.movements.roundrobin import round_robin
from host_sync.movements.swiss import Pairing, pair_round
from host_sync.movements.teams import match, teams_movement

__all__ = ["EW", "NS", "Movement", "MovementError", "Pairing", "Position", "Schedule",
           "Seating", "howell", "match", "mitchell", "pair_round",
           "round_robin", "teams_movement"]
