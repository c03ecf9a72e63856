"""A session's rankings as rich tables on a console, in Russian or English: what
`host-sync score` prints and the demo shows at the end of the evening."""

from rich.table import Table

from host_sync.reports.i18n import texts
from host_sync.text import number_text


def print_rankings(console, scored, lang="ru"):
    """One table per field (NS and EW, or all pairs): place, pair, players, total and, for
    matchpoints, the percentage; names as the session has them."""
    t = texts(lang)
    session = scored.session
    percent = session.method == "mp"
    for field, standings in scored.fields().items():
        table = Table(title="%s: %s" % (t["results"], t["field_" + field]),
                      caption=t["method_" + session.method])
        columns = [t["place"], t["pair"], t["names"], t["total"]] + (
            [t["percent"]] if percent else [])
        for i, column in enumerate(columns):
            table.add_column(column, justify="left" if i in (1, 2) else "right")
        for s in standings:
            row = [s.label or str(s.place), s.pair, session.pair(s.pair).title(),
                   number_text(s.total)]
            if percent:
                row.append(number_text(s.percent, places=2, whole=False))
            table.add_row(*row)
        console.print(table)
