"""A report's site published whole (host_sync.reports.publish): what a publisher killed
midway leaves (kill -9 between its two renames) is swept by the next one, and the site is
whole again."""

import os
import signal
import subprocess
import sys
import textwrap

from host_sync.reports.publish import publish_sites


def pages(text):
    def render(lang, folder):
        (folder / "index.html").write_text("%s %s" % (text, lang))
        return ["index.html"]
    return render


def test_the_hidden_folders_of_a_publisher_killed_midway_are_swept_by_the_next(tmp_path):
    site = tmp_path / "site"
    publish_sites(site, ["ru", "en"], pages("first"))
    # a publisher killed after moving the old site aside and before moving its own in
    script = textwrap.dedent("""
        import os, signal, sys
        from pathlib import Path
        from host_sync.reports import publish
        def killed(target, folder):
            target.rename(folder.with_name(folder.name + ".old"))
            os.kill(os.getpid(), signal.SIGKILL)
        publish._replace = killed
        publish.publish_sites(Path(sys.argv[1]), ["ru", "en"], lambda lang, folder: [
            (folder / "index.html").write_text("second " + lang) or "index.html"])
    """)
    run = subprocess.run([sys.executable, "-c", script, str(site)],
                         env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert run.returncode == -signal.SIGKILL
    left = sorted(p.name for p in site.iterdir())
    assert "ru" not in left and len([n for n in left if n.startswith(".ru.")]) == 2, left
    publish_sites(site, ["ru", "en"], pages("third"))
    assert sorted(p.name for p in site.iterdir()) == ["en", "ru"]
    assert (site / "ru" / "index.html").read_text() == "third ru"
    assert (site / "en" / "index.html").read_text() == "third en"


def test_a_hidden_folder_of_another_name_is_left_alone(tmp_path):
    site = tmp_path / "site"
    publish_sites(site, ["ru"], pages("first"))
    (site / ".git").mkdir()
    (site / ".ru-notes.new").mkdir()  # not a staged site of "ru": another name
    publish_sites(site, ["ru"], pages("second"))
    assert (site / ".git").is_dir() and (site / ".ru-notes.new").is_dir()
