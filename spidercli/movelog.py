"""Move logs: YAML text to a typed ``MoveLog`` whose every entry keeps its line number.

The text is read by the strict YAML reader (``spidercli.yamlreader``), so each error names the
line and says what was expected. Unknown or duplicate keys, aliases, custom tags and wrong types
are refused with ``LogError``. An explicit ``deal:`` block is read by ``spidercli.deals``; logs
are written by ``spidercli.logwriter``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from operator import itemgetter
from pathlib import Path
from typing import Any, overload

import yaml

from spidercli.actions import Action, ActionSyntaxError, Undo, parse_action
from spidercli.codes import CodeError, GameCode, Setup, parse_code
from spidercli.deals import deal_lines, parse_deal
from spidercli.files import MAX_LOG_BYTES
from spidercli.logwriter import format_log
from spidercli.messages import N_, ascii_note, message_of, prefixed, quoted
from spidercli.yamlreader import (
    CONSTRUCTOR,
    FLOAT_TAG,
    INT_TAG,
    NULL_TAG,
    STR_TAG,
    Checker,
    LogError,
    compose,
    decode,
    display_name,
    kind_of,
    line_of,
    read_text,
)

RESULTS = ("won", "open", "blocked", "resigned")
TOP_KEYS = ("game", "deal", "rules", "player", "time", "expect", "moves")
EXPECT_KEYS = ("result", "moves", "score", "runs")


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of ``moves``: its 1-based ``index``, its 1-based ``line``, its ``text`` as the
    log writes it, and the parsed ``action`` (internal)."""

    index: int
    line: int
    text: str
    action: Action


class PlainEntries(Sequence[Entry]):
    """The entries of a plain ``moves:`` list (``spidercli.plainlog``), each ``Entry`` made only
    when asked for: a log's rows (indent, action text, action) and its first item's line. Equal
    to the tuple of the same entries; ``actions`` gives the actions without making entries."""

    __slots__ = ("_first", "_rows", "undo")

    def __init__(self, first_line: int, rows: list[tuple[str, str, Action]], undo: bool) -> None:
        self._first = first_line
        self._rows = rows
        self.undo = undo  # whether an ``undo`` is among the actions

    def __len__(self) -> int:
        return len(self._rows)

    @overload
    def __getitem__(self, index: int) -> Entry: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Entry, ...]: ...

    def __getitem__(self, index: int | slice) -> Entry | tuple[Entry, ...]:
        if isinstance(index, slice):
            return tuple(self)[index]
        if index < 0:
            index += len(self._rows)
        if not 0 <= index < len(self._rows):
            raise IndexError("entry index out of range")
        _, text, action = self._rows[index]
        return Entry(index + 1, self._first + index, text, action)

    def __iter__(self) -> Iterator[Entry]:
        line = self._first
        for index, (_, text, action) in enumerate(self._rows, start=1):
            yield Entry(index, line, text, action)
            line += 1

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PlainEntries | tuple):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))

    def actions(self) -> list[Action]:
        return list(map(_ACTION, self._rows))


_ACTION = itemgetter(2)


@dataclass(frozen=True)
class Expect:
    """A log's ``expect`` block: the ``result``, ``moves``, ``score`` and ``runs`` it states
    (None where it states none) and its ``line``."""

    result: str | None = None
    moves: int | None = None
    score: int | None = None
    runs: int | None = None
    line: int | None = None

    def items(self) -> list[tuple[str, object]]:
        """The stated entries, ``(key, value)``, in the order ``result``, ``moves``, ``score``,
        ``runs``."""
        return [(k, getattr(self, k)) for k in EXPECT_KEYS if getattr(self, k) is not None]


@dataclass(frozen=True)
class MoveLog:
    """A move log, read and checked: the ``path`` its messages name, its deal (``game``, the
    canonical game code or None for a written-out deal; ``deal_id``), the ``rules`` it names
    (None: classic), the ``player``, the ``time`` in seconds, the ``expect`` block and the
    ``entries`` of ``moves``, each with its line. ``deal`` (the cards), ``game_line`` and
    ``rules_line`` are internal."""

    path: str
    deal: Setup
    game_line: int  # the line of ``game:`` or ``deal:``
    rules: str | None
    rules_line: int | None
    player: str | None
    expect: Expect | None
    entries: Sequence[Entry]  # a tuple, or the PlainEntries of a plain moves list
    time: float | None = None  # seconds the player took, for duel tie-breaks

    @property
    def game(self) -> str | None:
        """The canonical game code (``SP1-S1C-AAAAAAD``, ``KP2-17``), or None when the log
        writes its deal out."""
        code = self.deal.code
        return None if code is None else code.canonical

    @property
    def deal_id(self) -> str:
        """16 hex digits naming the dealt cards, however the deal is given."""
        return self.deal.deal_id

    @property
    def code(self) -> GameCode | None:
        """The game code, or None when the log writes its deal out."""
        return self.deal.code

    @property
    def actions(self) -> list[Action]:
        """Each entry's action, in order."""
        entries = self.entries
        if isinstance(entries, PlainEntries):
            return entries.actions()
        return [entry.action for entry in entries]

    @property
    def has_undo(self) -> bool:
        """Whether an ``undo`` is among the entries."""
        entries = self.entries
        if isinstance(entries, PlainEntries):
            return entries.undo
        return any(type(entry.action) is Undo for entry in entries)


