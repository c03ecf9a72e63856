"""Screenshots of the main screens in Russian and English (auction, irregularity, the
director's options, the opening lead with the honours' keys, the auction reviewed after the
final pass, result entry, score, the board's traveller, a refused call and its reason, the
keypad's legend; with the play recorded: a trick, a revoke, and the director's options on a
lead out of turn as short lines; in director mode after two rounds: the correction of a closed
round's board with the result it corrects, and the same board once the correction period is
closed), made by the simulator from a key script and compared with the ones in docs/screens/
(regenerate: docs/SIM.md)."""

import sys

import cbor2
import pytest
from conftest import ROOT
from terminal import keyscript  # noqa: E402
from terminal_support import PIN, Terminal, make_config, write_config
from test_terminal_play import card_keys, legal_card, revoke_card

SCREENS = ROOT / "docs" / "screens"
SCRIPT = """OK OK OK
1 S PASS 2 H PASS 2 S
shot auction-{lang}
1 H
shot irregularity-{lang}
DIR {pin} OK 2
shot director-{lang}
3 OK 1 3 H PASS PASS PASS
shot lead-{lang}
PASS
shot review-{lang}
BACK OK UP
shot result-{lang}
OK OK
shot score-{lang}
DOWN
shot traveller-{lang}
BACK OK MENU H 1 NT DIR {pin} OK 2 4 OK PASS 2 C
shot refusal-{lang}
MENU 2 MENU 5
shot keypad-{lang}
"""
# Board 1's traveller as the station pushes it after the results of round 1 (the NS pair's
# matchpoint percentage last): this table (3 v 11) is drawn inverted.
TRAVELLERS = {1: [[1, 9, 21, 0, 1, 10, -420, 0], [2, 10, 15, 0, 1, 9, -140, 30],
                  [3, 11, 15, 0, 1, 9, -140, 30], [4, 12, 20, 1, 1, 8, 300, 100],
                  [5, 13, 17, 0, 3, 8, 50, 80], [6, 14, None, None, None, None, 0, 60]]}
EXPECT = {
    "ru": {"auction": ["Ход: В", "2♥", "2♠"], "irregularity": ["ДИРЕКТОР", "Пр.27"],
           "director": ["Принять может: Ю", "1 принять (ЛО)", "4 нарушитель заменяет"],
           "lead": ["Первый ход: Ю", "2-9 0=10 ♣В ♦Д ♥К ♠Т", "PASS: торговля"],
           "review": ["Торговля Сд1", "1♠", "3♥ В  ходит Ю"],
           "refusal": ["Ю: повторите 1БК"],
           "keypad": ["♣ВС ♦ДВ ♥КЮ ♠ТЗ  БК", "7   8   9   XX   MENU"],
           "result": ["3♥ В", "9 (=)", "NS -140  EW +140"],
           "score": ["3♥ В =", "EW +140", "↓ протокол"],
           "traveller": ["Протокол сд.1", "3-11 3♥В=   -140  30", "4-12 4♥XВ-2 +300 100"]},
    "en": {"auction": ["Call: E", "2♥", "2♠"], "irregularity": ["DIRECTOR", "Law 27"],
           "director": ["May accept: S", "1 LHO accepts", "4 offender replaces"],
           "lead": ["Opening lead: S", "2-9 0=10 ♣J ♦Q ♥K ♠A", "PASS: the auction"],
           "review": ["Auction Bd1", "3♥ E  S leads"],
           "refusal": ["S must repeat 1NT"],
           "keypad": ["♣JN ♦QE ♥KS ♠AW  NT", "BACK 0  OK       DIR"],
           "result": ["3♥ E", "9 (=)", "NS -140  EW +140"],
           "score": ["3♥ E =", "EW +140", "↓ traveller"],
           "traveller": ["Traveller bd 1", "3-11 3♥E=   -140  30", "1-9  4♠E=   -420   0"]},
}


PLAY_EXPECT = {
    "ru": {"play": ["4♠ Ю  взятки 0:1", "Взятка 2", "З♣Д", "Ход: С"],
           "revoke": ["Пр.61 Фальшренонс", "OK играть дальше"]},
    "en": {"play": ["4♠ S  tricks 0:1", "Trick 2", "W♣Q", "To play: N"]},
}


MORE_EXPECT = {
    "ru": {"playruling": ["Пр.54 В:", "1 принять ход", "2 выложить руку", "3 назад: штрафная"],
           "correction": ["Сд2 исправление 79C", "сейчас: 2БКВ= -120"],
           "closed": ["Директор Сд2 3-11", "Срок исправлений", "истёк (пр.79C)"]},
    "en": {"playruling": ["Law 54 E:", "1 accept the lead", "3 back: penalty card"],
           "correction": ["Bd2 correction 79C", "now: 2NTE= -120"],
           "closed": ["Director Bd2 3-11", "Correction period", "is over (law 79C)"]},
}
ROUND = "MENU 1 1 C C OK OK UP OK OK OK " * 4 + "OK OK"  # four boards by quick entry, closed


