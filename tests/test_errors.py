"""The refusal family carries the scorer's language: Russian where the raiser gave it."""

from host_sync.errors import FileProblems, Refused


def test_a_refusal_speaks_russian_when_it_has_russian_and_english_otherwise():
    both = Refused("no such board", ru="нет такой сдачи")
    assert both.text("ru") == "нет такой сдачи"
    assert both.text("en") == str(both) == "no such board"
    only_english = Refused("no such board")
    assert only_english.text("ru") == "no such board"


def test_file_problems_stay_a_refusal_with_every_line():
    e = FileProblems(["a.csv:2: no name", "a.csv:5: no number"])
    assert isinstance(e, Refused) and e.problems == ["a.csv:2: no name", "a.csv:5: no number"]
    assert str(e) == "a.csv:2: no name\na.csv:5: no number"