def parse_log(text: str | bytes, path: str = "<log>") -> MoveLog:
    """Parse a move log's text; ``LogError`` names the line and what was expected."""
    if isinstance(text, str):  # the usual shape (a plain ``moves:`` list last) read quickly
        from spidercli.plainlog import quick_log

        quick = quick_log(text, path, parse_yaml_log)
        if quick is not None:
            return quick
    return parse_yaml_log(text, path)


def parse_yaml_log(text: str | bytes, path: str = "<log>") -> MoveLog:
    """``parse_log`` by the strict YAML reader alone, whatever the log's shape."""
    root = compose(text, path)
    if root is None:
        raise LogError(
            N_("the file is empty: expected a mapping with at least 'game' and 'moves'"), path=path
        )
    c = Checker(path, text)
    c.check(root)
    top = c.mapping(root, N_("the log"), TOP_KEYS)
    if "game" in top and "deal" in top:
        raise c.fail(
            N_("give either 'game' (a game code) or 'deal' (the cards written out), not both"),
            top["deal"][0],
        )
    for required in ("game", "moves"):
        if required not in top and not (required == "game" and "deal" in top):
            raise c.fail(
                N_(
                    "the log has no {key!r} key: expected 'game' (a game code, or 'deal' "
                    "with the cards written out) and 'moves' (a list of actions)",
                    key=required,
                ),
                root,
            )

    if "game" in top:
        game_node = top["game"][1]
        try:
            deal = Setup.from_code(parse_code(c.text(game_node, "game")))
        except CodeError as err:
            raise c.fail(prefixed("game", message_of(err)), game_node) from err
    else:
        game_node = top["deal"][0]
        deal = parse_deal(c, top["deal"][1])

    rules = rules_line = None
    if "rules" in top:
        node = top["rules"][1]
        rules = c.ruleset(node)
        rules_line = line_of(node)

    player = None
    if "player" in top:
        node = top["player"][1]
        if not isinstance(node, yaml.ScalarNode) or node.tag == NULL_TAG:
            raise c.fail(N_("player must be text, not {kind}", kind=kind_of(node)), node)
        player = str(node.value)

    seconds = None
    if "time" in top:
        node = top["time"][1]
        if not isinstance(node, yaml.ScalarNode) or node.tag not in (INT_TAG, FLOAT_TAG):
            raise c.fail(
                N_("time must be a number of seconds, not {kind}", kind=kind_of(node)), node
            )
        try:
            if not node.value.isascii() or len(node.value) > 40:  # float() takes "١" too
                raise ValueError(node.value)
            seconds = float(CONSTRUCTOR.construct_object(node))
        except (yaml.YAMLError, ValueError, OverflowError) as err:
            raise c.fail(
                N_(
                    "time: {value} is not a usable number{note}",
                    value=quoted(node.value),
                    note=ascii_note(node.value),
                ),
                node,
            ) from err
        if not 0 <= seconds < float("inf"):
            raise c.fail(
                N_("time: {value} must be 0 seconds or more", value=quoted(node.value)), node
            )

    expect = None
    if "expect" in top:
        expect = _expect(c, top["expect"][1])

    moves_node = top["moves"][1]
    if not isinstance(moves_node, yaml.SequenceNode):
        raise c.fail(
            N_(
                "moves must be a list of actions (use [] for none), not {kind}",
                kind=kind_of(moves_node),
            ),
            moves_node,
        )
    entries = []
    for i, node in enumerate(moves_node.value, start=1):
        if not isinstance(node, yaml.ScalarNode) or node.tag != STR_TAG:
            raise c.fail(
                N_(
                    "moves, entry {i}: expected an action such as '3>7' or 'deal', not {kind}",
                    i=i,
                    kind=kind_of(node),
                ),
                node,
            )
        try:
            action = parse_action(node.value)
        except ActionSyntaxError as err:
            raise c.fail(prefixed(N_("moves, entry {i}", i=i), message_of(err)), node) from err
        entries.append(Entry(i, line_of(node), node.value, action))
    return MoveLog(
        path, deal, line_of(game_node), rules, rules_line, player, expect, tuple(entries), seconds
    )


def _expect(c: Checker, node: yaml.Node) -> Expect:
    fields = c.mapping(node, "expect", EXPECT_KEYS)
    values: dict[str, Any] = {}
    for name, (_, value) in fields.items():
        if name == "result":
            result = c.word(value, "expect.result")
            if result not in RESULTS:
                raise c.fail(
                    N_(
                        "expect.result: {result} is not a result{note}; expected one of {choices}",
                        result=quoted(result),
                        note=ascii_note(result),
                        choices=", ".join(RESULTS),
                    ),
                    value,
                )
            values[name] = result
        else:
            values[name] = c.integer(value, f"expect.{name}")
    return Expect(**values, line=line_of(node))


def load_log(path: str | Path, max_bytes: int = MAX_LOG_BYTES) -> MoveLog:
    """Read and parse a log file (``-``: standard input); every failure is a ``LogError``
    naming the file."""
    return parse_log(read_text(path, max_bytes), display_name(path))


# The reader's and the writers' names, still importable from here.
__all__ = [
    "EXPECT_KEYS",
    "RESULTS",
    "TOP_KEYS",
    "Entry",
    "Expect",
    "LogError",
    "MoveLog",
    "PlainEntries",
    "compose",
    "deal_lines",
    "decode",
    "display_name",
    "format_log",
    "load_log",
    "parse_log",
    "read_text",
]
