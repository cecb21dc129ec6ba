"""Text output: ASCII (or Unicode) boards and the human replay report.

Plain ASCII by default: face-down cards are ``##``, columns are numbered, and the line above the
board gives the stock, deals left, runs removed, moves and score. Colour (red hearts and diamonds,
a coloured verdict) only when the caller says the output is a terminal.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from spidercli.game.cards import RANKS, SUIT_SYMBOLS, SUITS, cards_str
from spidercli.game.codes import Setup
from spidercli.game.engine import Game, Refusal
from spidercli.game.rules import Ruleset
from spidercli.play.logtypes import Entry, MoveLog
from spidercli.play.refusals import sentence
from spidercli.play.replay import ReplayVisitor, Report
from spidercli.text.i18n import _, ngettext
from spidercli.text.messages import said, shown, shown_path
from spidercli.text.words import card_name, result_shown, run_words, suit_word

_RED = "\x1b[31m"
_GREEN = "\x1b[32m"
_BOLD_RED = "\x1b[1;31m"
_RESET = "\x1b[0m"

WIDTH = 80  # the text report fits an 80-column terminal
_INDENT = 9  # "Verdict  ", "Result   ": labels and their hanging indent


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
    runs = _("Runs {runs}/{total}").format(runs=game.runs, total=game.kind.runs_to_win)
    runs += f" ({removed})" if removed else ""
    cards = ngettext("Stock {n} card", "Stock {n} cards", stock).format(n=stock)
    deals = ngettext("{n} deal left", "{n} deals left", left).format(n=left)
    parts = [_("{cards}, {deals}").format(cards=cards, deals=deals), runs]
    figures = _("Moves {moves}  Score {score}").format(moves=game.moves, score=game.score)
    line = "  ".join([*parts, figures])
    return line if len(line) <= WIDTH else "  ".join(parts) + "\n" + figures


_GLUE = "\x1f"  # a space that ``field`` never breaks at


def unit(text: str) -> str:
    """``text`` kept on one line by ``field`` (its spaces are not break points)."""
    return text.replace(" ", _GLUE)


def field(label: str, text: str) -> str:
    """``label`` then ``text``, wrapped to 80 columns under a 9-column hanging indent."""
    return textwrap.fill(
        text,
        width=WIDTH,
        initial_indent=f"{label:<{_INDENT}}",
        subsequent_indent=" " * _INDENT,
        break_on_hyphens=False,
    ).replace(_GLUE, " ")


def text_width(env: Mapping[str, str] | None = None) -> int:
    """The width ``verify``'s table and ``tournament``'s report wrap to: ``COLUMNS`` when it is a
    whole number of 40 or more (``COLUMNS=100``: 100), else ``WIDTH`` (80), the replay report's."""
    value = (os.environ if env is None else env).get("COLUMNS", "")
    if value.isascii() and value.isdigit() and 40 <= int(value) <= 10_000:
        return int(value)
    return WIDTH


def hanging(head: str, text: str, indent: int, width: int) -> str:
    """``head`` then ``text`` wrapped to ``width`` columns, each line after the first indented
    by ``indent``; a word longer than a line (a long path) stays whole, on a line of its own."""
    return textwrap.fill(
        text,
        width=width,
        initial_indent=head,
        subsequent_indent=" " * indent,
        break_long_words=False,
        break_on_hyphens=False,
    )


def board(game: Game, style: Style = Style()) -> str:
    """The position as text: a status line, column numbers, then the columns top to bottom."""
    ncols = game.kind.columns
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
    suits = ngettext("{n} suit", "{n} suits", deal.suits).format(n=deal.suits)
    if deal.suits == 1:
        rule = _("one suit: both move rules alike")
    elif deal.permissive:
        rule = _("permissive move rule: any descending group moves")
    else:
        rule = _("classic move rule: only one-suit groups move")
    return f"{said(deal.name)} ({deal.game.title}, {suits}, {rule})"


def _spoken(cards: list[int]) -> str:
    """Face-up cards in words; a one-suit run of three or more as 'the 9 down to the 6 of ...'."""
    parts = []
    i = 0
    while i < len(cards):
        j = i
        while j + 1 < len(cards) and cards[j + 1] == cards[j] - 1:
            j += 1
        if j - i >= 2:
            parts.append(run_words(cards[i], cards[j]))
            i = j + 1
        else:
            parts.append(card_name(cards[i]))
            i += 1
    return ", ".join(parts)


