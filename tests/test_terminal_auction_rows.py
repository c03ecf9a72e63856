"""The auction screen's rows of calls kept between keys (terminal.board_entry.add_call) are
the rows made afresh from all the calls (table), whatever the calls: rounds that skip seats
(calls out of rotation), long auctions that scroll, either language."""

from hypothesis import given
from hypothesis import strategies as st
from terminal import ui_text
from terminal.board_entry import add_call, last_round, table

# a call: (seats skipped before it, 0..3 mostly 0; its code: PASS X XX or a bid)
CALLS = st.lists(st.tuples(st.sampled_from([0, 0, 0, 1, 2, 3]), st.integers(0, 37)),
                 min_size=1, max_size=60)


def packed_calls(spec, dealer):
    out, seat = [], dealer
    for skip, code in spec:
        seat = (seat + skip) & 3
        out.append(seat << 6 | code)
        seat = (seat + 1) & 3
    return out


@given(CALLS, st.integers(0, 3), st.sampled_from([1, 4, 5]), st.sampled_from(["ru", "en"]))
def test_rows_kept_call_by_call_are_the_rows_made_afresh(spec, dealer, last, lang):
    ui_text.set_lang(lang)
    calls = packed_calls(spec, dealer)
    rows, cells = table(calls[:1], last), last_round(calls[:1])
    for n in range(2, len(calls) + 1):
        add_call(rows, cells, calls[n - 1], calls[n - 2], last)
        assert rows == table(calls[:n], last)
        assert cells == last_round(calls[:n])
    assert len(rows) <= last + 1 and rows[0] == table([], last)[0]
