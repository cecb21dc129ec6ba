"""A replay as one self-contained HTML page: the position after every entry of a log, drawn by a
small script from data embedded once, with buttons, a slider, keys and ``#N`` links.

``Recorder`` is a replay visitor (it sees the start, every entry and every refusal);
``replay_page`` turns what it recorded into the page. Nothing here reaches the engine's rules: the
positions are the replay's own. Everything that comes from the log (player, file name, actions,
messages) is escaped: the header by ``html.escape``, the data as JSON with ``<``, ``>`` and ``&``
written as ``\\u`` escapes, and the script only ever sets ``textContent``.

The page makes no network request: its style sheet and script are inline, the cards are drawn
as SVG, and a Content-Security-Policy forbids fetching anything.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import html
import itertools
import json
import os
import re
import string
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from typing import Any

from spidercli.game.cards import SUITS, card_str, cards_str, make_card
from spidercli.game.engine import Game, Refusal
from spidercli.game.rules import GameKind
from spidercli.logs.files import write_atomic
from spidercli.play.logtypes import Entry
from spidercli.play.refusals import sentence
from spidercli.play.replay import ReplayVisitor, Report
from spidercli.report.svg import (
    GEOMETRY,
    STYLE,
    BoardView,
    board_body,
    board_height,
    board_svg,
    board_width,
    column_extent,
    squeezed_extent,
)
from spidercli.report.text import (
    column_words,
    describe,
    describe_deal,
    describe_position,
    moves_words,
    runs_words,
    stock_words,
    verdict,
)
from spidercli.text.i18n import _, language, ngettext
from spidercli.text.messages import said, shown, shown_path
from spidercli.text.words import card_name, result_shown, run_words, suit_word

# Each card as one letter in the page's data: A-M spades (Ace to King), N-Z hearts, a-m
# diamonds, n-z clubs; the page's script reads them the same way.
LETTERS = string.ascii_uppercase + string.ascii_lowercase
CARD_LETTER: dict[int, str] = {
    make_card(rank, suit): LETTERS[suit * 13 + rank - 1]
    for suit in range(4)
    for rank in range(1, 14)
}
LETTER_CARD: dict[str, int] = {letter: card for card, letter in CARD_LETTER.items()}

# Bidirectional controls (embeddings, overrides, isolates) and marks: a name holding one could
# show the text around it reversed. Written as the text report writes them: ``\u202e``.
_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def plain(text: str) -> str:
    """``text`` with its bidirectional controls written as visible escapes (``\\u202e``)."""
    return _BIDI.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


Refused = tuple[str, str, str]  # a refusal in the page: rule ID, sentence, the cards it names


@dataclass(frozen=True)
class Frame:
    """The position after one entry (before it, when the entry was refused)."""

    index: int  # the entry's number, 0 for the start
    line: int  # its line in the YAML file (0 for the start)
    text: str  # its action as the log writes it, made safe to show ("" for the start)
    view: BoardView
    moves: int
    score: int
    words: str  # the ``--describe`` paragraph
    refusal: Refused | None = None

    @property
    def highlight(self) -> frozenset[str]:
        """The cards a refusal names, as text (``TS``)."""
        return frozenset(self.refusal[2].split()) if self.refusal else frozenset()


@dataclass
class _State:
    """A position as the page's data gives it: each column's face-down count and face-up
    cards (letters), the deals left, the suits of the runs removed, whether the game is over,
    and the counters."""

    columns: list[tuple[int, str]]
    deals: int
    removed: str
    over: bool
    moves: int = 0
    score: int = 0
    line: int = 0

    def apply(self, delta: str) -> None:
        """The page script's ``apply``: a step's changes (``Recording`` documents them)."""
        for token in delta.split(";") if delta else ():
            head = token[0]
            if head == "*":
                change = token[1:]
                letters = change.lstrip("-0123456789")
                cut = change[: len(change) - len(letters)]
                for c in range(len(self.columns)):
                    self._change(c, cut + letters[c : c + 1])
            elif head == "k":
                self.deals = int(token[1:])
            elif head == "r":
                self.removed = token[1:]
            elif head == "o":
                self.over = token[1:] == "1"
            else:
                match = _COLUMN_TOKEN.fullmatch(token)
                if match is None:
                    raise ValueError(f"not a step of the page's data: {token!r}")
                self._change(int(match[1]), token[len(match[1]) :])

    def _change(self, c: int, change: str) -> None:
        match = _CHANGE.fullmatch(change)
        assert match is not None, change
        cut, hidden, letters = int(match[1] or 0), int(match[2] or 0), match[3]
        down, up = self.columns[c]
        keep = down + len(up) - cut
        if keep < down:
            down, up = keep, ""
        else:
            up = up[: keep - down]
        self.columns[c] = (down + hidden, up + letters)


_COLUMN_TOKEN = re.compile(r"(\d+)(-\d+)?(\+\d+)?[A-Za-z]*")
_CHANGE = re.compile(r"(?:-(\d+))?(?:\+(\d+))?([A-Za-z]*)")


class Recording:
    """A replay's positions, kept small: the start in full, then one short JSON array a step,
    ``[action, changes, moves, score, line, refusal]`` (each number the change from the step
    before, trailing zeros and an empty change left out; ``refusal`` indexes ``refusals``).

    ``changes`` is a ``;``-separated list of what changed: ``C-R+H`` then letters for column
    ``C`` (0-based): ``R`` cards taken off its top (face-down ones included), then ``H``
    face-down cards put on, then the face-up cards (one letter each, ``CARD_LETTER``) put on;
    ``*`` for the same change on every column, one letter each (a deal: ``*ABCDEFGHIJ``, its
    undo ``*-1``); ``kN`` the deals left, ``rSH`` the suits of the runs removed, ``o1``/``o0``
    whether the game is over. A step that changes nothing has an empty ``changes``.

    A 1 MiB log of a quarter of a million entries makes about 25 bytes of data a step: the
    page's size grows with the log's entries, never with the board's size or a paragraph."""

    def __init__(self) -> None:
        self.steps: list[str] = []  # one JSON array each, ready for the page
        self.refusals: list[Refused] = []
        self._refusal_ids: dict[Refused, int] = {}
        self.first: Frame
        self.last: Frame
        self.kind: GameKind
        self.cards: list[int] = []  # every card of the deal
        self.start: _State
        self.extent = 0  # the tallest column's drawing, over every position
        self.squeezed = 0  # the tallest column's drawing squeezed (svg.squeezed_extent)
        self.max_down = 0  # the most face-down cards in one column, over every position
        self._cols: list[list[int]] = []
        self._down: list[int] = []
        self._now = _State([], 0, "", False)
        self._last_entry: Entry | None = None
        self._last_refusal: Refused | None = None
        self._texts: dict[str, str] = {}  # each action's text as JSON
        self._refusals: dict[Refusal, Refused] = {}  # each refusal said once

    def begin(self, game: Game) -> None:
        self.kind = game.kind
        self._cols = [list(column) for column in game.cols]
        self._down = list(game.down)
        self.start = _State(
            [
                (game.down[c], "".join(CARD_LETTER[x] for x in game.face_up(c)))
                for c in range(game.kind.columns)
            ],
            game.deals_left,
            _removed(game),
            game.over is not None,
            game.moves,
            game.score,
        )
        self._now = _State([], game.deals_left, self.start.removed, self.start.over)
        self._now.moves, self._now.score = game.moves, game.score
        self.extent = BoardView.of(game).extent
        self.squeezed = max(
            squeezed_extent(game.down[c], len(game.cols[c]) - game.down[c])
            for c in range(game.kind.columns)
        )
        self.max_down = max(game.down, default=0)
        self.cards = sorted({x for column in game.cols for x in column} | set(game.stock))
        self.first = _frame(game, None, None)

    def add(self, game: Game, entry: Entry, refusal: Refusal | None) -> None:
        now = self._now
        text = self._texts.get(entry.text)
        if text is None:  # an action's text, as JSON, made once (a log repeats its actions)
            text = self._texts[entry.text] = script_json(shown(entry.text, 60))
        numbers = [game.moves - now.moves, game.score - now.score, entry.line - now.line]
        now.moves, now.score, now.line = game.moves, game.score, entry.line
        changes = self._changes(game)
        refused = None
        if refusal is not None:
            refused = self._refusals.get(refusal)
            if refused is None:
                refused = self._refusals[refusal] = _refused(refusal)
            number = self._refusal_ids.get(refused)
            if number is None:
                number = self._refusal_ids[refused] = len(self.refusals)
                self.refusals.append(refused)
            numbers.append(number)
        else:
            while numbers and not numbers[-1]:
                numbers.pop()
        # [action, changes, moves, score, line, refusal]: the changes are letters, digits and
        # ";*-+" only, so they need no escaping.
        if numbers:
            self.steps.append(f'[{text},"{changes}",{",".join(map(str, numbers))}]')
        else:
            self.steps.append(f'[{text},"{changes}"]' if changes else f"[{text}]")
        self._last_entry, self._last_refusal = entry, refused

    def end(self, game: Game) -> None:
        self.last = _frame(game, self._last_entry, self._last_refusal)

    def _changes(self, game: Game) -> str:
        columns = []
        olds, wases, downs = self._cols, self._down, game.down
        letter = CARD_LETTER.__getitem__
        for c, new in enumerate(game.cols):
            down = downs[c]
            old = olds[c]
            was = wases[c]
            if down == was and new == old:
                continue
            lo, ln = len(old), len(new)
            keep = lo if lo < ln else ln
            if old[:keep] != new[:keep]:
                keep = next(i for i in range(keep) if old[i] != new[i])
            if down != was:
                keep = min(keep, down, was)
                self.max_down = max(self.max_down, down)  # (an undo gives back only the start's)
            hidden = down - keep if down > keep else 0
            letters = "".join(map(letter, new[keep if keep > down else down :]))
            columns.append((c, lo - keep, hidden, letters))
            olds[c] = new[:]
            wases[c] = down
            if ln > lo or down < was:  # only then can the column be taller than before
                up = ln - down
                self.extent = max(self.extent, column_extent(down, up))
                self.squeezed = max(self.squeezed, squeezed_extent(down, up))
        tokens = []
        if len(columns) == len(olds) > 1:
            shapes = {(cut, hidden, len(letters)) for _, cut, hidden, letters in columns}
            if len(shapes) == 1:
                ((cut, hidden, count),) = shapes
                if not hidden and count <= 1:
                    head = f"-{cut}" if cut else ""
                    tokens.append("*" + head + "".join(letters for *_, letters in columns))
                    columns = []
        for c, cut, hidden, letters in columns:
            tokens.append(f"{c}{f'-{cut}' if cut else ''}{f'+{hidden}' if hidden else ''}{letters}")
        now = self._now
        if game.deals_left != now.deals:
            now.deals = game.deals_left
            tokens.append(f"k{now.deals}")
        removed = _removed(game)
        if removed != now.removed:
            now.removed = removed
            tokens.append("r" + removed)
        over = game.over is not None
        if over != now.over:
            now.over = over
            tokens.append(f"o{int(over)}")
        return ";".join(tokens)

    def stock_cards(self, deals: int) -> int:
        """The cards in the stock when ``deals`` deals are left."""
        sizes = self.kind.deal_sizes
        return sum(sizes[len(sizes) - deals :]) if deals else 0

    def frames(self) -> Iterator[Frame]:
        """Every position in order, decoded from the steps as the page's script decodes them
        (``--svg --show N`` draws one of these; the tests compare them with the engine's)."""
        yield self.first
        start = self.start
        state = _State(
            list(start.columns), start.deals, start.removed, start.over, start.moves, start.score
        )
        for index, raw in enumerate(self.steps, 1):
            step = json.loads(raw)
            step += [""] * (2 - len(step)) + [0] * (5 - max(len(step), 2))
            text, delta, moves, score, line = step[:5]
            state.apply(delta)
            state.moves += moves
            state.score += score
            state.line += line
            refusal = self.refusals[step[5]] if len(step) > 5 else None
            yield self._decoded(state, index, text, refusal)

    def _decoded(self, state: _State, index: int, text: str, refusal: Refused | None) -> Frame:
        columns = [(down, [LETTER_CARD[x] for x in up]) for down, up in state.columns]
        stock = self.stock_cards(state.deals)
        view = BoardView(
            columns=tuple((down, tuple(card_str(x) for x in up)) for down, up in columns),
            stock=stock,
            deals_left=state.deals,
            removed=state.removed,
            runs_to_win=self.kind.runs_to_win,
        )
        words = describe_position(
            columns,
            stock=stock,
            deals_left=state.deals,
            removed=[SUITS.index(s) for s in state.removed],
            runs_to_win=self.kind.runs_to_win,
            moves=state.moves,
            score=state.score,
            over=state.over,
        )
        return Frame(index, state.line, text, view, state.moves, state.score, words, refusal)

    def __len__(self) -> int:
        """The positions: the start and one a step."""
        return len(self.steps) + 1