def describe(game: Game) -> str:
    """The position as one plain-text paragraph, for screen readers and for pasting into a
    message: the stock, the runs removed, then each column's face-down count and face-up cards,
    in the words of the apps' own descriptions (in the language in use)."""
    return describe_position(
        [(game.down[c], game.face_up(c)) for c in range(game.kind.columns)],
        stock=len(game.stock_left),
        deals_left=game.deals_left,
        removed=game.removed,
        runs_to_win=game.kind.runs_to_win,
        moves=game.moves,
        score=game.score,
        over=game.over is not None,
    )


def describe_position(
    columns: Sequence[tuple[int, Sequence[int]]],
    *,
    stock: int,
    deals_left: int,
    removed: Sequence[int],
    runs_to_win: int,
    moves: int,
    score: int,
    over: bool,
) -> str:
    """``describe`` from the position's parts: each column's face-down count and face-up
    cards, the stock's cards and deals left, the suits of the runs removed. The HTML page's
    script says the same paragraph from the phrases below (``stock_words``, ``runs_words``,
    ``column_words``, ``moves_words``), made with placeholders; a test compares the two."""
    if removed:
        runs = runs_words(len(removed), runs_to_win, ", ".join(suit_word(s) for s in removed))
    else:
        runs = runs_words(0, runs_to_win, "")
    parts = [stock_words(stock, deals_left, runs)]
    text = "; ".join(
        column_words(c + 1, down, _spoken(list(up)) if up else None)
        for c, (down, up) in enumerate(columns)
    )
    parts.append(text[0].upper() + text[1:] + ".")
    if moves or over:
        parts.append(moves_words(moves, score))
    return " ".join(parts)


def runs_words(n: int, total: int, kinds: str) -> str:
    """The runs removed: ``n`` of ``total`` with their ``kinds``, or ``no runs removed``."""
    if n:
        return ngettext(
            "{n} of {total} runs removed ({kinds})",
            "{n} of {total} runs removed ({kinds})",
            n,
        ).format(n=n, total=total, kinds=kinds)
    return _("no runs removed")


def stock_words(stock: int, deals_left: int, runs: str) -> str:
    """The paragraph's first sentence: the stock and ``runs`` (``runs_words``)."""
    cards = ngettext("{n} card", "{n} cards", stock).format(n=stock)
    deals = ngettext("{n} deal left", "{n} deals left", deals_left).format(n=deals_left)
    return _("Stock: {cards}, {deals}; {runs}.").format(cards=cards, deals=deals, runs=runs)


def column_words(column: int | str, down: int, cards: str | None) -> str:
    """One column: ``down`` face-down cards, then the face-up ``cards`` in words (None: no
    face-up card)."""
    if cards is None:
        if not down:
            return _("column {column}: empty").format(column=column)
        return _("column {column}: {down} face-down, no face-up card").format(
            column=column, down=down
        )
    if not down:  # only what is there: no "0 face-down" (the Czech app says it, so cs too)
        return _("column {column}: {cards}").format(column=column, cards=cards)
    return _("column {column}: {down} face-down, then {cards}").format(
        column=column, down=down, cards=cards
    )


def moves_words(moves: int | str, score: int | str) -> str:
    """The paragraph's last sentence, once a move is made or the game is over."""
    return _("Moves: {moves}; score: {score}.").format(moves=moves, score=score)


def _after(entry: Entry, capital: bool = False) -> str:
    if capital:
        text = _("After entry {index} `{text}` (line {line})")
    else:
        text = _("after entry {index} `{text}` (line {line})")
    return text.format(index=entry.index, text=shown(entry.text, 60), line=entry.line)


def _entry_label(entry: Entry | None) -> str:
    return _("Start") if entry is None else _after(entry, capital=True)


class Snapshots(ReplayVisitor):
    """A ``replay`` visitor that keeps the boards the reader asked to see.

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

    def begin(self, game: Game) -> None:
        self._position(game, None)

    def applied(self, game: Game, entry: Entry) -> None:
        self._applied += 1
        self._position(game, entry)

    def refused(self, game: Game, entry: Entry, refusal: Refusal) -> None:
        self.blocks.append(_refusal_block(entry, refusal))
        if self.which != "none":
            label = _("Board before entry {index}:").format(index=entry.index)
            self.blocks.append(f"{label}\n{self.show(game)}")
            self._last_shown = True

    def _position(self, game: Game, entry: Entry | None) -> None:
        index = 0 if entry is None else entry.index
        shown = self._wanted(index)
        if shown:
            self.blocks.append(f"{_entry_label(entry)}:\n{self.show(game)}")
        self._last = (entry, game)
        self._last_shown = shown

    def end(self, game: Game) -> None:
        """Add the final board when asked for and not already shown."""
        if self.which == "none" or self.which == "every":
            return
        assert isinstance(self.which, set)
        if "final" in self.which and not self._last_shown:
            entry = self._last[0] if self._last else None
            if entry is None:
                label = _("Final position")
            else:
                label = _("Final position, {after}").format(after=_after(entry))
            self.blocks.append(f"{label}:\n{self.show(game)}")


def _refusal_block(entry: Entry, refusal: Refusal) -> str:
    """The refused entry, the rule's sentence (``refusals``) and the cards."""
    head = _("entry {index} `{text}` (line {line}) is refused: {rule}").format(
        index=entry.index, text=shown(entry.text, 60), line=entry.line, rule=refusal.rule
    )
    message = said(sentence(refusal))
    lines = [field(_("ILLEGAL"), head), field("", message)]
    if refusal.cards:
        cards = _("cards: {cards}").format(cards=cards_str(refusal.cards))
        lines.append(field("", cards))
    return "\n".join(lines)


