"""Read and write a session's results by the file: .pbn, .xml (USEBIO), .csv, or the event
database itself (a SQLite file, known by its first bytes, or a postgresql:// URL), read through
`host_sync.event.results.session_from_db`, the host's own reading of what the terminals recorded.

The `host-sync score`, `export` and `report` commands (host_sync.cli.results) read and write
through here.
"""

import csv
import os
from pathlib import Path

from bridge.cards import parse_deal

from host_sync.errors import Refused
from host_sync.event import postgres
from host_sync.event.db import DatabaseError, open_db
from host_sync.event.results import session_from_db
from host_sync.interchange.pbn.read import read_file
from host_sync.interchange.pbn.session import session_from_games, session_games
from host_sync.interchange.pbn.write import export_text
from host_sync.interchange.travellers_csv import export_csv, import_csv
from host_sync.interchange.usebio import export_xml, import_xml
from host_sync.scoring.session import score_session

FORMATS = (".pbn", ".xml", ".csv")
SQLITE_HEADER = b"SQLite format 3\x00"
DATABASE = "database"


def output_format(path):
    """The format to write a results file in, by its extension; Refused for any other."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise Refused("%s: expected a .pbn, .xml (USEBIO) or .csv (travellers) file" % path,
                      ru="%s: нужен файл .pbn, .xml (USEBIO) или .csv (протоколы)" % path)
    return suffix


def is_database(path):
    """True when `path` is read as an event database (by content, or a .db name)."""
    return _source_format(path) == DATABASE


def _source_format(path):
    """The format of a file to read: an event database by its URL or content, else by
    extension."""
    if postgres.is_url(path):
        return DATABASE  # open_db says what is wrong with it
    try:
        with open(path, "rb") as f:
            if f.read(len(SQLITE_HEADER)) == SQLITE_HEADER:
                return DATABASE
    except OSError:
        pass  # reported by the reader of its extension
    if Path(path).suffix.lower() in (".db", ".sqlite", ".sqlite3"):
        return DATABASE  # open_db says what is wrong with it
    try:
        return output_format(path)
    except ValueError:
        raise Refused("%s: expected an event database (EVENT.db) or a .pbn, .xml (USEBIO) "
                      "or .csv (travellers) file" % path,
                      ru="%s: нужна база турнира (EVENT.db) или файл .pbn, .xml (USEBIO) "
                      "или .csv (протоколы)" % path) from None


def load(path, method=None, session=None):
    """A Session from a results file or an event database (`session`: its number, default
    the current one); `method` overrides the file's scoring method."""
    kind = _source_format(path)
    if kind == DATABASE:
        try:
            with open_db(path) as db:
                return session_from_db(db, session, method)
        except DatabaseError as e:
            raise Refused(str(e), ru=e.ru) from None
    if session is not None:
        raise Refused("%s: --session is for an event database" % path,
                      ru="%s: --session только для базы турнира" % path)
    try:
        if kind == ".pbn":
            loaded = session_from_games(read_file(path))
        else:
            try:
                text = Path(path).read_text(encoding="utf-8-sig")  # as Excel saves a CSV
            except (OSError, UnicodeDecodeError) as e:
                raise Refused("%s: cannot read: %s" % (path, e),
                              ru="%s: не прочитать: %s" % (path, e)) from e
            loaded = import_xml(text) if kind == ".xml" else import_csv(text)
        for board in loaded.boards.values():  # 13 cards a hand, each card once (or "-")
            if board.deal:
                parse_deal(board.deal)
    except Refused:
        raise
    except (ValueError, csv.Error, OverflowError) as e:  # a field the readers let through
        raise Refused("%s: not a results file this program can read: %s" % (path, e),
                      ru="%s: такой файл результатов не прочитать: %s" % (path, e)) from None
    if method:
        loaded.method = method
    return loaded


def save(session, path, analyses=None):
    """Score the session and write it in the format of `path`'s extension; refused, nothing
    written, when the session has no results (an empty file would read as a result).
    `analyses` ({board: Analysis}, host_sync.reports.analysis.board_analyses) go into PBN's
    OptimumScore and OptimumResultTable."""
    kind = output_format(path)
    if not session.results:
        raise Refused("%s: the session has no verified results yet; nothing was written" %
                      path, ru="%s: в сессии ещё нет подтверждённых результатов; ничего не "
                      "записано" % path)
    scored = score_session(session)
    if kind == ".pbn":
        text = export_text(session_games(session, scored, analyses))
    elif kind == ".xml":
        text = export_xml(session, scored)
    else:
        text = export_csv(session, scored)
    write_whole(path, text)


def write_whole(path, text):
    """Write `text` to `path` whole or not at all: into a file beside it, then renamed over it,
    so a failure (a value the export cannot write, a full disk) leaves the old file as it was,
    where opening it first for writing had emptied it."""
    path = Path(path)
    part = path.with_name(path.name + ".part")
    try:
        with open(part, "w", encoding="utf-8", newline="") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(part, path)
    finally:
        if part.exists():
            part.unlink()