def _removed(game: Game) -> str:
    return "".join(SUITS[s] for s in game.removed)


def _refused(refusal: Refusal) -> Refused:
    message = said(sentence(refusal))
    return (refusal.rule, plain(shown(message, len(message))), cards_str(refusal.cards))


def _frame(game: Game, entry: Entry | None, refusal: Refused | None) -> Frame:
    return Frame(
        0 if entry is None else entry.index,
        0 if entry is None else entry.line,
        "" if entry is None else shown(entry.text, 60),
        BoardView.of(game),
        game.moves,
        game.score,
        describe(game),
        refusal,
    )


class Recorder(ReplayVisitor):
    """A replay visitor keeping every position, small (``Recording``): the start, each
    applied entry, and each refused one (the board before it, with the refusal). ``also``:
    another visitor to show every step to (the text report's)."""

    def __init__(self, also: ReplayVisitor | None = None) -> None:
        self.frames = Recording()
        self.also = also

    def begin(self, game: Game) -> None:
        if self.also is not None:
            self.also.begin(game)
        self.frames.begin(game)

    def applied(self, game: Game, entry: Entry) -> None:
        if self.also is not None:
            self.also.applied(game, entry)
        self.frames.add(game, entry, None)

    def refused(self, game: Game, entry: Entry, refusal: Refusal) -> None:
        if self.also is not None:
            self.also.refused(game, entry, refusal)
        self.frames.add(game, entry, refusal)

    def end(self, game: Game) -> None:
        if self.also is not None:
            self.also.end(game)
        self.frames.end(game)


