"""Text output: ASCII (or Unicode) boards and the human replay report.

Plain ASCII by default: face-down cards are ``##``, columns are numbered, and the line above the
board gives the stock, deals left, runs removed, moves and score. Colour (red hearts and diamonds,
a coloured verdict) only when the caller says the output is a terminal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from spidercli.cards import (
    RANK_NAMES,
    RANKS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    card_words,
    cards_str,
)
from spidercli.codes import Setup
from spidercli.engine import Game, Refusal
from spidercli.messages import shown, shown_path
from spidercli.movelog import Entry, MoveLog
from spidercli.replay import Report
from spidercli.rules import Ruleset

_RED = "\x1b[31m"
_GREEN = "\x1b[32m"
_BOLD_RED = "\x1b[1;31m"
_RESET = "\x1b[0m"


@dataclass(frozen=True)
class Style:
    unicode: bool = False
    color: bool = False

    def card(self, card: int) -> str:
        suit = card >> 4
        text = RANKS[(card & 15) - 1] + (SUIT_SYMBOLS[suit] if self.unicode else SUITS[suit])
        if self.color and suit in (1, 2):
            return f"{_RED}{text}{_RESET}"
        return text

    @property
    def hidden(self) -> str:
        return "░░" if self.unicode else "##"

    def paint(self, text: str, code: str) -> str:
        return f"{code}{text}{_RESET}" if self.color else text


def status_line(game: Game) -> str:
    left = game.deals_left
    stock = len(game.stock_left)
    removed = " ".join(SUITS[s] for s in game.removed)
    runs = f"Runs {game.runs}/{game.game.runs_to_win}" + (f" ({removed})" if removed else "")
    return (
        f"Stock {_count(stock, 'card')}, {_count(left, 'deal')} left"
        f"   {runs}   Moves {game.moves}   Score {game.score}"
    )


def board(game: Game, style: Style = Style()) -> str:
    """The position as text: a status line, column numbers, then the columns top to bottom."""
    ncols = game.game.columns
    lines = [status_line(game), ""]
    lines.append("".join(f"{c + 1:>4}" for c in range(ncols)))
    height = max((len(col) for col in game.cols), default=0)
    for row in range(max(height, 1)):
        cells = []
        for c in range(ncols):
            col = game.cols[c]
            if row < len(col):
                text = style.hidden if row < game.down[c] else style.card(col[row])
            elif row == 0:
                text = "--"
            else:
                text = "  "
            cells.append("  " + text)
        lines.append("".join(cells).rstrip())
    return "\n".join(lines)


def describe_deal(deal: Setup) -> str:
    suits = f"{deal.suits} suit{'s' * (deal.suits != 1)}"
    if deal.suits == 1:
        rule = "one suit: both move rules alike"
    elif deal.permissive:
        rule = "permissive move rule: any descending group moves"
    else:
        rule = "classic move rule: only one-suit groups move"
    return f"{deal.name} ({deal.game.title}, {suits}, {rule})"


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def _spoken(cards: list[int]) -> str:
    """Face-up cards in words; a one-suit run of three or more as 'the 9 down to the 6 of ...'."""
    parts = []
    i = 0
    while i < len(cards):
        j = i
        while j + 1 < len(cards) and cards[j + 1] == cards[j] - 1:
            j += 1
        if j - i >= 2:
            high = RANK_NAMES[cards[i] & 15]
            parts.append(f"the {high} down to {card_words(cards[j])}")
            i = j + 1
        else:
            parts.append(card_words(cards[i]))
            i += 1
    return ", ".join(parts)


def describe(game: Game) -> str:
    """The position as one plain-text paragraph, for screen readers and for pasting into a
    message: the stock, the runs removed, then each column's face-down count and face-up cards,
    in the words of the apps' own descriptions."""
    stock = len(game.stock_left)
    if game.removed:
        kinds = ", ".join(SUIT_NAMES[s] for s in game.removed)
        runs = f"{_count(game.runs, 'run')} of {game.game.runs_to_win} removed ({kinds})"
    else:
        runs = "no runs removed"
    parts = [f"Stock: {_count(stock, 'card')}, {_count(game.deals_left, 'deal')} left; {runs}."]
    columns = []
    for c in range(game.game.columns):
        down = game.down[c]
        up = game.face_up(c)
        if not game.cols[c]:
            text = "empty"
        elif not up:
            text = f"{down} face-down, no face-up card"
        else:
            text = f"{down} face-down, then " + _spoken(up)
        columns.append(f"column {c + 1}: {text}")
    text = "; ".join(columns)
    parts.append(text[0].upper() + text[1:] + ".")
    if game.moves or game.over:
        parts.append(f"Moves: {game.moves}; score: {game.score}.")
    return " ".join(parts)


def _after(entry: Entry, word: str = "after") -> str:
    return f"{word} entry {entry.index} `{shown(entry.text, 60)}` (line {entry.line})"


def _entry_label(entry: Entry | None) -> str:
    return "Start" if entry is None else _after(entry, "After")


