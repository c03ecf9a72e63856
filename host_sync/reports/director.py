"""The director's list for the report's director page, read from the event database that the
report is made from (a results file carries no flags: no page then)."""

from host_sync.event import setup
from host_sync.event.db import open_db
from host_sync.event.flags import director_list


def session_director_list(path, number=None):
    """Every flag and ruling of session `number` (default: the current one) of the event
    database at `path`, as host_sync.event.flags.director_list gives them; a path that is no
    event database is refused by open_db (host_sync.event.db.DatabaseError)."""
    with open_db(path) as db:
        sid = setup.session_id(db, setup.the_event(db)[0], number)
        return director_list(db, db.value("SELECT number FROM sessions WHERE id = ?", (sid,)))