@functools.cache
def template_text(name: str) -> str:
    """A file of the package's templates, read once per process (a batch writes many pages)."""
    return (resources.files("spidercli.report") / "templates" / name).read_text(encoding="utf-8")


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def csp(style: str, script: str | None) -> str:
    """A Content-Security-Policy that allows this page's own style sheet and script (by their
    hashes) and nothing else: no request of any kind, no other script."""
    scripts = _hash(script) if script is not None else "'none'"
    return (
        f"default-src 'none'; style-src {_hash(style)}; script-src {scripts}; "
        "base-uri 'none'; form-action 'none'"
    )


_SCRIPT_UNSAFE = re.compile("[<>&\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def script_json(obj: object) -> str:
    """JSON that is safe inside ``<script>``: no ``</script>``, ``<!--`` or ``&`` can appear."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    return _SCRIPT_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _facts(rows: list[tuple[str, str, str]]) -> str:
    """``<dl>`` rows of (label, value, class); values escaped here."""
    out = []
    for label, value, cls in rows:
        attr = f' class="{cls}"' if cls else ""
        out.append(f"<div{attr}><dt>{label}</dt><dd>{html.escape(plain(value))}</dd></div>")
    return "".join(out)


_SLOT = re.compile(r"\{\{(\w+)\}\}")


def fill(template: str, values: dict[str, str]) -> str:
    """The template with each ``{{name}}`` replaced, in one pass: a value that itself contains
    ``{{...}}`` (a hostile file name) is never expanded."""
    return _SLOT.sub(lambda m: values[m.group(1)], template)


def page_name(path: str) -> str:
    """A file name for ``path``'s page that no other path shares: the log's name, made safe, and
    a hash of the whole path (``b-illegal-1a2b3c4d.html``)."""
    stem = path.replace("\\", "/").rsplit("/", 1)[-1]
    stem = re.sub(r"\.(ya?ml)$", "", stem, flags=re.IGNORECASE)
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", stem).strip(".-")[:60] or "log"
    digest = hashlib.sha256(path.encode("utf-8", "surrogateescape")).hexdigest()[:10]
    return f"{stem}-{digest}.html"


def replay_page(report: Report, frames: Recording) -> str:
    """The page for a replay whose visitor was a ``Recorder`` (``frames``: its recording)."""
    log = report.log
    ok, detail = verdict(report)
    g = report.game
    first, last = frames.first, frames.last
    moves = ngettext("{n} move", "{n} moves", g.moves).format(n=g.moves)
    said_result = result_shown(report.result)  # kesken (open); in English: open
    result = _("{result}: {moves}, score {score}, runs {runs}/{total}").format(
        result=said_result, moves=moves, score=g.score, runs=g.runs, total=g.kind.runs_to_win
    )
    player = shown(log.player) if log.player is not None else _("(not named)")
    word = _("VALID") if ok else _("INVALID")
    facts = _facts(
        [
            (_("Game"), describe_deal(log.deal), ""),
            (_("Deal id"), log.deal.deal_id, "mono"),
            (_("Rules"), f"{report.rules} ({said(report.ruleset.app)})", ""),
            (_("Player"), player, ""),
            (_("Result"), result, ""),
            (_("Verdict"), f"{word}: {detail}", "ok" if ok else "bad"),
        ]
        + [
            (
                _("Expected"),
                _("{key} {expected}, got {actual}").format(
                    key=m.key, expected=m.expected, actual=m.actual
                ),
                "bad",
            )
            for m in report.mismatches or []
        ]
    )
    ncols = len(first.view.columns)
    width = board_width(ncols)
    height = board_height(frames.extent)
    data = {
        "geometry": GEOMETRY,
        "width": width,
        "height": height,
        "extent": frames.extent,
        "squeezed": frames.squeezed,
        "runsToWin": g.kind.runs_to_win,
        "start": _start_json(frames.start),
        "refusals": frames.refusals,
        "text": {
            "start": _("Start position"),
            "entry": _("Entry {n}: "),
            "after": _("After entry {n}: "),
            "line": _(" (line {n})"),
            "refused": _("Refused, {rule}: "),
            "note": _("The board is the position before this entry."),
            "noteCards": _(
                "The board is the position before this entry; "
                "the cards the rule names are outlined in red."
            ),
        },
        "stock": [_stock(frames.stock_cards(d), d) for d in range(len(g.kind.deal_sizes) + 1)],
        "words": _words(frames),
    }
    title = _("{name} - spidercli replay").format(name=plain(said(log.deal.name)))
    style = template_text("replay.css") + STYLE
    script = template_text("replay.js")
    board = (
        f'<svg id="board" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" preserveAspectRatio="xMidYMin meet" '
        'aria-hidden="true" focusable="false">'
        f"{board_body(first.view)}</svg>"
    )
    # The steps are JSON already (made safe for <script> as they were recorded): joined once
    # into the data, never parsed and written again.
    head = script_json(data)
    steps = head[:-1] + ',"frames":[' + ",".join(frames.steps) + "]}"
    return fill(
        template_text("replay.html"),
        {
            "title": html.escape(title),
            "heading": html.escape(_("{name}: replay").format(name=plain(said(log.deal.name)))),
            "file": html.escape(shown_path(log.path)),
            "facts": facts,
            "last": str(last.index),
            "board": board,
            "words": html.escape(first.words),
            "stock": html.escape(_stock(first.view.stock, first.view.deals_left)),
            "lang": language(),
            **_labels(),
            "csp": csp(style, script),
            "style": style,
            "data": steps,
            "script": script,
        },
    )


def _start_json(state: _State) -> dict[str, Any]:
    return {
        "c": [list(column) for column in state.columns],
        "k": state.deals,
        "r": state.removed,
        "o": int(state.over),
        "m": state.moves,
        "s": state.score,
    }


def _words(frames: Recording) -> dict[str, Any]:
    """What the page's script needs to say a position in words exactly as ``describe`` does:
    the paragraph's phrases in the page's language, made by ``render``'s own functions with
    ``{placeholders}`` where the script puts numbers and card words, and the words of every
    card and one-suit run the deal can show (``spidercli.text.words``)."""
    kind = frames.kind
    total = kind.runs_to_win
    cards = frames.cards
    suits = sorted({x >> 4 for x in cards})
    runs = {}
    for suit in suits:
        for high in range(3, 14):
            for low in range(1, high - 1):
                key = CARD_LETTER[make_card(high, suit)] + CARD_LETTER[make_card(low, suit)]
                runs[key] = run_words(make_card(high, suit), make_card(low, suit))
    downs = range(frames.max_down + 1)
    return {
        "stock": [
            stock_words(frames.stock_cards(d), d, "{runs}") for d in range(len(kind.deal_sizes) + 1)
        ],
        "runs": [runs_words(n, total, "{kinds}") for n in range(total + 1)],
        "suits": {SUITS[s]: suit_word(s) for s in range(4)},
        "empty": column_words("{column}", 0, None),
        "down": [column_words("{column}", d, None) for d in downs],
        "up": [column_words("{column}", d, "{cards}") for d in downs],
        "moves": moves_words("{moves}", "{score}"),
        "card": {CARD_LETTER[x]: card_name(x) for x in cards},
        "run": runs,
    }


def _stock(cards: int, deals: int) -> str:
    """The stock counter: '24 cards, 4 deals left'."""
    return _("{cards}, {deals}").format(
        cards=ngettext("{n} card", "{n} cards", cards).format(n=cards),
        deals=ngettext("{n} deal left", "{n} deals left", deals).format(n=deals),
    )


def _labels() -> dict[str, str]:
    """The replay page's fixed words (``{{t_...}}`` slots), escaped."""
    labels = {
        "t_log": _("Move log"),
        "t_steps": _("Step through the game"),
        "t_first": _("First position"),
        "t_first_key": _("First position (Home)"),
        "t_prev": _("Previous entry"),
        "t_prev_key": _("Previous entry (Left arrow)"),
        "t_next": _("Next entry"),
        "t_next_key": _("Next entry (Right arrow)"),
        "t_last": _("Last position"),
        "t_last_key": _("Last position (End)"),
        "t_play": _("Play"),
        "t_pause": _("Pause"),
        "t_play_key": _("Play the game, an entry a second (Space)"),
        "t_entry": _("Entry"),
        "t_moves": _("Moves"),
        "t_score": _("Score"),
        "t_runs": _("Runs"),
        "t_stock": _("Stock"),
        "t_start": _("Start position"),
        "t_noscript": _(
            "This page needs JavaScript to step through the game; it shows the start position."
        ),
    }
    out = {key: html.escape(text) for key, text in labels.items()}
    # The footer's key names and address are markup.
    out["t_footer"] = _(
        "Made by spidercli. Keys: &#x2190; &#x2192; step, Home and End jump; "
        "the address ends in <code>#N</code> for entry N."
    )
    return out


def error_page(path: str, message: str, line: int | None) -> str:
    """The page for a log that could not be replayed at all (unreadable, not a log)."""
    where = _("line {line}: ").format(line=line) if line is not None else ""
    verdict = _("INVALID INPUT: {where}{message}").format(where=where, message=said(message))
    name = shown_path(path)
    facts = _facts([(_("File"), name, "mono"), (_("Verdict"), verdict, "bad")])
    intro = _("Move log {file}: it could not be replayed.").format(
        file=f"<code>{html.escape(name)}</code>"
    )
    style = template_text("replay.css")
    return fill(
        template_text("error.html"),
        {
            "lang": language(),
            "title": html.escape(f"{name} - spidercli"),
            "intro": intro,
            "facts": facts,
            "csp": csp(style, None),
            "style": style,
        },
    )


def frame_svg(frame: Frame, name: str) -> str:
    """One recorded position as an SVG file (``replay --svg``), the refused cards marked."""
    if frame.index == 0:
        where = _("start")
    else:
        if frame.refusal is not None:
            where = _("before refused entry {index} `{text}` (line {line})")
        else:
            where = _("after entry {index} `{text}` (line {line})")
        where = where.format(index=frame.index, text=frame.text, line=frame.line)
    return board_svg(
        frame.view,
        title=f"{said(name)}, {where}",
        description=frame.words,
        highlight=frame.highlight,
    )


def pick_frame(frames: Recording, which: object, halted: bool) -> Frame:
    """The frame ``--show`` names: an entry number or ``final``; ``ValueError`` if there is none
    (``halted``: the replay stopped at its last frame's refused entry)."""
    last = frames.last
    if which == "final":
        return last
    if isinstance(which, int) and 0 <= which < len(frames):
        if which == last.index:
            return last
        return next(itertools.islice(frames.frames(), which, None))
    if halted:
        raise ValueError(
            f"--show {which}: the replay stopped at entry {last.index} (refused); "
            f"there is no position after it"
        )
    raise ValueError(f"--show {which}: the log has only {last.index} entries")


def write_page(directory: str, path: str, text: str) -> str | None:
    """Write ``path``'s page into ``directory``; its file name, or None if it cannot be written
    (the index then lists the log without a link)."""
    name = page_name(path)
    try:
        write_atomic(os.path.join(directory, name), text)
    except OSError:
        return None
    return name


__all__ = [
    "Frame",
    "Recorder",
    "error_page",
    "fill",
    "frame_svg",
    "page_name",
    "pick_frame",
    "replay_page",
    "script_json",
    "template_text",
    "write_page",
]
