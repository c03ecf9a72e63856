"""The command line speaks the scorer's language: Russian by default, English with `--lang en`
(before the command, or after it as the older commands spelled it) or HOST_SYNC_LANG=en; its
help, argparse's own words, the handlers' messages and the refusals alike."""

import argparse
import sqlite3

import pytest

from host_sync import cli
from host_sync.cli.lang import Both


@pytest.fixture
def host(host_cli, monkeypatch):
    """`host-sync ARGS` in this process with no HOST_SYNC_LANG: (status, stdout, stderr)."""
    monkeypatch.delenv("HOST_SYNC_LANG", raising=False)
    return host_cli


def test_a_refusal_is_russian_by_default_and_english_on_request(host, tmp_path, monkeypatch):
    missing = tmp_path / "нет.db"
    assert host("export", missing, "-o", tmp_path / "r.csv") == (
        2, "", "export: %s: нет такой базы турнира (создайте её командой `host-sync event "
        "create`)\n" % missing)
    status, _, err = host("--lang", "en", "export", missing, "-o", tmp_path / "r.csv")
    assert status == 2 and err.startswith("export: %s: no such event database" % missing)
    status, _, err = host("score", missing, "--lang", "en")  # the older spelling
    assert status == 2 and "no such event database" in err
    monkeypatch.setenv("HOST_SYNC_LANG", "en")
    status, _, err = host("score", missing)
    assert status == 2 and "no such event database" in err
    status, _, err = host("score", missing, "--lang", "ru")  # the command line wins
    assert status == 2 and "нет такой базы турнира" in err


def test_an_unknown_language_in_the_environment_is_refused_in_both(host, monkeypatch, tmp_path):
    monkeypatch.setenv("HOST_SYNC_LANG", "de")
    status, out, err = host("event", "create", tmp_path / "e.db", "--name", "E", "--tables", 4)
    assert (status, out) == (2, "")
    assert "допустимо ru или en" in err and "it takes ru or en" in err
    assert not (tmp_path / "e.db").exists()


def test_help_and_usage_errors_speak_the_language(host, tmp_path):
    status, out, _ = host("event", "create", "--help")
    assert status == 0 and out.startswith("использование: host-sync event create")
    assert "название турнира" in out and "показать эту справку и выйти" in out
    assert "movement" not in out.split("движение:")[0].split("параметры:")[1]
    status, out, _ = host("--lang", "en", "event", "create", "--help")
    assert status == 0 and out.startswith("usage: host-sync event create")
    assert "the event's name" in out and "название" not in out
    status, _, err = host("event", "create", tmp_path / "e.db")
    assert status == 2 and "ошибка: не хватает аргументов: --name" in err
    status, _, err = host("--lang", "en", "event", "create", tmp_path / "e.db")
    assert status == 2 and "error: the following arguments are required: --name" in err


def _parsers(parser):
    """Every parser of the command line with its name, the main one first."""
    yield parser.prog, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _parsers(sub)


def test_every_command_and_option_has_its_help_in_both_languages():
    untranslated = []
    for prog, parser in _parsers(cli.build_parser()):
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            helps = [c.help for c in getattr(action, "_choices_actions", [])] + (
                [] if isinstance(action, argparse._SubParsersAction) else [action.help])
            for text in helps:
                if not (isinstance(text, Both) and text.ru and text.ru != str(text)):
                    untranslated.append("%s %s: %r" % (prog, "/".join(
                        action.option_strings) or action.dest, text))
    assert untranslated == []


def test_a_handlers_own_words_and_a_files_problems_are_russian(host, tmp_path):
    db = tmp_path / "club.db"
    status, out, err = host("event", "create", db, "--name", "Клуб", "--tables", 4,
                            "--boards", 12)
    assert (status, err) == (0, "")
    assert out.startswith("турнир 'Клуб' в %s\nсессия 1, секция A: mitchell, столов 4" % db)
    names = tmp_path / "names.csv"
    names.write_text("section,pair,player1,player2\nA,9,Анна,Борис\nA,1,,Вера\n",
                     encoding="utf-8")
    before = list(sqlite3.connect(db).iterdump())
    status, out, err = host("names", "import", db, names)
    assert (status, out) == (2, "")
    assert err == ("%s:3: нет имени игрока 1\nничего не сохранено\n" % names)
    assert list(sqlite3.connect(db).iterdump()) == before
    names.write_text("section,pair,player1,player2\nA,9,Анна,Борис\n", encoding="utf-8")
    status, _, err = host("names", "import", db, names)
    assert status == 2 and "%s:2: в секции A нет пары 9 (её пары: 1" % names in err
    status, _, err = host("deals", "import", db, tmp_path / "none.pbn")
    assert status == 2 and "none.pbn: не прочитать файл" in err


def test_an_os_error_is_said_in_russian(host, tmp_path):
    status, _, err = host("export", tmp_path / "r.csv", "-o", tmp_path / "out.pbn")
    assert status == 2 and err.startswith("export: %s: не прочитать" % (tmp_path / "r.csv"))
    status, _, err = host("rescore", tmp_path, "-o", tmp_path / "out.pbn")
    assert status == 2 and "rescore: " in err and "Is a directory" not in err.split(":")[0]
