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
import json
import os
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

from spidercli.cards import cards_str
from spidercli.engine import Game, Refusal
from spidercli.files import write_atomic
from spidercli.i18n import _, language, ngettext
from spidercli.logtypes import Entry
from spidercli.messages import said
from spidercli.refusals import sentence
from spidercli.render import describe, describe_deal, verdict
from spidercli.replay import ReplayVisitor, Report
from spidercli.svg import (
    GEOMETRY,
    STYLE,
    BoardView,
    board_body,
    board_height,
    board_svg,
    board_width,
)
from spidercli.words import result_shown


@dataclass(frozen=True)
class Frame:
    """The position after one entry (before it, when the entry was refused)."""

    entry: Entry | None  # None: the start
    view: BoardView
    moves: int
    score: int
    runs: int
    words: str  # the ``--describe`` paragraph
    refusal: Refusal | None
    said: str = ""  # the refusal's sentence in the page's language

    @property
    def index(self) -> int:
        return 0 if self.entry is None else self.entry.index

    @property
    def highlight(self) -> frozenset[str]:
        """The cards a refusal names, as text (``TS``)."""
        return frozenset(cards_str(self.refusal.cards).split()) if self.refusal else frozenset()

    def to_json(self) -> dict[str, Any]:
        """Compact keys; the page's script documents them."""
        e = self.entry
        v = self.view
        data: dict[str, Any] = {
            "e": self.index,
            "l": 0 if e is None else e.line,
            "a": "" if e is None else e.text,
            "m": self.moves,
            "s": self.score,
            "r": self.runs,
            "k": v.stock,
            "d": v.deals_left,
            "x": v.removed,
            "c": [[down, "".join(up)] for down, up in v.columns],
            "t": self.words,
        }
        if self.refusal is not None:
            r = self.refusal
            data["f"] = [r.rule, self.said, cards_str(r.cards)]
        return data


class Recorder(ReplayVisitor):
    """A replay visitor keeping a ``Frame`` per entry: the start, each applied entry, and each
    refused one (the board before it, with the refusal). ``also``: another visitor to show
    every step to (the text report's)."""

    def __init__(self, also: ReplayVisitor | None = None) -> None:
        self.frames: list[Frame] = []
        self.also = also

    def begin(self, game: Game) -> None:
        if self.also is not None:
            self.also.begin(game)
        self._frame(game, None, None)

    def applied(self, game: Game, entry: Entry) -> None:
        if self.also is not None:
            self.also.applied(game, entry)
        self._frame(game, entry, None)

    def refused(self, game: Game, entry: Entry, refusal: Refusal) -> None:
        if self.also is not None:
            self.also.refused(game, entry, refusal)
        self._frame(game, entry, refusal)

    def end(self, game: Game) -> None:
        if self.also is not None:
            self.also.end(game)

    def _frame(self, game: Game, entry: Entry | None, refusal: Refusal | None) -> None:
        self.frames.append(
            Frame(
                entry,
                BoardView.of(game),
                game.moves,
                game.score,
                game.runs,
                describe(game),
                refusal,
                "" if refusal is None else said(sentence(refusal)),
            )
        )


@functools.cache
def _template(name: str) -> str:
    """A file of the package's templates, read once per process (a batch writes many pages)."""
    return (resources.files("spidercli") / "templates" / name).read_text(encoding="utf-8")


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


_SCRIPT_UNSAFE = re.compile(r"[<>&\u2028\u2029]")


