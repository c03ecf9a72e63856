"""A report's site published whole: each language's pages are rendered into a hidden folder
beside their target and moved into place only once every language is complete, so a failure
midway (a bug, a full disk) leaves the site that was published as it was, where pages
rendered in place were half written and looked published. One publisher at a time holds
the report folder (flock on the folder itself, released by the kernel when a process dies),
so the hidden folders of one killed midway (kill -9, a power cut) are known to be stale and
swept by the next."""

import fcntl
import os
import secrets
import shutil
from contextlib import contextmanager, suppress

from host_sync.errors import Refused


def publish_sites(out_dir, langs, render):
    """{lang: (its folder, its page count)} of the sites `render(lang, folder)` writes (a
    list of files) for each of `langs` into out_dir/<lang>; Refused, nothing replaced, when
    a target is not a report's folder or a page cannot be written."""
    targets = {lang: _site_folder(out_dir / lang) for lang in langs}
    made = {t.parent for t in targets.values() if not t.parent.exists()}
    staged, counts = {}, {}  # lang -> its hidden folder beside its target, its page count
    with _alone(out_dir):
        for target in targets.values():
            _sweep(target)
        try:
            for lang, target in targets.items():  # every language whole before any goes out
                staged[lang] = target.with_name(".%s.%s.new" % (target.name,
                                                                secrets.token_hex(4)))
                counts[lang] = _written(staged[lang], target,
                                        lambda folder, lang=lang: render(lang, folder))
            for lang, target in targets.items():
                _replace(target, staged[lang])
        except BaseException:
            for folder in staged.values():  # gone once published; left by a later failure
                shutil.rmtree(folder, ignore_errors=True)
            for folder in made:
                with suppress(OSError):
                    folder.rmdir()  # made for the site, removed only when nothing is in it
            raise
    return {lang: (target, counts[lang]) for lang, target in targets.items()}


@contextmanager
def _alone(out_dir):
    """Hold `out_dir` (when it exists: else no earlier publisher left anything in it) for
    the one publisher writing it; another waits for it."""
    if not out_dir.is_dir():
        yield
        return
    fd = os.open(out_dir, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _sweep(target):
    """Remove the hidden folders beside `target` that a publisher killed midway left (its
    staged site, or the old one it had moved aside): nobody else is publishing here."""
    for stale in target.parent.glob(".%s.*.new*" % target.name):
        if stale.is_dir() and not stale.is_symlink():
            shutil.rmtree(stale, ignore_errors=True)


def _site_folder(folder):
    """Where a language's pages go, refused before anything is rendered when it is a file or
    a folder with files and no index.html (not a report: `_replace` would delete them); a link
    is followed, as writing into it did."""
    folder = folder.resolve() if folder.is_symlink() else folder
    if folder.exists() and not (folder / "index.html").is_file() and (
            not folder.is_dir() or any(folder.iterdir())):
        raise Refused("%s is not a report's folder (no index.html): nothing was published "
                      "and it is left as it is" % folder,
                      ru="%s — не папка отчёта (в ней нет index.html): ничего не опубликовано, "
                         "она не тронута" % folder)
    return folder


def _written(folder, target, render):
    """The page count of the whole site `render` writes into `folder`, a hidden sibling of
    `target` moved there only once every language is whole: pages rendered in place were half
    written by a failure midway (a bug, a full disk) and looked published. An OSError is
    refused saying that `target` is as it was."""
    try:
        folder.mkdir(parents=True)
        return len(render(folder))
    except OSError as e:
        raise Refused("the pages could not be written (%s): nothing was published, %s is as "
                      "it was" % (e, target),
                      ru="страницы не записаны (%s): ничего не опубликовано, %s — как была"
                         % (e, target)) from e


def _replace(target, folder):
    """Move the whole site `folder` to `target`, the old site there moved aside first and
    deleted once the new one is in place (put back if that move fails)."""
    old = folder.with_name(folder.name + ".old")
    if target.exists():
        target.rename(old)
    try:
        folder.rename(target)
    except OSError:
        if old.exists():
            old.rename(target)
        raise
    shutil.rmtree(old, ignore_errors=True)
