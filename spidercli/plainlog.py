"""A quick reading of the usual move log: keys first, then a plain ``moves:`` list to the end.

Most logs (those that spidercli writes, and most hand-written ones: the worked examples too)
end with ``moves:`` at the start of a line followed only by lines such as ``  - 10>9`` or
``  - deal``. Composing those lines into YAML nodes and checking each node is most of a log's
reading time, yet their meaning is fixed: a list of plain text scalars, one a line. This module
reads the keys before ``moves:`` with the strict YAML reader as always (with ``moves: []`` in
place of the list, on the same line) and the list itself line by line.

Anything unusual is left to the YAML reader, whole: line breaks other than LF, comments, blank
lines, double quotes and escapes, flow style, tabs, trailing blanks, mixed indentation, an action
other than ``S>T``, ``S>T:K``, ``tap S``, ``flip N``, ``deal``, ``undo`` and ``finish`` in their
one plain spelling (bare or in single quotes), an empty list, and any error at all (so every
message is the YAML reader's own). The result is the same ``MoveLog`` (entries, lines, keys) as the
YAML reader's; a property test compares both over generated logs (tests/test_plainlog.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, cast

from spidercli.actions import Action, parse_action

if TYPE_CHECKING:
    from spidercli.movelog import MoveLog

_WORD = r"[0-9]{1,4}>[0-9]{1,4}(?::[0-9]{1,4})?|deal|undo|finish|flip [0-9]{1,4}|tap [0-9]{1,4}"
_ITEM = re.compile(rf"( *)- (?:'({_WORD})'|({_WORD}))")  # plain, or in single quotes
_MARKER = "\nmoves:\n"
_ODD = re.compile("[\r\x85\u2028\u2029]")  # what YAML also takes for a line break
Row = tuple[str, str, Action]  # a line's indent, its action's text and the (frozen) action
_ROWS: dict[str, Row] = {}  # a line to its Row


def _row(row: str) -> Row | None:
    """A line of the list: its indent, its action's text and the action; None if not plain."""
    match = _ITEM.fullmatch(row)
    if match is None:
        return None
    word = match.group(2) or match.group(3)
    try:
        action = parse_action(word)
    except ValueError:  # ActionSyntaxError: the YAML reader words it
        return None
    return match.group(1), word, action


def quick_log(text: str, path: str, full: Callable[[str, str], MoveLog]) -> MoveLog | None:
    """The log read with its plain ``moves:`` list taken line by line, or None when the text is
    not of that shape or has any error (then ``full``, the YAML reader, reads it all)."""
    from spidercli.movelog import LogError, PlainEntries

    at = text.rfind(_MARKER)
    if at < 0 or _ODD.search(text):
        return None
    head = text[: at + 1]
    body = text[at + len(_MARKER) :]
    lines = body.split("\n")
    if lines[-1] == "":
        lines.pop()
    if not lines:
        return None
    rows = _ROWS
    found = list(map(rows.get, lines))  # each distinct line is parsed once (a bounded memo)
    if None in found:
        for i, row in enumerate(lines):
            if found[i] is None:
                parsed = rows.get(row) or _row(row)
                if parsed is None:
                    return None
                if len(rows) >= 4096:
                    rows.clear()
                rows[row] = found[i] = parsed
    known = cast(list[Row], found)
    # One indent for every item: each line is "<indent>- <action>", so counting the line starts
    # "\n<indent>- " counts the lines with exactly this indent.
    if ("\n" + body).count("\n" + known[0][0] + "- ") != len(lines):
        return None
    try:
        log = full(head + "moves: []\n", path)
    except LogError:
        return None
    if log.entries:  # pragma: no cover - the head held another list (a duplicate key fails)
        return None
    first = head.count("\n") + 2  # the first item's line (1-based)
    # Every line is a plain action, so "undo" in the list is an undo entry.
    return replace(log, entries=PlainEntries(first, known, "undo" in body))