def script_json(obj: object) -> str:
    """JSON that is safe inside ``<script>``: no ``</script>``, ``<!--`` or ``&`` can appear."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    return _SCRIPT_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _facts(rows: list[tuple[str, str, str]]) -> str:
    """``<dl>`` rows of (label, value, class); values escaped here."""
    out = []
    for label, value, cls in rows:
        attr = f' class="{cls}"' if cls else ""
        out.append(f"<div{attr}><dt>{label}</dt><dd>{html.escape(value)}</dd></div>")
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


def replay_page(report: Report, frames: list[Frame]) -> str:
    """The page for a replay whose visitor was a ``Recorder``."""
    log = report.log
    ok, detail = verdict(report)
    g = report.game
    last = frames[-1]
    moves = ngettext("{n} move", "{n} moves", g.moves).format(n=g.moves)
    said_result = result_shown(report.result)  # kesken (open); in English: open
    result = _("{result}: {moves}, score {score}, runs {runs}/{total}").format(
        result=said_result, moves=moves, score=g.score, runs=g.runs, total=g.kind.runs_to_win
    )
    player = log.player if log.player is not None else _("(not named)")
    word = _("VALID") if ok else _("INVALID")
    facts = _facts(
        [
            (_("Game"), describe_deal(log.deal), ""),
            (_("Deal id"), log.deal.deal_id, "mono"),
            (_("Rules"), f"{report.rules.name} ({said(report.rules.app)})", ""),
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
    ncols = len(last.view.columns)
    width = board_width(ncols)
    height = board_height(max(f.view.extent for f in frames))
    data = {
        "geometry": GEOMETRY,
        "width": width,
        "height": height,
        "runsToWin": g.kind.runs_to_win,
        "frames": [f.to_json() for f in frames],
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
        "stock": [_stock(f.view.stock, f.view.deals_left) for f in frames],
    }
    first = frames[0]
    title = _("{name} - spidercli replay").format(name=said(log.deal.name))
    style = _template("replay.css") + STYLE
    script = _template("replay.js")
    board = (
        f'<svg id="board" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" aria-hidden="true" focusable="false">'
        f"{board_body(first.view)}</svg>"
    )
    return fill(
        _template("replay.html"),
        {
            "title": html.escape(title),
            "heading": html.escape(_("{name}: replay").format(name=said(log.deal.name))),
            "file": html.escape(log.path),
            "facts": facts,
            "last": str(last.index),
            "board": board,
            "words": html.escape(first.words),
            "stock": html.escape(_stock(first.view.stock, first.view.deals_left)),
            "lang": language(),
            **_labels(),
            "csp": csp(style, script),
            "style": style,
            "data": script_json(data),
            "script": script,
        },
    )


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
    facts = _facts([(_("File"), path, "mono"), (_("Verdict"), verdict, "bad")])
    intro = _("Move log {file}: it could not be replayed.").format(
        file=f"<code>{html.escape(path)}</code>"
    )
    style = _template("replay.css")
    return fill(
        _template("error.html"),
        {
            "lang": language(),
            "title": html.escape(f"{path} - spidercli"),
            "intro": intro,
            "facts": facts,
            "csp": csp(style, None),
            "style": style,
        },
    )


def frame_svg(frame: Frame, name: str) -> str:
    """One recorded position as an SVG file (``replay --svg``), the refused cards marked."""
    entry = frame.entry
    if entry is None:
        where = _("start")
    else:
        if frame.refusal is not None:
            where = _("before refused entry {index} `{text}` (line {line})")
        else:
            where = _("after entry {index} `{text}` (line {line})")
        where = where.format(index=entry.index, text=entry.text, line=entry.line)
    return board_svg(
        frame.view,
        title=f"{said(name)}, {where}",
        description=frame.words,
        highlight=frame.highlight,
    )


def pick_frame(frames: list[Frame], which: object, halted: bool) -> Frame:
    """The frame ``--show`` names: an entry number or ``final``; ``ValueError`` if there is none
    (``halted``: the replay stopped at its last frame's refused entry)."""
    if which == "final":
        return frames[-1]
    for frame in frames:
        if frame.index == which:
            return frame
    last = frames[-1]
    if halted:
        raise ValueError(
            f"--show {which}: the replay stopped at entry {last.index} (refused); "
            f"there is no position after it"
        )
    raise ValueError(f"--show {which}: the log has only {last.index} entries")


class PageIndex:
    """``index.html`` of a folder of pages (``verify --html-dir``): a row per non-valid log, in
    the order the verdicts come; ``close`` writes the page atomically."""

    def __init__(self, directory: str) -> None:
        self.directory = directory
        self.rows: list[str] = []

    def add(self, path: str, status: str, message: str, page: str | None) -> None:
        name = html.escape(path)
        link = f'<a href="{html.escape(page)}">{name}</a>' if page else name
        self.rows.append(
            f'<tr><td class="mono">{link}</td><td class="status">{html.escape(status)}</td>'
            f"<td>{html.escape(message)}</td></tr>\n"
        )

    def close(self, summary: str) -> None:
        style = _template("replay.css")
        body = (
            "<table><thead><tr><th>Log</th><th>Status</th><th>Why</th></tr></thead>"
            f"<tbody>\n{''.join(self.rows)}</tbody></table>"
            if self.rows
            else "<p>Every log is valid: no page to show.</p>"
        )
        write_atomic(
            os.path.join(self.directory, "index.html"),
            fill(
                _template("index.html"),
                {
                    "csp": csp(style, None),
                    "style": style,
                    "summary": html.escape(summary),
                    "body": body,
                },
            ),
        )


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
    "PageIndex",
    "Recorder",
    "error_page",
    "fill",
    "frame_svg",
    "page_name",
    "pick_frame",
    "replay_page",
    "script_json",
    "write_page",
]
