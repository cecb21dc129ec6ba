"""What the ``.gitignore`` files on the way say of a folder's entries, read as git reads them, for
``verify DIR`` (``findlogs``): ruff, black and ripgrep skip what git ignores, and so does spidercli.

The rules are git's own (gitignore(5), git's ``dir.c`` and ``wildmatch.c``), ported to work on the
bytes of names as git does:

- a ``.gitignore`` is read line by line (a UTF-8 byte order mark at its start skipped, a CR
  before the LF dropped); a blank line or one starting with ``#`` is no pattern; trailing spaces
  are dropped unless escaped with ``\\``; ``\\#`` and ``\\!`` start a pattern with ``#`` or ``!``;
- ``!`` before a pattern turns it around (what it matches is not ignored); of all the patterns
  that match an entry, the last one decides, a deeper folder's ``.gitignore`` over a shallower
  one's, and every ``.gitignore`` over the repository's ``.git/info/exclude``;
- a pattern ending in ``/`` matches folders only; a pattern with no other ``/`` matches an
  entry's name at any depth below its ``.gitignore``; one with a ``/`` at its start or in its
  middle matches the entry's path from its ``.gitignore``'s folder (anchored);
- ``*`` matches anything but ``/``, ``?`` one byte but ``/``, ``[...]`` one byte of a set
  (``[!...]``/``[^...]`` one not in it; ranges, ``[:alpha:]`` and the other classes); ``**/`` at
  the start or after a ``/`` matches any folders (none too), ``/**`` at the end everything
  inside, and ``**`` anywhere else is a ``*``;
- a folder that is ignored is not searched, so nothing in it can be taken back by a ``!``
  pattern (git's rule).

Why not a library: ``pathspec`` (the usual one) matches a path against one file's patterns, each
pattern of a folder matching everything inside it too; git matches each entry of a walk on its
own, across the ``.gitignore`` files of every folder on the way, and so must spidercli, for a
folder named on the command line is searched even when a ``.gitignore`` above it ignores it
(as ripgrep does: what is asked for is read). The port is small, needs no dependency, and
``tests/test_gitignore.py`` checks it against git itself on random trees and patterns.

The user's global excludes file (``core.excludesFile``) is not read: a run gives the same logs
on every machine that has the same repository.
"""

from __future__ import annotations

import os
from typing import NamedTuple

from spidercli.errors import InputError
from spidercli.logs.files import Unreadable, read_limited
from spidercli.text.messages import N_, quoted

MAX_GITIGNORE_BYTES = 1 << 20  # a larger .gitignore (or one that is not a regular file): not read

_STAR, _QUESTION, _OPEN, _CLOSE = ord("*"), ord("?"), ord("["), ord("]")
_SLASH, _BACKSLASH, _BANG, _CARET, _DASH, _COLON = (ord(c) for c in "/\\!^-:")
_SPECIAL = frozenset(b"*?[\\")  # git's is_glob_special
_MATCH, _NOMATCH, _ABORT_ALL, _ABORT_TO_STARSTAR = 0, 1, -1, -2

