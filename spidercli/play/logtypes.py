"""A move log as typed values: ``MoveLog``, its ``Entry`` values and its ``Expect`` block, the
log's keys and the result words an ``expect`` block may name.

Both readers return these: the strict YAML reader (``movelog``) and the quick reading of the
usual log (``plainlog``, whose plain ``moves:`` list is a ``PlainEntries``). Nothing here reads
or writes text.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import overload

from spidercli.game.actions import Action, Undo
from spidercli.game.codes import GameCode, Setup
from spidercli.game.engine import BLOCKED, OPEN, RESIGNED, WON
from spidercli.text.messages import brief, counted, shown_path

# The results an ``expect`` block may name (the engine's ``Game.result`` words), in the order
# messages and the schema list them.
RESULTS = (WON, OPEN, BLOCKED, RESIGNED)
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

    def __repr__(self) -> str:
        return f"<Entry {self.index} (line {self.line}) `{brief(self.text)}`>"


class PlainEntries(Sequence[Entry]):
    """The entries of a plain ``moves:`` list (``spidercli.logs.plain``), each ``Entry`` made only
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


def stated_figure(key: str, value: object) -> str:
    """One figure of an ``expect`` block in a ``repr``: ``won``, ``117 moves``, ``score 1183``."""
    if key == "score":
        return f"score {value}"
    if key in ("moves", "runs") and isinstance(value, int):
        return counted(value, key[:-1])
    return str(value)


@dataclass(frozen=True)
class Expect:
    """A log's ``expect`` block: the ``result``, ``moves``, ``score`` and ``runs`` it states
    (None where it states none) and its ``line``."""

    result: str | None = None
    moves: int | None = None
    score: int | None = None
    runs: int | None = None
    line: int | None = None

    def __repr__(self) -> str:
        stated = ", ".join(stated_figure(key, value) for key, value in self.items())
        return f"<Expect line {self.line}: {stated or 'nothing stated'}>"

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

    def __repr__(self) -> str:
        rules = "" if self.rules is None else f" {self.rules}"
        expect = "" if self.expect is None else ", expect"
        return (
            f"<MoveLog {shown_path(self.path, 40)}: {self.game or f'deal {self.deal_id}'}{rules}, "
            f"{counted(len(self.entries), 'entry', 'entries')}{expect}>"
        )

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


__all__ = ["EXPECT_KEYS", "RESULTS", "TOP_KEYS", "Entry", "Expect", "MoveLog", "PlainEntries"]
