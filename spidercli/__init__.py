"""spidercli: replay, verify and score games of Spider Solitaire and Spiderette.

The public API (``docs/api.md``) is the names in ``__all__``: the functions of
``spidercli.api`` (what each command does, as a call) and the types they take and return.
Everything else is internal. Each name is imported when first used (PEP 562), so that
``import spidercli`` loads nothing but this file::

    import spidercli

    log = spidercli.read_log("game.yaml")
    report = spidercli.replay(log)
    report.status, report.to_json()

Inside, the package is layered: ``cards`` and ``codes`` know cards and deals, ``rules`` holds
each app's house rules as values, ``engine`` plays actions, ``actions`` parses action strings,
``movelog`` reads YAML logs, ``replay`` runs a log through the engine, ``render`` draws reports
and boards, ``api`` is the front door and ``cli`` the thin Typer layer on top of it.
"""

import sys as _sys
import types as _types

__version__ = "0.3.0"

# Each public name and the module it lives in, imported on first use.
_PUBLIC: dict[str, str] = {
    # functions: spidercli/api.py
    "read_log": "spidercli.api",
    "parse_log": "spidercli.api",
    "replay": "spidercli.api",
    "deal": "spidercli.api",
    "hint": "spidercli.api",
    "solve": "spidercli.api",
    "verify": "spidercli.api",
    "standings": "spidercli.api",
    "duel": "spidercli.api",
    "record_text": "spidercli.api",
    "record_file": "spidercli.api",
    "import_kpat": "spidercli.api",
    "deals": "spidercli.api",
    "settled": "spidercli.api",
    "pick_deals": "spidercli.api",
    # what they take and return
    "MoveLog": "spidercli.play.logtypes",
    "Entry": "spidercli.play.logtypes",
    "Expect": "spidercli.play.logtypes",
    "Report": "spidercli.play.replay",
    "Illegal": "spidercli.play.replay",
    "Mismatch": "spidercli.play.replay",
    "Board": "spidercli.play.replay",
    "Column": "spidercli.play.replay",
    "Verdict": "spidercli.judging.verdict",
    "Replayed": "spidercli.judging.verdict",
    "Hint": "spidercli.solver.hints",
    "FairHint": "spidercli.solver.fair",
    "Solution": "spidercli.solver.result",
    "TournamentResult": "spidercli.judging.tournament",
    "Standing": "spidercli.judging.tournament",
    "Submission": "spidercli.judging.tournament",
    "Judgement": "spidercli.judging.duel",
    "Recorded": "spidercli.judging.record",
    "KPatImport": "spidercli.kpat.match",
    "DealSet": "spidercli.sweeps.table",
    "Settled": "spidercli.sweeps.table",
    "Picked": "spidercli.sweeps.table",
    # errors
    "InputError": "spidercli.errors",
    "IllegalLogError": "spidercli.play.replay",
}

__all__ = [
    "Board",
    "Column",
    "DealSet",
    "Entry",
    "Expect",
    "FairHint",
    "Hint",
    "Illegal",
    "IllegalLogError",
    "InputError",
    "Judgement",
    "KPatImport",
    "Mismatch",
    "MoveLog",
    "Picked",
    "Recorded",
    "Replayed",
    "Report",
    "Settled",
    "Solution",
    "Standing",
    "Submission",
    "TournamentResult",
    "Verdict",
    "deal",
    "deals",
    "duel",
    "hint",
    "import_kpat",
    "parse_log",
    "pick_deals",
    "read_log",
    "record_file",
    "record_text",
    "replay",
    "settled",
    "solve",
    "standings",
    "verify",
]

TYPE_CHECKING = False  # typing is not imported: type checkers read the names below
if TYPE_CHECKING:
    from spidercli.api import deal as deal
    from spidercli.api import deals as deals
    from spidercli.api import duel as duel
    from spidercli.api import hint as hint
    from spidercli.api import import_kpat as import_kpat
    from spidercli.api import parse_log as parse_log
    from spidercli.api import pick_deals as pick_deals
    from spidercli.api import read_log as read_log
    from spidercli.api import record_file as record_file
    from spidercli.api import record_text as record_text
    from spidercli.api import replay as replay
    from spidercli.api import settled as settled
    from spidercli.api import solve as solve
    from spidercli.api import standings as standings
    from spidercli.api import verify as verify
    from spidercli.errors import InputError as InputError
    from spidercli.judging.duel import Judgement as Judgement
    from spidercli.judging.record import Recorded as Recorded
    from spidercli.judging.tournament import Standing as Standing
    from spidercli.judging.tournament import Submission as Submission
    from spidercli.judging.tournament import TournamentResult as TournamentResult
    from spidercli.judging.verdict import Replayed as Replayed
    from spidercli.judging.verdict import Verdict as Verdict
    from spidercli.kpat.match import KPatImport as KPatImport
    from spidercli.play.logtypes import Entry as Entry
    from spidercli.play.logtypes import Expect as Expect
    from spidercli.play.logtypes import MoveLog as MoveLog
    from spidercli.play.replay import Board as Board
    from spidercli.play.replay import Column as Column
    from spidercli.play.replay import Illegal as Illegal
    from spidercli.play.replay import IllegalLogError as IllegalLogError
    from spidercli.play.replay import Mismatch as Mismatch
    from spidercli.play.replay import Report as Report
    from spidercli.solver.fair import FairHint as FairHint
    from spidercli.solver.hints import Hint as Hint
    from spidercli.solver.result import Solution as Solution
    from spidercli.sweeps.table import DealSet as DealSet
    from spidercli.sweeps.table import Picked as Picked
    from spidercli.sweeps.table import Settled as Settled


if not TYPE_CHECKING:  # at run time only: a type checker still flags a name that is not here

    def __getattr__(name: str) -> object:
        """A public name, imported from its module on first use (PEP 562)."""
        module = _PUBLIC.get(name)
        if module is None:
            raise AttributeError(f"module 'spidercli' has no attribute {name!r}")
        from importlib import import_module  # import spidercli itself imports nothing

        value = getattr(import_module(module), name)
        globals()[name] = value  # found here from now on, without this function
        return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


class _Package(_types.ModuleType):
    """The package, whose public names a submodule never hides: importing
    ``spidercli/play/replay.py`` (the module) would otherwise bind ``spidercli.replay`` to it, in
    place of the function ``spidercli.replay``. Code inside imports from the modules by name
    (``from spidercli.play.replay import Report``), never through the package's attributes."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in _PUBLIC and isinstance(value, _types.ModuleType):
            return
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package
del TYPE_CHECKING