def _rules_text(rules: Ruleset) -> str:
    """The ruleset's description, each scoring item kept on one line when wrapped."""
    scoring = ", ".join(unit(said(part)) for part in rules.scoring_parts())
    return f"{rules.name}: {said(rules.app)}, {scoring}"


def verdict(report: Report) -> tuple[bool, str]:
    """Whether the log is valid, and the verdict's reason in words (the text report's and the
    HTML page's)."""
    total = len(report.log.entries)
    if report.ok:
        detail = ngettext("all {n} action legal", "all {n} actions legal", total).format(n=total)
        if report.mismatches is not None:
            detail += _("; expectations met")
        return True, detail
    parts = []
    if report.illegal:
        first = report.illegal[0]
        n = len(report.illegal)
        if report.halted:
            parts.append(
                _("entry {index} (line {line}) refused ({rule}); {stopped}").format(
                    index=first.entry.index,
                    line=first.entry.line,
                    rule=first.refusal.rule,
                    stopped=_("replay stopped there"),
                )
            )
        else:
            parts.append(
                ngettext(
                    "{n} entry refused and skipped", "{n} entries refused and skipped", n
                ).format(n=n)
            )
    if report.mismatches:
        parts.append(_("expectations not met"))
    return False, "; ".join(parts)


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
    return report_head(report.log, report.ruleset) + blocks + report_tail(report, style)


def report_head(log: MoveLog, rules: Ruleset) -> str:
    """The report's first lines (no line break after the last)."""
    out = [
        field(_("Log"), shown_path(log.path)),
        field(_("Game"), describe_deal(log.deal)),
        field(_("Rules"), _rules_text(rules)),
    ]
    if log.player is not None:
        out.append(field(_("Player"), shown(log.player)))
    return "\n".join(out)


def report_tail(report: Report, style: Style = Style()) -> str:
    """The verdict and the figures, after the head and the blocks."""
    log = report.log
    g = report.game
    out = ["", ""]
    total = len(log.entries)
    ok, detail = verdict(report)
    word, paint = (_("VALID"), _GREEN) if ok else (_("INVALID"), _BOLD_RED)
    stopped = _("replay stopped there")
    detail = detail.replace(stopped, unit(stopped))
    line = field(_("Verdict"), f"{word}: {detail}")
    out.append(line.replace(word, style.paint(word, paint), 1))  # wrapped before painting
    out.append(
        field(
            _("Result"),
            "  ".join(
                unit(part)
                for part in (
                    result_shown(report.result),
                    _("moves {n}").format(n=g.moves),
                    _("score {n}").format(n=g.score),
                    _("runs {runs}/{total}").format(runs=g.runs, total=g.kind.runs_to_win),
                    _("deals left {n}").format(n=g.deals_left),
                    _("actions applied {n} of {total}").format(n=report.actions, total=total),
                )
            ),
        )
    )
    if report.mismatches:
        for m in report.mismatches:
            expect = _("{key}: expected {expected}, got {actual}").format(
                key=m.key, expected=m.expected, actual=m.actual
            )
            out.append(field(_("Expect"), expect))
    return "\n".join(out) + "\n"


def deal_text(deal: Setup, game: Game, style: Style = Style(), *, words: bool = False) -> str:
    shown = describe(game) if words else board(game, style)
    return f"{field(_('Game'), describe_deal(deal))}\n\n{shown}\n"


__all__ = [
    "Snapshots",
    "Style",
    "board",
    "column_words",
    "deal_text",
    "describe",
    "describe_deal",
    "describe_position",
    "hanging",
    "moves_words",
    "report_head",
    "report_tail",
    "report_text",
    "runs_words",
    "stock_words",
    "text_width",
    "verdict",
]
