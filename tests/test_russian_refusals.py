"""Every refusal a user can see speaks Russian: each Refused (or subclass) the host makes has
its `ru=`, found by walking the source, so a new raise without one fails here with its
file:line instead of reaching a Russian scorer in English (errors.Refused.text)."""

import ast
from pathlib import Path

import host_sync

ROOT = Path(host_sync.__file__).parent

# Refusals left without Russian, by file and the start of the English message, until they
# get one (none now). An entry that matches nothing fails too.
LEFT = {}
# The family itself: FileProblems wraps each English-only problem string it is given.
SKIP = {"errors.py"}


def _sources(root):
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel not in SKIP:
            yield rel, ast.parse(path.read_text(encoding="utf-8"), rel)


def _name(func):
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)


def _families(trees):
    """(the Refused family, its FileProblems part): class names, subclasses of subclasses."""
    refused, problems = {"Refused", "FileProblems"}, {"FileProblems"}
    classes = [n for _, t in trees for n in ast.walk(t) if isinstance(n, ast.ClassDef)]
    grew = True
    while grew:
        grew = False
        for c in classes:
            bases = {_name(b) for b in c.bases}
            for family in (refused, problems):
                if bases & family and c.name not in family:
                    family.add(c.name)
                    grew = True
    return refused, problems


def _is_text(node):
    """Whether `node` is English text written there: a literal, "..." % x or an f-string."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        node = node.left
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant)
                                               and isinstance(node.value, str))


def _has_ru(call, position):
    """Whether the call gives Russian: ru= (or **kwargs), or a positional at `position`."""
    return len(call.args) > position or any(k.arg in ("ru", None) for k in call.keywords)


def _english(message):
    """The first text in a message (for the allow-list and the failure)."""
    for node in ast.walk(message):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
    return ast.unparse(message)[:60]


def offenders(root=ROOT):
    """(file, line, English) of each refusal made without its Russian: a Refused-family
    constructor without ru=, at(where, "text") without Russian, or a FileProblems given
    a problem as English text."""
    trees = list(_sources(root))
    refused, problems = _families(trees)
    found = []
    for rel, tree in trees:
        for call in ast.walk(tree):
            if not isinstance(call, ast.Call):
                continue
            name = _name(call.func)
            bare = []  # the English messages given without their Russian
            if name in refused - problems and not _has_ru(call, 1):
                bare = call.args[:1] or [call]
            elif name == "at" and len(call.args) >= 2 and _is_text(call.args[1]):
                bare = [] if _has_ru(call, 2) else [call.args[1]]
            elif name in problems and call.args and isinstance(call.args[0], ast.List):
                bare = [e for e in call.args[0].elts if _is_text(e)]
            found += [(rel, node.lineno, _english(node)) for node in bare]
    return sorted(found)


def test_every_refusal_the_host_makes_has_its_russian():
    left = [(rel, line, text) for rel, line, text in offenders()
            if not text.startswith(LEFT.get(rel, ()))]
    assert not left, "refusals without ru= (give each its Russian):\n" + "\n".join(
        "host_sync/%s:%d: %r" % o for o in left)


def test_the_allow_list_names_only_refusals_still_without_russian():
    """An entry of LEFT whose refusal got its Russian (or went away) is taken off the list."""
    found = offenders()
    stale = [(rel, prefix) for rel, prefixes in LEFT.items() for prefix in prefixes
             if not any(r == rel and text.startswith(prefix) for r, _, text in found)]
    assert not stale, "LEFT entries that match no refusal any more: %r" % stale


def test_the_walk_finds_a_raise_without_russian(tmp_path):
    """The walk is not vacuous: a raise of a subclass of a subclass without ru= is found, one
    with it is not, and neither is an at() given its Russian."""
    (tmp_path / "bad.py").write_text(
        "from host_sync.errors import Refused, at\n"
        "class MineError(Refused):\n    pass\n"
        "class DeeperError(MineError):\n    pass\n"
        "def f(x):\n"
        "    if x:\n        raise DeeperError('no such thing %r' % x)\n"
        "    if x is None:\n        raise at('line 1', 'bad', 'плохо')\n"
        "    raise at('line 1', 'no Russian here')\n"
        "def g():\n    raise MineError('fine', ru='хорошо')\n", encoding="utf-8")
    assert offenders(tmp_path) == [("bad.py", 8, "no such thing %r"),
                                   ("bad.py", 11, "no Russian here")]