def more_screens(lang, out):
    """The director's screens that need a state of their own: a lead out of turn by East
    (the play recorded), and round 1 closed (board 2 on the station's traveller) with the
    correction period open, then closed (`cc`)."""
    pin = " ".join(PIN)
    config = make_config(lang=lang, play=1)
    folder, probe = out / "lead", out / "lead-probe"
    folder.mkdir()
    probe.mkdir()
    start = "OK OK OK PASS PASS 4 S PASS PASS PASS"
    board = Terminal(probe, config).press(start).app.session.current  # to find East's cards
    east = next(c for c in range(52) if board.get_play().holds(1, c // 13) & 1 << (c % 13))
    runs = [(folder, config, "%s MENU D %s DIR %s OK 2\nshot playruling-%s\n" % (
        start, card_keys(east), pin, lang))]
    for name, closed in (("correction", 0), ("closed", 1)):
        config = make_config(lang=lang)
        config["cc"] = closed
        folder = out / name
        folder.mkdir()
        (folder / "travellers.cbor").write_bytes(cbor2.dumps(
            {2: [[1, 9, 17, 0, 0, 10, 430], [3, 11, 12, 0, 1, 8, -120]]}, canonical=True))
        keys = "DIR %s OK DOWN DOWN" % pin + (" 2" if name == "correction" else "")
        runs.append((folder, config, "OK OK OK %s OK OK OK\n%s\nshot %s-%s\n" % (
            ROUND, keys, name, lang)))
    for folder, config, text in runs:
        (folder / "s.keys").write_text(text)
        error, _runner = keyscript.run(str(folder / "s.keys"), str(folder),
                                       write_config(folder / "config.cbor", config))
        assert error is None, error
        for shot in folder.glob("*-%s.*" % lang):
            shot.rename(out / shot.name)


def play_script(lang, out):
    """Board 1 with the play recorded (4S by South): five cards, then on to the first
    chance a defender has to revoke, and the revoke. The cards come from the hand record,
    played in process first to find them."""
    config = make_config(lang=lang, play=1)
    folder = out / "keys"
    folder.mkdir()
    term = Terminal(folder, config).press("OK OK OK PASS PASS 4 S PASS PASS PASS")
    lines = ["OK OK OK PASS PASS 4 S PASS PASS PASS"]

    def play(cd):
        lines.append(card_keys(cd))
        term.press(card_keys(cd))

    for _ in range(5):
        p = term.app.session.current.get_play()
        play(legal_card(p))
    lines.append("shot play-%s" % lang)
    while True:
        p = term.app.session.current.get_play()
        lead = p.cards[p.trick * 4 + p.leaders[p.trick]]
        if lead and p.turn & 1 != p.declarer & 1 and revoke_card(p, p.turn) is not None:
            play(revoke_card(p, p.turn))
            break
        play(legal_card(p))
    lines.append("shot revoke-%s" % lang)
    return config, "\n".join(lines) + "\n"


def make_screens(lang, out):
    script = out / ("screens-%s.keys" % lang)
    script.write_text(SCRIPT.format(lang=lang, pin=" ".join(PIN)))
    config = write_config(out / "config.cbor", make_config(lang=lang))
    (out / "travellers.cbor").write_bytes(cbor2.dumps(TRAVELLERS, canonical=True))
    error, _runner = keyscript.run(str(script), str(out), config)
    assert error is None, error
    play_out = out / "play"
    play_out.mkdir()
    config, text = play_script(lang, play_out)
    script = out / ("play-%s.keys" % lang)
    script.write_text(text)
    error, _runner = keyscript.run(str(script), str(play_out),
                                   write_config(play_out / "config.cbor", config))
    assert error is None, error
    for shot in play_out.glob("*-%s.*" % lang):
        if shot.stem in ("play-" + lang, "revoke-ru"):
            shot.rename(out / shot.name)
    more_screens(lang, out)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_main_screens_look_right(lang, tmp_path):
    make_screens(lang, tmp_path)
    for name, wanted in list(EXPECT[lang].items()) + list(PLAY_EXPECT[lang].items()) + \
            list(MORE_EXPECT[lang].items()):
        text = (tmp_path / ("%s-%s.txt" % (name, lang))).read_text()
        lines = text.removesuffix("\n").split("\n")  # a screen may end in blank lines
        assert len(lines) == 7 and all(len(line) <= 21 for line in lines)
        for w in wanted:
            assert w in text, (name, w, text)
        png = (tmp_path / ("%s-%s.png" % (name, lang))).read_bytes()
        assert png == (SCREENS / ("%s-%s.png" % (name, lang))).read_bytes(), name


if __name__ == "__main__":
    import shutil
    import tempfile
    from pathlib import Path

    SCREENS.mkdir(parents=True, exist_ok=True)
    for language in ("ru", "en"):
        with tempfile.TemporaryDirectory() as tmp:
            make_screens(language, Path(tmp))
            for png in Path(tmp).glob("*.png"):
                shutil.copy(png, SCREENS / png.name)
    sys.exit(0)
