"""Travellers as CSV: one row per table result, for spreadsheets and other scoring programs.

Columns: Board, Dealer, Vulnerable (the board as dealt: N/E/S/W, None/NS/EW/All), Round,
Table, NS, EW, Contract, Declarer, Lead, Tricks, ScoreNS, ScoreEW, ValueNS, ValueEW
(matchpoints on the 2/1 scale, IMPs or points), Adjusted, which holds what a plain score
cannot ("assigned", "weighted 1/3 110;2/3 -50", "artificial NS A+ EW A-"), and Group.
Reading takes the same columns back into a Session (values are recomputed, not read); a file
without Dealer / Vulnerable has Law 2's boards.
"""

import csv
import io

from host_sync.errors import Both, Refused, at
from host_sync.interchange.fields import (
    adjusted_text,
    apply_adjusted,
    dealt_fields,
    file_number,
    set_dealt,
)
from host_sync.scoring.session import Result, Session, check_opponents, score_session
from host_sync.text import number_text

COLUMNS = ("Board", "Dealer", "Vulnerable", "Round", "Table", "NS", "EW", "Contract",
           "Declarer", "Lead", "Tricks", "ScoreNS", "ScoreEW", "ValueNS", "ValueEW", "Adjusted",
           "Group")


def _points(value):
    return "" if value is None or isinstance(value, tuple) else str(value)


def export_csv(session, scored=None):
    scored = scored or score_session(session)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for number, lines in scored.lines.items():
        dealer, vul = dealt_fields(session.board(number))
        for s in lines:
            r = s.result
            writer.writerow([number, dealer, vul, r.round or "", r.table or "", r.ns, r.ew,
                             r.contract, r.declarer, r.lead,
                             "" if r.tricks is None else r.tricks,
                             _points(s.ns_points), _points(s.ew_points),
                             number_text(s.ns_value), number_text(s.ew_value),
                             adjusted_text(r), "" if r.group is None else r.group])
    return out.getvalue()


def _optional_int(row, what, where, signed=False):
    """The number in column `what` (None when blank): plain digits, as export_csv writes."""
    text = row.get(what, "")
    return file_number(text, what, where, signed) if text.strip() else None


def import_csv(text, method="mp"):
    """A Session from CSV travellers; ValueError naming the line for anything unreadable."""
    reader = csv.DictReader(io.StringIO(text))
    missing = {"Board", "NS", "EW"} - set(reader.fieldnames or ())
    if missing:
        raise Refused("CSV travellers need the columns %s" % ", ".join(sorted(missing)),
                      ru="в протоколах CSV нужны столбцы %s" % ", ".join(sorted(missing)))
    session = Session(method=method)
    for line, row in enumerate(reader, start=2):
        row = {k: (v or "") for k, v in row.items()}
        where = Both("line %d" % line, "строка %d" % line)
        result = Result(_optional_int(row, "Board", where), row["NS"], row["EW"],
                        contract=row.get("Contract", ""), declarer=row.get("Declarer", ""),
                        tricks=_optional_int(row, "Tricks", where), lead=row.get("Lead", ""),
                        round=_optional_int(row, "Round", where),
                        table=_optional_int(row, "Table", where),
                        group=row.get("Group") or None)
        if result.board is None:
            raise at(where, "no Board", "нет номера сдачи (Board)")
        check_opponents(result, where)
        adjusted = row.get("Adjusted", "")
        scores = (None, None)
        if adjusted.strip() == "assigned":  # a played line's scores are recomputed, not read
            scores = (_optional_int(row, "ScoreNS", where, signed=True),
                      _optional_int(row, "ScoreEW", where, signed=True))
        apply_adjusted(result, adjusted, *scores, where)
        set_dealt(session, result.board, row.get("Dealer"), row.get("Vulnerable"), where)
        session.results.append(result)
    return session
