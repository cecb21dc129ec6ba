"""The terminal: whether to colour, whether ``--unicode``'s cards can be written, and the progress
shown while a command works.

Progress (verify's bar, solve's live line, drawn by ``rich`` on a stderr console; sweep's line)
goes to stderr only, and only when stderr is a terminal: a pipe or a file never receives it, and
stdout stays clean for the results. It fits the terminal's width (60 columns and up are kept
tidy).

Colour follows the usual conventions: an explicit ``--color/--no-color`` wins; otherwise a
non-empty ``NO_COLOR`` turns it off, a non-empty ``FORCE_COLOR`` turns it on, and else it is on
only for a terminal whose ``TERM`` is not ``dumb``. ``rich`` reads the same two variables for
the progress display.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any

from spidercli.game.cards import SUIT_SYMBOLS
from spidercli.text.i18n import _

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress
    from rich.text import Text

    from spidercli.sweeps.records import SweepTally


def color_wanted(flag: bool | None, stream: IO[str]) -> bool:
    """Colour for ``stream``: the flag when given, else ``NO_COLOR``, ``FORCE_COLOR``, a tty."""
    if flag is not None:
        return flag
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return stream.isatty() and os.environ.get("TERM") != "dumb"


UNICODE_CARDS = SUIT_SYMBOLS + "░"  # what --unicode draws beyond ASCII: suits, face-down cards


def unicode_wanted(flag: bool, stream: IO[str], note: IO[str]) -> bool:
    """``--unicode`` (``flag``) when ``stream``'s encoding can write the suit symbols and the
    face-down cards; otherwise the ASCII cards (False), said in one line on ``note`` (stderr),
    rather than escapes such as ``\\u2591`` in a latin-1 or ASCII output."""
    if not flag:
        return False
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        UNICODE_CARDS.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        said = _(
            "--unicode: standard output's encoding ({encoding}) cannot write the suit symbols; "
            "the cards are drawn in ASCII"
        ).format(encoding=encoding)
        print(f"spidercli: note: {said}", file=note)
        return False
    return True


def stderr_console(stream: IO[str] | None = None, width: int | None = None) -> Console:
    """A ``rich`` console on stderr (or ``stream``, for tests)."""
    # rich, when something is drawn: a command's start-up never pays for it
    from rich.console import Console

    if stream is None:
        return Console(stderr=True, highlight=False)
    return Console(file=stream, width=width, force_terminal=True, highlight=False)


def verify_bar(total: int, console: Console, *, stdout_is_terminal: bool = False) -> Progress:
    """verify's bar: ``verifying ━━━━━━━━━━━━ 12/40 0:00:03``, the bar taking what the terminal
    leaves; it disappears when done. Results written to stdout meanwhile are printed above the
    bar when stdout is the same kind of terminal; otherwise (stdout a pipe or a file) stdout is
    left alone, so that no result ever goes to stderr.

    The bar has no thread of its own (rich's refreshing thread): it is drawn by the thread that
    moves it (``bar_ticker``), so that verify's process has one thread when it forks its workers
    (workers.py, "the fork server")."""
    # rich, when something is drawn: a command's start-up never pays for it
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    bar = Progress(
        _("verifying"),
        BarColumn(bar_width=None),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        expand=True,
        redirect_stdout=stdout_is_terminal,
        redirect_stderr=False,
        auto_refresh=False,
    )
    bar.add_task("verify", total=total)
    return bar


def bar_ticker(
    bar: Progress, every: float = 0.1, clock: Callable[[], float] = time.monotonic
) -> Callable[[object], None]:
    """What moves ``bar`` one step (a log verified): drawn again at most every ``every`` seconds
    (the figures it shows change only with a step), by the caller's thread."""
    task = bar.task_ids[0]
    drawn = clock()

    def tick(_: object) -> None:
        nonlocal drawn
        bar.advance(task)
        now = clock()
        if now - drawn >= every:
            drawn = now
            bar.refresh()

    return tick


def solve_line(p: Any, width: int) -> Text:
    """solve's live line for a progress report ``p`` (positions, rate, best runs, face-down
    cards and deals, seconds), shortened for a narrow terminal and never wrapped."""
    from rich.text import Text  # rich, when something is drawn (see stderr_console)

    fields = {
        "states": p.states,
        "rate": p.rate,
        "runs": p.best_runs,
        "down": p.best_down,
        "deals": p.best_deals,
        "seconds": p.seconds,
    }
    text = _(
        "searching  {states:,} positions  {rate:,.0f}/s  best: runs {runs}, face-down {down}, "
        "deals {deals}  {seconds:.1f} s"
    ).format(**fields)
    if len(text) > width:
        text = _(
            "{states:,} pos  {rate:,.0f}/s  runs {runs}  down {down}  deals {deals}  "
            "{seconds:.0f} s"
        ).format(**fields)
    return Text(text, no_wrap=True, overflow="ellipsis")


class SolveProgress:
    """The live line of ``solve`` on a stderr console; call it with each progress report, and
    ``close`` it at the end (the line then disappears)."""

    def __init__(self, console: Console) -> None:
        # rich, when something is drawn: a command's start-up never pays for it
        from rich.live import Live

        self.console = console
        self.live = Live(
            console=console,
            transient=True,
            auto_refresh=False,
            redirect_stdout=False,  # the search prints nothing meanwhile; stdout stays stdout
            redirect_stderr=False,
        )
        self.live.start()

    def __call__(self, p: Any) -> None:
        self.live.update(solve_line(p, self.console.width), refresh=True)

    def close(self) -> None:
        self.live.stop()


class SweepLine:
    """sweep's progress line on a terminal: rewritten in place after each record, cleared at
    the end. Off a terminal it says nothing (the summary comes at the end). Written as plain
    text, not by ``rich``: one short line whose width the counts bound."""

    def __init__(self, stream: IO[str], total: int) -> None:
        self.stream = stream
        self.on = stream.isatty()
        self.total = total
        self.done = 0

    def tick(self, tally: SweepTally) -> None:
        self.done += 1
        if not self.on:
            return

        line = _(
            "sweep: {done} of {total} deals, {won} won, {unwinnable} unwinnable, {gave_up} gave up"
        ).format(
            done=tally.total,
            total=self.total,
            won=tally.count("won"),
            unwinnable=tally.count("unwinnable"),
            gave_up=tally.count("gave-up"),
        )
        self.stream.write("\r\x1b[K" + line)
        self.stream.flush()

    def close(self) -> None:
        if self.on and self.done:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


__all__ = [
    "UNICODE_CARDS",
    "SolveProgress",
    "SweepLine",
    "bar_ticker",
    "color_wanted",
    "solve_line",
    "stderr_console",
    "unicode_wanted",
    "verify_bar",
]
