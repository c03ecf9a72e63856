"""Screenshots of the main screens in Russian and English (auction, irregularity, the
director's options, result entry, score), made by the simulator from a key script and
compared with the ones in docs/screens/ (regenerate: `python tests/test_terminal_screens.py`)."""

import sys

import pytest
from conftest import ROOT
from terminal import keyscript  # noqa: E402
from terminal_support import PIN, make_config, write_config

SCREENS = ROOT / "docs" / "screens"
SCRIPT = """OK OK OK
1 S PASS 2 H PASS 2 S
shot auction-{lang}
1 H
shot irregularity-{lang}
DIR {pin} OK 2
shot director-{lang}
3 OK 1 3 H PASS PASS PASS OK UP
shot result-{lang}
OK OK
shot score-{lang}
"""
EXPECT = {
    "ru": {"auction": ["Ход: В", "2♥", "2♠"], "irregularity": ["ДИРЕКТОР", "Пр.27"],
           "director": ["Принять может: Ю", "1 ЛО нарушителя"],
           "result": ["3♥ В", "9 (=)", "NS -140  EW +140"], "score": ["3♥ В =", "EW +140"]},
    "en": {"auction": ["Call: E", "2♥", "2♠"], "irregularity": ["DIRECTOR", "Law 27"],
           "director": ["May accept: S", "1 Offender's LHO"],
           "result": ["3♥ E", "9 (=)", "NS -140  EW +140"], "score": ["3♥ E =", "EW +140"]},
}


def make_screens(lang, out):
    script = out / ("screens-%s.keys" % lang)
    script.write_text(SCRIPT.format(lang=lang, pin=" ".join(PIN)))
    config = write_config(out / "config.cbor", make_config(lang=lang))
    error, _runner = keyscript.run(str(script), str(out), config)
    assert error is None, error


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_main_screens_look_right(lang, tmp_path):
    make_screens(lang, tmp_path)
    for name, wanted in EXPECT[lang].items():
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
