"""Travellers as CSV: one row per table result, for spreadsheets and other scoring programs.

Columns: Board, Round, Table, NS, EW, Contract, Declarer, Lead, Tricks, ScoreNS, ScoreEW,
ValueNS, ValueEW (matchpoints on the 2/1 scale, IMPs or points) and Adjusted, which holds
what a plain score cannot: "assigned", "weighted 1/3 110;2/3 -50", "artificial NS A+ EW A-".
Reading takes the same columns back into a Session (values are recomputed, not read).
"""

import csv
import io
from fractions import Fraction

from host_sync.rescore import number_text
from host_sync.scoring.session import Result, Session, score_session

COLUMNS = ("Board", "Round", "Table", "NS", "EW", "Contract", "Declarer", "Lead", "Tricks",
           "ScoreNS", "ScoreEW", "ValueNS", "ValueEW", "Adjusted", "Group")


def _adjusted(result):
    kind = result.kind()
    if kind == "artificial":
        parts = [("NS", result.ns_artificial), ("EW", result.ew_artificial)]
        return "artificial " + " ".join("%s %s" % p for p in parts if p[1])
    if kind == "weighted":
        return "weighted " + ";".join("%s %d" % (Fraction(w), s) for w, s in result.weighted)
    return "assigned" if kind in ("assigned", "split") else ""


def _points(value):
    return "" if value is None or isinstance(value, tuple) else str(value)


def export_csv(session, scored=None):
    scored = scored or score_session(session)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for number, lines in scored.lines.items():
        for s in lines:
            r = s.result
            writer.writerow([number, r.round or "", r.table or "", r.ns, r.ew, r.contract,
                             r.declarer, r.lead, "" if r.tricks is None else r.tricks,
                             _points(s.ns_points), _points(s.ew_points),
                             number_text(s.ns_value), number_text(s.ew_value), _adjusted(r),
                             "" if r.group is None else r.group])
    return out.getvalue()


def _optional_int(text, what, line):
    if not text.strip():
        return None
    try:
        return int(text)
    except ValueError:
        raise ValueError("line %d: %s %r is not a number" % (line, what, text)) from None


def import_csv(text, method="mp"):
    """A Session from CSV travellers; ValueError naming the line for anything unreadable."""
    reader = csv.DictReader(io.StringIO(text))
    missing = {"Board", "NS", "EW"} - set(reader.fieldnames or ())
    if missing:
        raise ValueError("CSV travellers need the columns %s" % ", ".join(sorted(missing)))
    session = Session(method=method)
    for line, row in enumerate(reader, start=2):
        row = {k: (v or "") for k, v in row.items()}
        result = Result(_optional_int(row["Board"], "Board", line), row["NS"], row["EW"],
                        contract=row.get("Contract", ""), declarer=row.get("Declarer", ""),
                        tricks=_optional_int(row.get("Tricks", ""), "Tricks", line),
                        lead=row.get("Lead", ""),
                        round=_optional_int(row.get("Round", ""), "Round", line),
                        table=_optional_int(row.get("Table", ""), "Table", line),
                        group=row.get("Group") or None)
        adjusted = row.get("Adjusted", "")
        if adjusted == "assigned":
            result.assigned = _optional_int(row["ScoreNS"], "ScoreNS", line)
            ew = _optional_int(row.get("ScoreEW", ""), "ScoreEW", line)
            result.assigned_ew = ew if ew is not None and ew != -result.assigned else None
        elif adjusted.startswith("weighted "):
            result.weighted = tuple((Fraction(w), int(s)) for w, s in (
                p.split() for p in adjusted[len("weighted "):].split(";")))
        elif adjusted.startswith("artificial "):
            parts = adjusted.split()[1:]
            codes = dict(zip(parts[::2], parts[1::2]))
            result.ns_artificial, result.ew_artificial = codes.get("NS"), codes.get("EW")
        elif adjusted:
            raise ValueError("line %d: Adjusted %r is not understood" % (line, adjusted))
        session.results.append(result)
    return session
