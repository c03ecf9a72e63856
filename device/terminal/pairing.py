"""Pairing with the sync station, from the director's menu (6): the one way a key reaches
the terminal. The screen shows a fresh one-time code of 6 digits; the scorer types it at the
station (`host-sync sync EVENT --register --code CODE`), whose `register` then carries a tag
under that code (docs/PROTOCOL.md, "Pairing"). The code is valid while this screen is open
and for at most three minutes; three wrong codes close it. So a key is taken only where a
person who knows the director's PIN stood at the keypad, never because the terminal happens
to hold none.

The code lives in the link (terminal.link.Link.pairing), which checks it; this screen opens
it and says how it ended. The code dies with this screen, however it goes: BACK or OK,
director mode timing out, the application rebuilt on a pushed configuration (main.py), so a
code read off the screen is worth nothing once the director has walked away from it.
Loaded only from the director's menu.
"""

from hw import keys
from terminal.ui_text import t

_ENDED = {"ok": "pair_ok", "closed": "pair_closed", "expired": "pair_expired"}


class PairScreen:
    """Opens a pairing when shown (a fresh code each time), valid while this screen is the
    one shown; BACK or OK leaves it."""

    def __init__(self, app):
        if app.link is not None:
            app.link.open_pairing(lambda: app.screen is self)

    def key(self, app, k):
        if k == keys.BACK or k == keys.OK:
            app.home()
        else:
            app.refuse()

    def lines(self, app):
        link = app.link
        if link is None:  # no cable to a station on this terminal (the simulator)
            return [t("pair_title"), "", t("pair_no_link"), "", "", "", t("back")]
        code = link.pairing_code()
        if code is None:
            return [t("pair_title"), "", t(_ENDED.get(link.paired, "pair_closed")), "", "",
                    "", t("ok_go")]
        return [t("pair_title"), "", t("pair_code") % (code[:3], code[3:]), t("pair_help"),
                t("pair_valid"), t("pair_tries") % link.pairing[2], t("pair_back")]
