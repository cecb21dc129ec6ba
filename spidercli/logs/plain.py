"""A quick reading of the usual move log: keys first, then a plain ``moves:`` list to the end.

Most logs (those that spidercli writes, and most hand-written ones: the worked examples too)
end with ``moves:`` at the start of a line followed only by lines such as ``  - 10>9`` or
``  - deal``. Composing those lines into YAML nodes and checking each node is most of a log's
reading time, yet their meaning is fixed: a list of plain text scalars, one a line. This module
reads that list line by line (each distinct line parsed once; the entries made only when asked
for, ``PlainEntries``), and the keys before it too when they are the usual plain ones
(``quick_head``); other keys go to the strict YAML reader as always (with ``moves: []`` in place
of the list, on the same line).

Anything unusual is left to the YAML reader: line breaks other than LF, characters YAML refuses
(controls, even in a comment), comments and blank lines in the list, double quotes and escapes,
flow style, tabs, trailing blanks, mixed indentation, an action other than ``S>T``, ``S>T:K``,
``tap S``, ``flip N``, ``deal``, ``undo`` and ``finish`` in their one plain spelling (bare or in
single quotes), an empty list, and any error at all (so every message is the YAML reader's own).
The result is the same ``MoveLog`` (entries, lines, keys) as the YAML reader's; property tests
compare both over generated logs and heads, and every near miss of a usual head
(tests/test_plainlog.py), and a differential fuzzer over mutated logs
(tests/fuzz_fastpaths.py, docs/fuzzing.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import cast

from spidercli.game.actions import Action, parse_action
from spidercli.game.codes import CodeError, Setup, parse_code
from spidercli.game.rules import RULESETS
from spidercli.logs.yamlreader import LogError
from spidercli.play.logtypes import RESULTS, Entry, Expect, MoveLog, PlainEntries

_WORD = r"[0-9]{1,4}>[0-9]{1,4}(?::[0-9]{1,4})?|deal|undo|finish|flip [0-9]{1,4}|tap [0-9]{1,4}"
_ITEM = re.compile(rf"( *)- (?:'({_WORD})'|({_WORD}))")  # plain, or in single quotes
_MARKER = "\nmoves:\n"
# A character that YAML takes for a line break (CR, NEL, U+2028, U+2029) or refuses (the C0 and
# C1 controls but tab and LF, U+FFFE, U+FFFF, surrogates): the YAML reader reads (and words) it.
# Only the head is searched: each line of the list is matched whole, in plain ASCII.
_ODD = re.compile("[^\t\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
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
    at = text.rfind(_MARKER)
    if at < 0:
        return None
    head = text[: at + 1]
    if _ODD.search(head):
        return None
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
    first = head.count("\n") + 2  # the first item's line (1-based)
    # Every line is a plain action, so "undo" in the list is an undo entry.
    entries = PlainEntries(first, known, "undo" in body)
    log = quick_head(head, path, entries)
    if log is not None:
        return log
    try:
        log = full(head + "moves: []\n", path)
    except LogError:
        return None
    if log.entries:  # pragma: no cover - the head held another list (a duplicate key fails)
        return None
    return replace(log, entries=entries)


# The keys before the list, each on its line at the left margin with a plain value: one word or
# a few separated by single spaces, of letters, digits and ``_.-`` (no YAML indicator, no
# comment); ``expect:`` alone, its keys under it with one indent. Anything else: the YAML reader.
_TOP = re.compile(r"(game|rules|player|expect):(?: +([A-Za-z0-9][\w.-]*(?: [\w.-]+)*))?", re.A)
_SUB = re.compile(r"( +)(result|moves|score|runs): +([A-Za-z0-9-][\w.-]*)", re.A)
_INT = re.compile(r"-?(?:0|[1-9][0-9]{0,14})")  # what YAML 1.1 reads as this decimal number
# The plain words that YAML 1.1 reads as something other than text (a boolean, null); any other
# plain value starting with a letter is text.
_NOT_TEXT = frozenset(
    {"yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE"}
    | {"on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL"}
)


# A game code as written to its deal (a batch's logs repeat a few codes): bounded.
_DEALS: dict[str, Setup] = {}


def _text(value: str) -> bool:
    """Whether YAML reads this plain value (see ``_TOP``) as text."""
    return value[0].isalpha() and value not in _NOT_TEXT


def quick_head(head: str, path: str, entries: Sequence[Entry]) -> MoveLog | None:
    """The log of ``head`` (the keys before ``moves:``) and ``entries``, when the head holds
    only plain ``game``, ``rules``, ``player`` and ``expect`` keys, comments and blank lines, all
    usable (a game code that deals, a ruleset, a result, whole numbers); else None, and the YAML
    reader reads the head (with every message its own)."""
    top: dict[str, tuple[int, str]] = {}
    expect: dict[str, str] = {}
    expect_line = 0
    indent = ""
    lines = head.split("\n")
    lines.pop()  # the head ends with its line break
    number = 0
    under_expect = False
    for line in lines:
        number += 1
        if under_expect:
            sub = _SUB.fullmatch(line)
            if sub is not None:
                if not expect:
                    indent = sub[1]
                    expect_line = number
                elif sub[1] != indent or sub[2] in expect:
                    return None
                expect[sub[2]] = sub[3]
                continue
            if not expect:
                return None  # an expect: with nothing under it (YAML: null)
            under_expect = False
        if not line or line[0] == "#":
            continue
        key = _TOP.fullmatch(line)
        if key is None or key[1] in top:
            return None
        value = key[2]
        if key[1] == "expect":
            if value is not None:
                return None
            under_expect = True
        elif value is None:
            return None
        top[key[1]] = (number, value or "")
    if (under_expect and not expect) or "game" not in top:
        return None
    game_line, code = top["game"]
    deal = _DEALS.get(code)
    if deal is None:
        if not _text(code):
            return None
        try:
            deal = Setup.from_code(parse_code(code))
        except CodeError:
            return None
        if len(_DEALS) >= 256:
            _DEALS.clear()
        _DEALS[code] = deal
    rules = rules_line = None
    if "rules" in top:
        rules_line, name = top["rules"]
        rules = name.lower()
        if not _text(name) or rules not in RULESETS:
            return None
    player = None
    if "player" in top:
        player = top["player"][1]
        if player in ("null", "Null", "NULL"):
            return None
    figures: Expect | None = None
    if expect:
        result = expect.get("result")
        if result is not None:
            result = result.lower()
            if not _text(expect["result"]) or result not in RESULTS:
                return None
        numbers: dict[str, int | None] = {}
        for name in ("moves", "score", "runs"):
            text = expect.get(name)
            if text is None:
                numbers[name] = None
            elif _INT.fullmatch(text):
                numbers[name] = int(text)
            else:
                return None
        figures = Expect(result, **numbers, line=expect_line)
    return MoveLog(path, deal, game_line, rules, rules_line, player, figures, entries)