_CLASSES = {  # git's ctype, ASCII only, as wildmatch's [:name:] reads it
    b"alnum": frozenset(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"),
    b"alpha": frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"),
    b"blank": frozenset(b" \t"),
    b"cntrl": frozenset([*range(0x20), 0x7F]),
    b"digit": frozenset(b"0123456789"),
    b"graph": frozenset(range(0x21, 0x7F)),
    b"lower": frozenset(b"abcdefghijklmnopqrstuvwxyz"),
    b"print": frozenset(range(0x20, 0x7F)),
    b"punct": frozenset(b"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"),
    b"space": frozenset(b" \t\n\r"),
    b"upper": frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
    b"xdigit": frozenset(b"0123456789ABCDEFabcdef"),
}


class TooCostly(Exception):
    """Matching one name took more than its budget of steps (``STEPS_PER_NAME``)."""


# The work one name's matching may take, in steps (a pattern tried, a place in the name tried by
# a wildcard): a .gitignore of a few thousand patterns takes a few thousand steps for a name; a
# hostile one (``*a*a*a*a*a*a*a*b`` against a long name, or 100,000 patterns) would take minutes
# for a folder of logs, and is refused instead (an ``InputError`` naming it), at the first name.
STEPS_PER_NAME = 100_000


class Budget:
    """The steps left for one name's matching against every pattern in force."""

    __slots__ = ("left",)

    def __init__(self, steps: int = STEPS_PER_NAME) -> None:
        self.left = steps

    def spend(self, steps: int) -> None:
        self.left -= steps
        if self.left < 0:
            raise TooCostly


def wildmatch(
    pattern: bytes, text: bytes, pathname: bool = True, budget: Budget | None = None
) -> bool:
    """Whether ``text`` matches ``pattern`` as git's ``wildmatch`` decides (``pathname``:
    ``WM_PATHNAME``, where ``*``, ``?`` and ``[...]`` never match ``/``).

    git's ``dowild``, each result remembered by where it starts in the pattern and the text (it
    depends on nothing else), so that no position is tried twice: git's own search takes time
    exponential in the number of ``*`` on some texts (``*a*a*a*a*b`` against ``aaaa...``), this
    one at most the number of ``*`` times the text's length squared. ``budget`` (spent as it
    goes) raises ``TooCostly`` past its end."""
    return _Wild(pattern, text, pathname, budget or Budget()).match(0, 0) == _MATCH


class _Wild:
    __slots__ = ("budget", "memo", "p", "pathname", "text")

    def __init__(self, p: bytes, text: bytes, pathname: bool, budget: Budget) -> None:
        self.p = p
        self.text = text
        self.pathname = pathname
        self.budget = budget
        self.memo: dict[tuple[int, int], int] = {}

    def match(self, pi: int, ti: int) -> int:
        key = (pi, ti)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self._dowild(pi, ti)
        return found

    def _dowild(self, pi: int, ti: int) -> int:
        """git's ``dowild`` from ``p[pi]`` and ``text[ti]``: a match, no match, or an abort that
        spares the callers' stars their further tries."""
        p, text, pathname = self.p, self.text, self.pathname
        plen, tlen = len(p), len(text)
        self.budget.spend(1 + plen - pi)
        while pi < plen:
            p_ch = p[pi]
            t_ch = text[ti] if ti < tlen else 0
            if ti >= tlen and p_ch != _STAR:
                return _ABORT_ALL
            if p_ch == _BACKSLASH:  # the next byte, literally (a backslash at the end: no match)
                pi += 1
                if pi >= plen or t_ch != p[pi]:
                    return _NOMATCH
            elif p_ch == _QUESTION:
                if pathname and t_ch == _SLASH:
                    return _NOMATCH
            elif p_ch == _STAR:
                pi += 1
                if pi < plen and p[pi] == _STAR:
                    prev = pi - 2
                    while pi < plen and p[pi] == _STAR:
                        pi += 1
                    after = p[pi] if pi < plen else 0
                    if (prev < 0 or p[prev] == _SLASH) and (
                        pi >= plen
                        or after == _SLASH
                        or (after == _BACKSLASH and pi + 1 < plen and p[pi + 1] == _SLASH)
                    ):
                        if after == _SLASH and self.match(pi + 1, ti) == _MATCH:
                            return _MATCH  # "**/" matching no folder at all
                        match_slash = True
                    else:
                        match_slash = False
                else:
                    match_slash = not pathname
                if pi >= plen:  # a trailing "**" matches all; a trailing "*" no further "/"
                    if not match_slash and _SLASH in text[ti:]:
                        return _NOMATCH
                    return _MATCH
                if not match_slash and p[pi] == _SLASH:  # "*/": up to the next "/"
                    slash = text.find(b"/", ti)
                    if slash < 0:
                        return _NOMATCH
                    ti = slash  # the "/" is matched by the loop's step below
                else:
                    return self._star(pi, ti, match_slash)
            elif p_ch == _OPEN:
                found = _bracket(p, pi, t_ch, pathname)
                if found is None:
                    return _ABORT_ALL
                end, matched = found
                if not matched:
                    return _NOMATCH
                pi = end
            elif t_ch != p_ch:
                return _NOMATCH
            pi += 1
            ti += 1
        return _NOMATCH if ti < tlen else _MATCH

    def _star(self, pi: int, ti: int, match_slash: bool) -> int:
        """The rest of the pattern, ``p[pi:]``, after a ``*`` (or ``**``) tried at each place
        the star may end, from ``text[ti]`` on."""
        p, text = self.p, self.text
        tlen = len(text)
        self.budget.spend(1 + tlen - ti)
        while ti < tlen:
            if p[pi] not in _SPECIAL:  # skip ahead to the literal that follows
                want = p[pi]
                while ti < tlen and (match_slash or text[ti] != _SLASH):
                    if text[ti] == want:
                        break
                    ti += 1
                if ti >= tlen or text[ti] != want:
                    return _NOMATCH
            t_ch = text[ti]
            matched = self.match(pi, ti)
            if matched != _NOMATCH:
                if not match_slash or matched != _ABORT_TO_STARSTAR:
                    return matched
            elif not match_slash and t_ch == _SLASH:
                return _ABORT_TO_STARSTAR
            ti += 1
        return _ABORT_ALL


def _bracket(p: bytes, pi: int, t_ch: int, pathname: bool) -> tuple[int, bool] | None:
    """A ``[...]`` set at ``p[pi]`` against the byte ``t_ch``: the index of its ``]`` and
    whether it matched; None for a set that is never closed or names no known class (git then
    gives up on the whole pattern)."""
    plen = len(p)
    pi += 1
    p_ch = p[pi] if pi < plen else 0
    negated = p_ch in (_BANG, _CARET)
    if negated:
        pi += 1
        p_ch = p[pi] if pi < plen else 0
    prev_ch = 0
    matched = False
    while True:
        if not p_ch:
            return None
        if p_ch == _BACKSLASH:
            pi += 1
            p_ch = p[pi] if pi < plen else 0
            if not p_ch:
                return None
            if t_ch == p_ch:
                matched = True
        elif p_ch == _DASH and prev_ch and pi + 1 < plen and p[pi + 1] != _CLOSE:
            pi += 1
            p_ch = p[pi]
            if p_ch == _BACKSLASH:
                pi += 1
                p_ch = p[pi] if pi < plen else 0
                if not p_ch:
                    return None
            if prev_ch <= t_ch <= p_ch:
                matched = True
            p_ch = 0  # no range may start at a range's end
        elif p_ch == _OPEN and pi + 1 < plen and p[pi + 1] == _COLON:
            start = pi + 2
            close = start
            while close < plen and p[close] != _CLOSE:
                close += 1
            if close >= plen:
                return None
            if close - start - 1 < 0 or p[close - 1] != _COLON:  # no ":]": "[" is a member
                pi = start - 2
                p_ch = _OPEN
                if t_ch == p_ch:
                    matched = True
            else:
                members = _CLASSES.get(p[start : close - 1])
                if members is None:
                    return None
                if t_ch in members:
                    matched = True
                pi = close
                p_ch = 0
        elif t_ch == p_ch:
            matched = True
        prev_ch = p_ch
        pi += 1
        p_ch = p[pi] if pi < plen else 0
        if p_ch == _CLOSE:
            break
    if matched == negated or (pathname and t_ch == _SLASH):
        return pi, False
    return pi, True


class Pattern(NamedTuple):
    """One line of a ``.gitignore``: ``pattern`` without its ``!``, trailing ``/`` and (for an
    anchored one) leading ``/``; ``negative`` (``!``), ``folders_only`` (a trailing ``/``),
    ``by_name`` (no ``/``: matched against an entry's name), ``prefix`` (the bytes before its
    first wildcard, compared as they are) and ``ends_with`` (``*`` and a literal)."""

    pattern: bytes
    negative: bool
    folders_only: bool
    by_name: bool
    prefix: int
    ends_with: bool

    def matches(self, path: bytes, name: bytes, is_dir: bool, budget: Budget) -> bool:
        """Whether the entry at ``path`` (from the ``.gitignore``'s folder; ``name`` its last
        part) matches, as git's ``match_basename`` and ``match_pathname`` decide."""
        if self.folders_only and not is_dir:
            return False
        p = self.pattern
        if self.by_name:
            if self.prefix == len(p):
                return name == p
            if self.ends_with:
                return name.endswith(p[1:])
            return wildmatch(p, name, False, budget)
        prefix = self.prefix
        if prefix:
            if path[:prefix] != p[:prefix]:
                return False
            if prefix == len(p):
                return len(path) == prefix
            return wildmatch(p[prefix:], path[prefix:], True, budget)
        return wildmatch(p, path, True, budget)


def _simple_length(p: bytes) -> int:
    for i, ch in enumerate(p):
        if ch in _SPECIAL:
            return i
    return len(p)


def parse_pattern(line: bytes) -> Pattern | None:
    """A ``.gitignore`` line (its CR LF or LF already dropped) as git's ``add_pattern`` reads
    it; None for a comment, a blank line or a pattern that can match nothing."""
    if not line or line.startswith(b"#"):
        return None
    line = line.split(b"\0", 1)[0]  # git's patterns are C strings
    line = _trim_trailing_spaces(line)
    negative = line.startswith(b"!")
    if negative:
        line = line[1:]
    folders_only = line.endswith(b"/")
    if folders_only:
        line = line[:-1]
    if not line:
        return None  # "", "!", "/": git matches nothing with these
    by_name = b"/" not in line
    prefix = _simple_length(line)
    ends_with = line.startswith(b"*") and _simple_length(line[1:]) == len(line) - 1
    if not by_name and line.startswith(b"/"):
        line = line[1:]
        prefix -= 1
    return Pattern(line, negative, folders_only, by_name, max(prefix, 0), ends_with)


def _trim_trailing_spaces(line: bytes) -> bytes:
    """git's ``trim_trailing_spaces``: trailing spaces dropped, unless one is escaped."""
    last_space = -1
    i = 0
    while i < len(line):
        ch = line[i]
        if ch == 0x20:
            if last_space < 0:
                last_space = i
        elif ch == _BACKSLASH:
            i += 1
            if i >= len(line):
                return line
            last_space = -1
        else:
            last_space = -1
        i += 1
    return line[:last_space] if last_space >= 0 else line


def parse(data: bytes) -> tuple[Pattern, ...]:
    """A ``.gitignore``'s patterns, in the file's order."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    out = []
    for line in data.split(b"\n"):
        if line.endswith(b"\r"):
            line = line[:-1]
        pattern = parse_pattern(line)
        if pattern is not None:
            out.append(pattern)
    return tuple(out)


def read_patterns(path: str) -> tuple[Pattern, ...]:
    """The patterns of the ignore file at ``path``; none when it is missing, not a regular file,
    unreadable or larger than ``MAX_GITIGNORE_BYTES`` (a FIFO named ``.gitignore`` never blocks
    the walk)."""
    try:
        return parse(read_limited(path, MAX_GITIGNORE_BYTES))
    except Unreadable:
        return ()


class RuleSet(NamedTuple):
    """The patterns of one ignore file (``source``), read from its folder, ``base`` (a path from
    the walk's top folder, ``b""`` for the top itself)."""

    base: bytes
    patterns: tuple[Pattern, ...]
    source: str


class Rules(NamedTuple):
    """The ignore files in force in a folder being walked: each ``(base, patterns)``, shallowest
    first, ``base`` its folder's path from ``top`` (bytes, ``b""`` for ``top`` itself); and the
    walked folder's own path from ``top``. ``top`` is the repository's top folder when the walk
    is inside one, else the folder the walk began in."""

    sets: tuple[RuleSet, ...]
    here: bytes

    def ignores(self, name: str, is_dir: bool) -> bool:
        """Whether the entry ``name`` of this folder is ignored: the last pattern that matches
        it, in the deepest ignore file that has one, decides. ``InputError`` naming the ignore
        file whose patterns take more than ``STEPS_PER_NAME`` steps to match the name."""
        if not self.sets:
            return False
        raw = os.fsencode(name)
        path = self.here + b"/" + raw if self.here else raw
        budget = Budget()
        for rules in reversed(self.sets):
            rel = path[len(rules.base) + 1 :] if rules.base else path
            try:
                budget.spend(len(rules.patterns))  # a step a pattern, whatever it takes
                for pattern in reversed(rules.patterns):
                    if pattern.matches(rel, raw, is_dir, budget):
                        return not pattern.negative
            except TooCostly:
                raise InputError(
                    N_(
                        "its patterns take too long to match {name} (more than {steps:,} "
                        "steps); simplify them, or read every log with --no-ignore",
                        name=quoted(name),
                        steps=STEPS_PER_NAME,
                    ),
                    path=rules.source,
                ) from None
        return False

    def enter(self, name: str) -> Rules:
        """The rules in force in this folder's folder ``name``, before its own ``.gitignore``."""
        raw = os.fsencode(name)
        return Rules(self.sets, self.here + b"/" + raw if self.here else raw)

    def reading(self, directory: str) -> Rules:
        """These rules with the ``.gitignore`` of ``directory`` (the folder ``here``) added."""
        source = os.path.join(directory, ".gitignore")
        patterns = read_patterns(source)
        if not patterns:
            return self
        return Rules((*self.sets, RuleSet(self.here, patterns, source)), self.here)


def rules_above(directory: str) -> Rules:
    """The rules in force in ``directory`` (a folder named on the command line) before its own
    ``.gitignore`` is read: inside a git repository (the nearest folder above holding ``.git``),
    the repository's ``info/exclude`` and the ``.gitignore`` of its top folder and of every
    folder on the way down; outside one, none."""
    here = os.path.abspath(directory)
    top = here
    while not os.path.lexists(os.path.join(top, ".git")):
        parent = os.path.dirname(top)
        if parent == top:
            return Rules((), b"")
        top = parent
    sets: list[RuleSet] = []
    exclude = _info_exclude(top)
    if exclude is not None:
        sets.append(RuleSet(b"", *exclude))
    rel = os.path.relpath(here, top)
    parts = [] if rel == os.curdir else rel.split(os.sep)
    for depth in range(len(parts)):  # the top folder and each one down to (not) ``directory``
        source = os.path.join(top, *parts[:depth], ".gitignore")
        patterns = read_patterns(source)
        if patterns:
            sets.append(RuleSet(os.fsencode("/".join(parts[:depth])), patterns, source))
    return Rules(tuple(sets), os.fsencode("/".join(parts)))


def _info_exclude(top: str) -> tuple[tuple[Pattern, ...], str] | None:
    """The patterns of the repository's ``info/exclude``: in ``.git/``, or where a ``.git``
    file points (``gitdir: ...``: a worktree's or a submodule's; a worktree's common folder)."""
    dot_git = os.path.join(top, ".git")
    git_dir = dot_git
    if not os.path.isdir(dot_git):
        try:
            with open(dot_git, "rb") as handle:
                first = handle.read(4096).split(b"\n", 1)[0].strip()
        except OSError:
            return None
        if not first.startswith(b"gitdir:"):
            return None
        git_dir = os.path.join(top, os.fsdecode(first[len(b"gitdir:") :].strip()))
        try:
            with open(os.path.join(git_dir, "commondir"), "rb") as handle:
                common = handle.read(4096).strip()
            git_dir = os.path.join(git_dir, os.fsdecode(common))
        except OSError:
            pass
    source = os.path.join(git_dir, "info", "exclude")
    patterns = read_patterns(source)
    return (patterns, source) if patterns else None


__all__ = [
    "MAX_GITIGNORE_BYTES",
    "STEPS_PER_NAME",
    "Budget",
    "Pattern",
    "RuleSet",
    "Rules",
    "TooCostly",
    "parse",
    "parse_pattern",
    "read_patterns",
    "rules_above",
    "wildmatch",
]
