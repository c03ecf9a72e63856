"""The director's list for the report's director page, read from the event database that the
report is made from (a results file carries no flags: no page then)."""

from collections import namedtuple

from host_sync.event import setup
from host_sync.event.db import open_db
from host_sync.event.flags import director_list
from host_sync.event.knockout_draw import draws_otherwise

DirectorList = namedtuple("DirectorList", "entries warnings")
DirectorList.__doc__ = """A session's flags and rulings (host_sync.event.flags.Entry) and the
warnings above them: its knockout round corrected after the next was drawn on it
(knockout_draw.draws_otherwise, each a Refused in both languages)."""


def session_director_list(path, number=None):
    """The DirectorList of session `number` (default: the current one) of the event database
    at `path`; a path that is no event database is refused by open_db
    (host_sync.event.db.DatabaseError)."""
    with open_db(path) as db:
        sid = setup.session_id(db, setup.the_event(db)[0], number)
        number = db.value("SELECT number FROM sessions WHERE id = ?", (sid,))
        return DirectorList(director_list(db, number), draws_otherwise(db, number))
