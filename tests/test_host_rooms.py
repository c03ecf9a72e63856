"""The host's rooms and the one way their imports point (STYLE.md, issue 13).

Each folder of host_sync/ has one job; a room may import from its own level or below, never
from above, so that the tree reads as the evening does: set-up and scoring at the bottom, the
station and the files on top of the event database, the command line over everything. Checked
from the source (ast), not by importing, so a lazy import inside a function counts too.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "host_sync"
LEVEL = {"errors": 0, "text": 0, "movements": 1, "scoring": 2, "event": 3,
         "interchange": 4, "station": 4, "reports": 4, "demo": 5, "web": 5, "cli": 6, "__main__": 7}


def room(module):
    """host_sync.event.db -> 'event'; host_sync.text -> 'text'."""
    return module.split(".")[1]


def imports(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "host_sync" or node.module.startswith("host_sync."):
                for a in node.names:  # `from host_sync.event import setup` is a module
                    sub = node.module + "." + a.name
                    yield sub if is_module(sub) else node.module
        elif isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name.startswith("host_sync."))


def is_module(name):
    path = ROOT.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def modules():
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        yield ".".join(p for p in parts if p != "__init__"), path


def test_every_room_is_known_and_the_top_level_is_small():
    top = sorted(p.stem for p in ROOT.glob("*.py"))
    assert top == ["__init__", "__main__", "errors", "text"]
    folders = sorted(p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file())
    assert set(folders) <= set(LEVEL), folders
    for name in folders:  # every folder says what it owns
        assert ast.get_docstring(ast.parse((ROOT / name / "__init__.py").read_text())), name


def test_imports_point_one_way():
    wrong = []
    for name, path in modules():
        if name == "host_sync":
            continue
        here = LEVEL[room(name)]
        for target in imports(path):
            if room(target) != room(name) and LEVEL[room(target)] > here:
                wrong.append("%s imports %s" % (name, target))
    assert wrong == []


def test_no_import_cycle():
    graph = {name: {t for t in imports(path)} for name, path in modules()}
    names = set(graph)
    graph = {n: {t for t in ts if t in names and t != n} for n, ts in graph.items()}
    done, path = set(), []

    def visit(n):
        if n in path:
            raise AssertionError("import cycle: " + " -> ".join(path[path.index(n):] + [n]))
        if n in done:
            return
        path.append(n)
        for t in sorted(graph[n]):
            visit(t)
        path.pop()
        done.add(n)

    for n in sorted(graph):
        visit(n)
