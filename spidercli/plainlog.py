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
from typing import TYPE_CHECKING

from spidercli.actions import Action, parse_action

if TYPE_CHECKING:
    from spidercli.movelog import MoveLog

_WORD = r"[0-9]{1,4}>[0-9]{1,4}(?::[0-9]{1,4})?|deal|undo|finish|flip [0-9]{1,4}|tap [0-9]{1,4}"
_ITEM = re.compile(rf"( *)- (?:'({_WORD})'|({_WORD}))")  # plain, or in single quotes
_MARKER = "\nmoves:\n"
_ODD = re.compile("[\r\x85\u2028\u2029]")  # what YAML also takes for a line break
_ROWS: dict[str, tuple[str, str, Action]] = {}  # a line to its indent, text and (frozen) action


def _row(row: str) -> tuple[str, str, Action] | None:
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
    from spidercli.movelog import Entry, LogError

    at = text.rfind(_MARKER)
    if at < 0 or _ODD.search(text):
        return None
    head = text[: at + 1]
    lines = text[at + len(_MARKER) :].split("\n")
    if lines[-1] == "":
        lines.pop()
    if not lines:
        return None
    line = head.count("\n") + 2  # the first item's line (1-based)
    indent = None
    entries: list[Entry] = []
    append = entries.append
    rows = _ROWS
    new = object.__new__  # an Entry made through its slots (the same fields, frozen after)
    slot = vars(Entry)
    set_index, set_line = slot["index"].__set__, slot["line"].__set__
    set_text, set_action = slot["text"].__set__, slot["action"].__set__
    for index, row in enumerate(lines, start=1):
        known = rows.get(row)
        if known is None:
            known = _row(row)
            if known is None:
                return None
            if len(rows) >= 4096:
                rows.clear()
            rows[row] = known
        if indent is None:
            indent = known[0]
        elif known[0] != indent:
            return None
        entry = new(Entry)  # Entry's frozen __init__ costs more than the rest of the line
        set_index(entry, index)
        set_line(entry, line)
        set_text(entry, known[1])
        set_action(entry, known[2])
        append(entry)
        line += 1
    try:
        log = full(head + "moves: []\n", path)
    except LogError:
        return None
    if log.entries:  # pragma: no cover - the head held another list (a duplicate key fails)
        return None
    return replace(log, entries=tuple(entries))
