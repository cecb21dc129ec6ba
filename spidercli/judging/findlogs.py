"""Finding the logs that ``verify`` and ``tournament`` are given: files as named, folders searched
for ``*.yaml`` and ``*.yml`` (for ``verify``, skipping what the ``.gitignore`` files on the way
ignore: ``spidercli.judging.gitignore``), glob patterns expanded; each file once, lazily."""

from __future__ import annotations

import glob
import os
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from spidercli.errors import InputError
from spidercli.logs.files import STDIN
from spidercli.text.messages import N_

if TYPE_CHECKING:
    from spidercli.judging.gitignore import Rules


def find_logs(paths: Iterable[str], *, gitignore: bool = False) -> Iterator[str]:
    """Files as given; directories searched recursively for ``*.yaml``/``*.yml`` (each
    directory's entries in name order, subdirectories in their place); glob patterns expanded
    (sorted). A path that matches nothing is passed on as it is, so that its verdict says why;
    ``-`` (standard input) too.

    Each file comes once, however many paths lead to it (links, a folder given twice): the
    resolved paths are remembered. Symbolic links to folders are followed, but never into a
    folder already being searched or searched before (a link loop ends there). Names starting
    with a dot (``.git``, ``.venv``, ``.draft.yaml``) are skipped while searching a folder, as
    globs skip them; given by name, they are searched. Lazy: a directory of 100,000 logs is never
    held in memory as a whole (only the set of resolved paths seen).

    With ``gitignore``, a folder's search skips the entries that the ``.gitignore`` files on the
    way ignore (the repository's, from its top folder down, and ``.git/info/exclude``), as git
    reads them (``spidercli.judging.gitignore``): a file named on the command line, a folder named
    there and a glob's match are still read (what is asked for is read); what is inside such a
    folder is matched entry by entry."""
    seen: set[str] = set()
    folders: set[tuple[int, int]] = set()
    for arg in paths:
        if arg == STDIN:
            yield arg
        elif os.path.isdir(arg):
            yield from _walk(arg, seen, folders, _rules(arg, gitignore))
        elif os.path.lexists(arg) or not glob.has_magic(arg):
            yield from _once(arg, seen)
        else:
            matches = sorted(glob.iglob(arg, recursive=True))
            if not matches:
                yield arg
            for match in matches:
                if os.path.isdir(match):
                    yield from _walk(match, seen, folders, _rules(match, gitignore))
                else:
                    yield from _once(match, seen)


def _rules(directory: str, gitignore: bool) -> Rules | None:
    """The ignore rules in force in a folder named on the command line (before its own
    ``.gitignore``), or None when they are not read."""
    if not gitignore:
        return None
    from spidercli.judging.gitignore import rules_above  # verify's walks alone

    return rules_above(directory)


def _once(path: str, seen: set[str]) -> Iterator[str]:
    """``path``, unless a path to the same file was given before."""
    try:
        key = os.path.realpath(path)
    except (OSError, ValueError):  # pragma: no cover - realpath is lenient
        key = path
    if key not in seen:
        seen.add(key)
        yield path


def _walk(
    directory: str, seen: set[str], folders: set[tuple[int, int]], rules: Rules | None = None
) -> Iterator[str]:
    """The logs in ``directory`` and the folders in it, in name order; with ``rules`` (the
    ignore rules in force there, its own ``.gitignore`` not yet read), none that they ignore."""
    try:
        info = os.stat(directory)
        names = []
        has_gitignore = False
        # The entries that are not plain files, told apart while listing (no stat for a plain
        # file): a folder (or a link to one) True, a link to anything else False.
        kinds: dict[str, bool] = {}
        with os.scandir(directory) as listing:
            for entry in listing:
                name = entry.name
                names.append(name)
                if name == ".gitignore":
                    has_gitignore = True
                if _is_dir(entry):
                    kinds[name] = True
                elif _is_link(entry):
                    kinds[name] = False
        names.sort()
    except OSError:
        yield from _once(directory, seen)  # its verdict will say why it cannot be read
        return
    folder = (info.st_dev, info.st_ino)
    if folder in folders:  # a link back to a folder searched before (or a loop): once is enough
        return
    folders.add(folder)
    if rules is not None and has_gitignore:
        rules = rules.reading(directory)
    resolved = None  # the folder's real path, worked out for its first log
    for name in names:
        if name.startswith("."):
            continue
        full = os.path.join(directory, name)
        kind = kinds.get(name)
        if kind:
            if rules is None:
                yield from _walk(full, seen, folders)
            elif not rules.ignores(name, True):  # an ignored folder is not searched
                yield from _walk(full, seen, folders, rules.enter(name))
        elif name.endswith((".yaml", ".yml")):
            if rules is not None and rules.ignores(name, False):
                continue
            if kind is not None:  # a link: its own real path
                yield from _once(full, seen)
                continue
            # A plain file: its real path is the folder's and its name (no realpath per file).
            if resolved is None:
                resolved = os.path.realpath(directory)
            key = os.path.join(resolved, name)
            if key not in seen:
                seen.add(key)
                yield full


def _is_dir(entry: os.DirEntry[str]) -> bool:
    """``os.path.isdir`` of the entry's path (links followed; False for any error)."""
    try:
        return entry.is_dir()
    except OSError:
        return False


def _is_link(entry: os.DirEntry[str]) -> bool:
    """Whether the entry is a symbolic link (True when that cannot be told)."""
    try:
        return entry.is_symlink()
    except OSError:
        return True


def no_logs(paths: Iterable[str]) -> InputError:
    """The error of paths that lead to no log."""
    return InputError(
        N_("no logs found in {paths} (files *.yaml or *.yml)", paths=", ".join(paths))
    )