class Snapshots:
    """An observer for ``replay`` that keeps the boards the reader asked to see.

    ``which``: ``every``, ``none``, or a set of entry indices (0 = the start) and the word
    ``final``. The board before each refused entry is always kept (unless ``none``). With
    ``write``, each block is written as it comes (``report_head`` first, ``report_tail`` last)
    instead of kept: a long log's boards never sit in memory all at once.
    """

    def __init__(
        self,
        which: str | set[object],
        style: Style,
        *,
        words: bool = False,
        write: Callable[[str], object] | None = None,
    ) -> None:
        self.which = which
        self.style = style
        self.words = words  # describe each position in words instead of drawing it
        self.blocks: _Blocks = _Blocks(write)
        self._last: tuple[Entry | None, Game] | None = None
        self._last_shown = False
        self._applied = 0  # entries applied so far: the position changes with them only
        self._drawn: tuple[int, str] | None = None  # the last drawing, and at which position

    def show(self, game: Game) -> str:
        """The position drawn (or described); a refused entry changes nothing, so a log with
        many refusals in a row (``--on-illegal skip``) draws the same position once."""
        if self._drawn is not None and self._drawn[0] == self._applied:
            return self._drawn[1]
        text = describe(game) if self.words else board(game, self.style)
        self._drawn = (self._applied, text)
        return text

    def _wanted(self, index: int) -> bool:
        if self.which == "every":
            return True
        if self.which == "none":
            return False
        assert isinstance(self.which, set)
        return index in self.which

    def __call__(self, game: Game, entry: Entry | None, refusal: Refusal | None) -> None:
        if refusal is not None and entry is not None:
            self.blocks.append(_refusal_block(entry, refusal))
            if self.which != "none":
                self.blocks.append(f"Board before entry {entry.index}:\n{self.show(game)}")
                self._last_shown = True
            return
        if entry is not None:
            self._applied += 1
        index = 0 if entry is None else entry.index
        shown = self._wanted(index)
        if shown:
            self.blocks.append(f"{_entry_label(entry)}:\n{self.show(game)}")
        self._last = (entry, game)
        self._last_shown = shown

    def finish(self, game: Game) -> None:
        """Add the final board when asked for and not already shown."""
        if self.which == "none" or self.which == "every":
            return
        assert isinstance(self.which, set)
        if "final" in self.which and not self._last_shown:
            entry = self._last[0] if self._last else None
            label = "Final position" if entry is None else f"Final position, {_after(entry)}"
            self.blocks.append(f"{label}:\n{self.show(game)}")


def _refusal_block(entry: Entry, refusal: Refusal) -> str:
    cards = f"\n         cards: {cards_str(refusal.cards)}" if refusal.cards else ""
    return (
        f"ILLEGAL  entry {entry.index} `{shown(entry.text, 60)}` (line {entry.line}) is refused: "
        f"{refusal.rule}\n         {refusal.message}{cards}"
    )


class _Blocks(list[str]):
    """The blocks of a report: kept, or written at once (each after a blank line)."""

    def __init__(self, write: Callable[[str], object] | None) -> None:
        super().__init__()
        self.write = write

    def append(self, block: str) -> None:
        if self.write is None:
            super().append(block)
        else:
            self.write(f"\n\n{block}")


def report_text(report: Report, snapshots: Snapshots, style: Style = Style()) -> str:
    """The human report: header, the boards asked for, then the verdict and the figures."""
    blocks = "".join(f"\n\n{block}" for block in snapshots.blocks)
    return report_head(report.log, report.rules) + blocks + report_tail(report, style)


def report_head(log: MoveLog, rules: Ruleset) -> str:
    """The report's first lines (no line break after the last)."""
    out = [
        f"Log      {shown_path(log.path)}",
        f"Game     {describe_deal(log.deal)}",
        f"Rules    {rules.name} ({rules.app})",
    ]
    if log.player is not None:
        out.append(f"Player   {shown(log.player)}")
    return "\n".join(out)


def report_tail(report: Report, style: Style = Style()) -> str:
    """The verdict and the figures, after the head and the blocks."""
    log = report.log
    g = report.game
    out = ["", ""]
    total = len(log.entries)
    if report.ok:
        verdict = style.paint("VALID", _GREEN)
        detail = f"all {total} action{'s' * (total != 1)} legal"
        if report.mismatches is not None:
            detail += "; expectations met"
    else:
        verdict = style.paint("INVALID", _BOLD_RED)
        parts = []
        if report.illegal:
            first = report.illegal[0]
            n = len(report.illegal)
            if report.halted:
                parts.append(
                    f"entry {first.entry.index} (line {first.entry.line}) refused "
                    f"({first.refusal.rule}); replay stopped there"
                )
            else:
                parts.append(f"{n} entr{'ies' if n != 1 else 'y'} refused and skipped")
        if report.mismatches:
            parts.append("expectations not met")
        detail = "; ".join(parts)
    out.append(f"Verdict  {verdict}: {detail}")
    out.append(
        f"Result   {report.result}   moves {g.moves}   score {g.score}   "
        f"runs {g.runs}/{g.game.runs_to_win}   deals left {g.deals_left}   "
        f"actions applied {report.actions} of {total}"
    )
    if report.mismatches:
        for m in report.mismatches:
            out.append(f"Expect   {m.key}: expected {m.expected}, got {m.actual}")
    return "\n".join(out) + "\n"


def deal_text(deal: Setup, game: Game, style: Style = Style(), *, words: bool = False) -> str:
    shown = describe(game) if words else board(game, style)
    return f"Game     {describe_deal(deal)}\n\n{shown}\n"


__all__ = [
    "Snapshots",
    "Style",
    "board",
    "deal_text",
    "describe",
    "describe_deal",
    "report_head",
    "report_tail",
    "report_text",
]
