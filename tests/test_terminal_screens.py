"""Screenshots of the main screens in Russian and English (auction, irregularity, the
director's options, the opening lead with the honours' keys, the auction reviewed after the
final pass, result entry, score, the board's traveller, a refused call and its reason, the
keypad's legend; with the play recorded: a trick, and a revoke), made by the simulator from
a key script and compared with the ones in docs/screens/ (regenerate: docs/SIM.md)."""

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


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_main_screens_look_right(lang, tmp_path):
    make_screens(lang, tmp_path)
    for name, wanted in list(EXPECT[lang].items()) + list(PLAY_EXPECT[lang].items()):
        text = (tmp_path / ("%s-%s.txt" % (name, lang))).read_text()
        lines = text.rstrip("\n").split("\n")
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
