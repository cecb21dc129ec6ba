"""The front door: what each command does, as a function a program calls (``docs/api.md``).

Each function takes paths, text or plain values, checks its arguments, calls the modules that
do the work and returns a typed result whose ``to_json()`` is the command's JSON, key for key.
The command line calls these same functions, so that its results and a program's cannot drift.

- A wrong type is a ``TypeError``; a value outside its choices (``on_illegal="jump"``) a
  ``ValueError`` naming them: mistakes of the calling program, said in English as Python's own.
- Input that cannot be used (a file, its YAML, a game code, a ruleset name, a save) is an
  ``InputError`` with ``path``, ``line`` and ``exit_status`` 2, the command line's message.
- A log with a refused action where a legal game is needed (``hint``, ``record_text``,
  ``record_file``) is an ``IllegalLogError`` (``exit_status`` 1).
- Nothing here prints, exits, or changes a file but ``record_file``'s (and ``verify``'s pages
  in ``html_dir``).

The work is imported when a function first uses it, from one table (``_WORK``, below): ``import
spidercli`` and the command line's start-up stay light, and a reader follows each call to its
module by name (``play_replay.replay``: ``spidercli/play/replay.py``). A new function goes here
(with its checks and docstring) and its name into ``spidercli/__init__.py``'s table; the command
calls it.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Callable, Generator, Iterable, Iterator
from importlib import import_module
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Literal, overload

from spidercli.errors import InputError
from spidercli.game.rules import ruleset_named
from spidercli.logs.files import MAX_LOG_BYTES, too_big
from spidercli.text.messages import N_, is_utf8, message_of
from spidercli.text.words import GRADES, RANKINGS

# The work modules, each imported when a function first uses it (the commands' table in
# cli/app.py does the same for the commands): the name it goes by here, and the module.
_WORK: dict[str, str] = {
    "game_codes": "spidercli.game.codes",
    "play_logtypes": "spidercli.play.logtypes",
    "play_replay": "spidercli.play.replay",
    "logs_reader": "spidercli.logs.reader",
    "logs_yamlreader": "spidercli.logs.yamlreader",
    "logs_schema": "spidercli.logs.schema",
    "solver_hints": "spidercli.solver.hints",
    "solver_fair": "spidercli.solver.fair",
    "solver_fair_view": "spidercli.solver.fair_view",
    "solver_result": "spidercli.solver.result",
    "judging_findlogs": "spidercli.judging.findlogs",
    "judging_workers": "spidercli.judging.workers",
    "judging_tournament": "spidercli.judging.tournament",
    "judging_duel": "spidercli.judging.duel",
    "judging_record": "spidercli.judging.record",
    "kpat_match": "spidercli.kpat.match",
    "sweeps_table": "spidercli.sweeps.table",
    "sweeps_plan": "spidercli.sweeps.plan",
    "sweeps_run": "spidercli.sweeps.run",
}


class _Work:
    """A module of ``_WORK``, standing in for it until first used: then imported, and put in its
    place (from then on the name is the module itself)."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        module = import_module(_WORK[self._name])
        globals()[self._name] = module
        return getattr(module, attr)


# The same table, for the type checker (tests/test_front_door.py holds the two equal).
if TYPE_CHECKING:
    from spidercli.game import codes as game_codes
    from spidercli.judging import duel as judging_duel
    from spidercli.judging import findlogs as judging_findlogs
    from spidercli.judging import record as judging_record
    from spidercli.judging import tournament as judging_tournament
    from spidercli.judging import workers as judging_workers
    from spidercli.kpat import match as kpat_match
    from spidercli.logs import reader as logs_reader
    from spidercli.logs import schema as logs_schema
    from spidercli.logs import yamlreader as logs_yamlreader
    from spidercli.play import logtypes as play_logtypes
    from spidercli.play import replay as play_replay
    from spidercli.solver import fair as solver_fair
    from spidercli.solver import fair_view as solver_fair_view
    from spidercli.solver import hints as solver_hints
    from spidercli.solver import result as solver_result
    from spidercli.sweeps import plan as sweeps_plan
    from spidercli.sweeps import run as sweeps_run
    from spidercli.sweeps import table as sweeps_table
else:
    globals().update({name: _Work(name) for name in _WORK})

if TYPE_CHECKING:
    from spidercli.game.codes import Setup
    from spidercli.judging.duel import Judgement
    from spidercli.judging.record import Recorded
    from spidercli.judging.tournament import TournamentResult
    from spidercli.judging.verdict import Verdict
    from spidercli.kpat.match import KPatImport
    from spidercli.play.logtypes import MoveLog
    from spidercli.play.replay import Board, ReplayVisitor, Report
    from spidercli.solver.fair import FairHint
    from spidercli.solver.grades import Grade
    from spidercli.solver.hints import Hint
    from spidercli.solver.result import Solution
    from spidercli.solver.search import Progress
    from spidercli.sweeps.run import Sweep
    from spidercli.sweeps.table import DealSet, Picked, Settled

OnIllegal = Literal["stop", "skip"]
ON_ILLEGAL: tuple[OnIllegal, ...] = ("stop", "skip")

StrPath = str | os.PathLike[str]


# ------------------------------------------------------------------------- argument checks


def _path(value: object, what: str) -> str:
    """A path given as ``str`` or ``os.PathLike`` (of ``str``), as a ``str``."""
    if isinstance(value, str):
        return value
    if isinstance(value, os.PathLike):
        path = os.fspath(value)
        if isinstance(path, str):
            return path
    raise TypeError(f"{what} must be a str or an os.PathLike path, not {type(value).__name__}")


def _paths(value: object, what: str) -> Iterator[str]:
    """One path, or an iterable of them, lazily (a generator of paths is read as it is used)."""
    if isinstance(value, str | os.PathLike):
        yield _path(value, what)
        return
    if isinstance(value, bytes) or not isinstance(value, Iterable):
        raise TypeError(
            f"{what} must be a path or an iterable of paths (str or os.PathLike), "
            f"not {type(value).__name__}"
        )
    for item in value:
        yield _path(item, f"each of {what}")


def _positive(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{what} must be 1 or more, not {value}")
    return value


def _seconds(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{what} must be a number of seconds, not {type(value).__name__}")
    if not 0 < value < float("inf"):
        raise ValueError(f"{what} must be a positive number of seconds, not {value!r}")
    return float(value)


def _rules(value: object) -> str | None:
    if value is not None and not isinstance(value, str):
        raise TypeError(f"rules must be a ruleset name (str) or None, not {type(value).__name__}")
    return value


def _log(value: object, what: str = "log") -> MoveLog:
    if not isinstance(value, play_logtypes.MoveLog):
        raise TypeError(
            f"{what} must be a MoveLog (spidercli.read_log or spidercli.parse_log makes one), "
            f"not {type(value).__name__}"
        )
    return value


def _text(value: object, what: str) -> bytes:
    """Text given as ``str`` or ``bytes``, as the bytes a file would hold (UTF-8)."""
    if isinstance(value, str):
        # A lone surrogate becomes bytes that are not UTF-8: refused as in a file.
        return value.encode("utf-8", "surrogatepass")
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    raise TypeError(f"{what} must be str or bytes, not {type(value).__name__}")


def _name(value: object) -> str:
    if isinstance(value, str | os.PathLike):
        return _path(value, "name")
    raise TypeError(f"name must be a str, not {type(value).__name__}")


def _bytes_of(text: object, name: str, max_bytes: object) -> bytes:
    """``text`` as bytes, no more than ``max_bytes`` of them (``InputError`` otherwise)."""
    limit = _positive(max_bytes, "max_bytes")
    data = _text(text, "text")
    if len(data) > limit:
        raise InputError(too_big(limit, len(data)).message, path=name)
    return data


# ------------------------------------------------------------------------------ move logs


def read_log(path: StrPath, *, max_bytes: int = MAX_LOG_BYTES) -> MoveLog:
    """Read and check the move log at ``path`` (``-``: standard input).

    ``InputError`` when it cannot be used: a file that is missing, not a regular file or larger
    than ``max_bytes``, text that is not UTF-8, YAML that is malformed or does not follow the
    log format, an unknown game code or action; its ``path`` and ``line`` point at the fault.
    """
    return logs_reader.load_log(_path(path, "path"), _positive(max_bytes, "max_bytes"))


def parse_log(
    text: str | bytes, *, name: StrPath = "<log>", max_bytes: int = MAX_LOG_BYTES
) -> MoveLog:
    """Check a move log given as its text: ``bytes`` as a file holds them, or ``str``.

    Both go the way of a file's bytes (a ``str`` as its UTF-8): the same size limit, the same
    checks (UTF-8, no NUL byte, a leading byte order mark dropped), the same reader. ``name``
    is what messages and the log's ``path`` call it. ``InputError`` as ``read_log``.
    """
    shown = _name(name)
    data = logs_yamlreader.decode(_bytes_of(text, shown, max_bytes), shown)
    return logs_reader.parse_log(data, shown)


def replay(
    log: MoveLog,
    rules: str | None = None,
    on_illegal: OnIllegal = "stop",
    *,
    visitor: ReplayVisitor | None = None,
) -> Report:
    """Replay ``log`` through the rules engine, as ``spidercli replay`` does.

    ``rules``: a ruleset name (``classic``, ``duel``, ``pavouk``, ``kpat``) that overrides the
    log's; None plays the log's (classic when it names none). ``on_illegal``: ``"stop"`` at the
    first refused action, or ``"skip"`` it and go on. ``InputError`` for an unknown ruleset, or
    one that cannot play the log's game. ``visitor`` is the command line's (its boards and HTML
    page), not part of the public API.
    """
    _log(log)
    if on_illegal not in ON_ILLEGAL:
        raise ValueError(
            f"on_illegal must be one of {', '.join(map(repr, ON_ILLEGAL))}, not {on_illegal!r}"
        )
    ruleset = play_replay.choose_rules(log, _rules(rules))
    return play_replay.replay(log, rules=ruleset, on_illegal=on_illegal, visitor=visitor)


def deal(code: str) -> Board:
    """The starting position a game code deals (``SP2-S1C-AAAAAAA``, ``KP2-17``), as
    ``spidercli deal CODE`` shows it; ``InputError`` for text that is not a game code."""
    if not isinstance(code, str):
        raise TypeError(f"code must be a game code (str), not {type(code).__name__}")
    try:
        setup = game_codes.Setup.from_code(game_codes.parse_code(code))
    except game_codes.CodeError as err:
        raise InputError(message_of(err)) from err
    return play_replay.Board.start(setup)


@overload
def hint(
    log: MoveLog,
    *,
    rules: str | None = None,
    timeout: float = 5.0,
    max_states: int | None = None,
    fair: Literal[False] = False,
    on_search: Callable[[], None] | None = None,
) -> Hint: ...


@overload
def hint(
    log: MoveLog,
    *,
    rules: str | None = None,
    timeout: float = 5.0,
    max_states: None = None,
    fair: Literal[True],
    on_search: Callable[[], None] | None = None,
) -> FairHint: ...


@overload
def hint(
    log: MoveLog,
    *,
    rules: str | None = None,
    timeout: float = 5.0,
    max_states: int | None = None,
    fair: bool = False,
    on_search: Callable[[], None] | None = None,
) -> Hint | FairHint: ...


def hint(
    log: MoveLog,
    *,
    rules: str | None = None,
    timeout: float = 5.0,
    max_states: int | None = None,
    fair: bool = False,
    on_search: Callable[[], None] | None = None,
) -> Hint | FairHint:
    """The best next action after ``log`` (never a deal), with the reasons, as ``spidercli
    hint`` gives it; the search for a win takes at most ``timeout`` seconds and ``max_states``
    positions (None: no limit; a budget the same on every machine).

    ``fair=True``: the fair hint (``spidercli hint --fair``, docs/fair.md), chosen from what a
    player sees (the face-up cards, the face-down counts, the cards seen before in the log),
    never from the unseen cards: a move, a deal or a flip, never an undo, its budget a count of
    positions of its own (``timeout`` is not used; ``max_states`` is refused), a ``FairHint``.

    ``IllegalLogError`` when the log has a refused action (there is no position to give a hint
    for); ``InputError`` for a ruleset as ``replay``. ``on_search`` is the command line's (called
    just before a search, which a finished game or a card to turn up needs none of), not part
    of the public API.
    """
    seconds = _seconds(timeout, "timeout")
    budget = None if max_states is None else _positive(max_states, "max_states")
    if not isinstance(fair, bool):
        raise TypeError(f"fair must be a bool, not {type(fair).__name__}")
    if fair and budget is not None:
        raise ValueError("max_states is not used with fair=True: the fair hint has its own budget")
    watch = solver_fair_view.SightVisitor() if fair else None
    report = replay(log, rules, visitor=watch)
    if report.illegal:
        bad = report.illegal[0]
        why = solver_result.no_hint_message(bad)
        raise play_replay.IllegalLogError(why, path=log.path, line=bad.line, report=report)
    if watch is not None:
        game = report.game
        if on_search is not None and game.over is None and not game.flippable():
            on_search()
        return solver_fair.fair_hint(solver_fair_view.view_of(game, watch.sight))
    return solver_hints.find_hint(
        report.game, timeout=seconds, max_states=budget, on_search=on_search
    )


def solve(
    game: str | MoveLog,
    *,
    rules: str | None = None,
    timeout: float | None = 60.0,
    max_states: int | None = None,
    progress: Callable[[Progress], None] | None = None,
    on_search: Callable[[Setup], None] | None = None,
) -> Solution:
    """Search for a win of a deal, as ``spidercli solve`` does: always a ``Solution``, whose
    ``result`` says how the search ended: ``"won"`` (``moves`` and ``log_text``, the winning log
    as ``solve -o`` writes it), ``"unwinnable"`` (the whole space was searched: no win exists) or
    ``"gave-up"`` (the budget ran out, which proves nothing).

    ``game``: a game code (``"KP4-17"``, ``"SP2-S1C-AAAAAAA"``), or a ``MoveLog`` whose deal
    (from the start, whatever its moves) is solved. ``rules``: the ruleset the log is written
    for; None: the log's, else classic. ``timeout``: seconds (None: no limit); ``max_states``:
    the most positions searched (None: no limit), a budget the same on every machine.
    ``InputError`` for text that is not a game code, an unknown ruleset, or one that cannot play
    the deal (its ``__cause__`` the ``CodeError`` when ``game`` is not a game code).
    ``progress`` (the live line) and ``on_search`` (called with the deal once it and the
    ruleset are checked, before the search) are the command line's, not part of the public API.
    """
    seconds = None if timeout is None else _seconds(timeout, "timeout")
    budget = None if max_states is None else _positive(max_states, "max_states")
    if isinstance(game, play_logtypes.MoveLog):
        ruleset = play_replay.choose_rules(game, _rules(rules))
        setup = game.deal
    elif isinstance(game, str):
        try:
            setup = game_codes.Setup.from_code(game_codes.parse_code(game))
            ruleset = ruleset_named(_rules(rules) or "classic")
        except (game_codes.CodeError, ValueError) as err:
            raise InputError(message_of(err)) from err
    else:
        raise TypeError(f"game must be a game code (str) or a MoveLog, not {type(game).__name__}")
    try:
        solver_result.check_solvable(setup, ruleset)
    except ValueError as err:
        raise InputError(message_of(err)) from err
    if on_search is not None:
        on_search(setup)
    return solver_result.solve_game(
        setup, ruleset, timeout=seconds, max_states=budget, report=progress
    )


# ------------------------------------------------------------------------------ many logs


def verify(
    paths: StrPath | Iterable[StrPath],
    *,
    rules: str | None = None,
    jobs: int = 1,
    max_bytes: int = MAX_LOG_BYTES,
    html_dir: StrPath | None = None,
    with_json: bool = True,
    gitignore: bool = True,
) -> Generator[Verdict, None, None]:
    """Verify the logs ``paths`` lead to, as ``spidercli verify`` does: a ``Verdict`` for each,
    lazily and in order; one bad file never stops the rest.

    ``paths``: files, folders (searched for ``*.yaml`` and ``*.yml``) and glob patterns, one or
    an iterable of them (read as the verdicts are taken: a generator works). ``rules`` plays
    every log under one ruleset. ``jobs``: worker processes (forked; 1 verifies in this one).
    ``html_dir``, a folder (made if it is not there), gets an HTML page for each log that is
    not valid (``verdict.page``). ``with_json=False`` saves making each verdict's JSON record
    (about a tenth of the time) when ``to_json()`` is not wanted. A folder's search skips what
    the ``.gitignore`` files on the way ignore (the repository's, from its top folder down, and
    ``.git/info/exclude``), as ``git`` and ``ruff`` do; files and folders named in ``paths``
    are read all the same; ``gitignore=False`` reads every log (``--no-ignore``).

    ``InputError`` at once, before any log is verified, for an unknown ruleset, paths that
    lead to no log, or an ``html_dir`` that is not a folder and cannot be made one (a file of
    that name, a read-only parent), with the message of ``spidercli verify --html-dir``. Close
    the iterator (or take it to its end) to end the workers; leaving it early ends them when it
    is closed or collected.
    """
    for flag, value in (("with_json", with_json), ("gitignore", gitignore)):
        if not isinstance(value, bool):
            raise TypeError(f"{flag} must be a bool, not {type(value).__name__}")
    pages = None if html_dir is None else _path(html_dir, "html_dir")
    found = judging_workers.verdicts(
        _paths(paths, "paths"),
        rules=_rules(rules),
        jobs=_positive(jobs, "jobs"),
        want_json=with_json,
        max_bytes=_positive(max_bytes, "max_bytes"),
        html_dir=pages,
        gitignore=gitignore,
    )
    if pages is not None:
        try:
            _page_folder(pages)
        except BaseException:
            found.close()
            raise
    return found


def _page_folder(path: str) -> None:
    """Make the folder of verify's pages (``html_dir``, ``--html-dir``) if it is not there;
    ``InputError`` when it cannot be: a file of that name, a read-only parent. A page that
    cannot be written would leave its log without a link, silently: so it is said at once."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as err:
        why = N_("cannot be created: {reason}", reason=err.strerror or str(err))
        raise InputError(N_("--html-dir {dir}: {why}", dir=path, why=why)) from err


def standings(
    paths: StrPath | Iterable[StrPath],
    manifest: StrPath | None = None,
    *,
    jobs: int = 1,
    max_bytes: int = MAX_LOG_BYTES,
) -> TournamentResult:
    """Tournament standings from the logs ``paths`` lead to, as ``spidercli tournament``
    gives them: each player's best verified log per deal counts, rejected logs are listed with
    the reason. ``manifest``: the YAML naming the tournament's deals and rules (a log folder may
    hold it: it is not read as a log). ``jobs`` and ``max_bytes`` (a bigger log is not counted,
    as unusable) as ``verify``.

    ``InputError`` for a path that does not exist, an unusable manifest, or no logs found.
    """
    given = list(_paths(paths, "paths"))
    workers = _positive(jobs, "jobs")
    limit = _positive(max_bytes, "max_bytes")
    for path in given:  # a submission folder that is not there is the organiser's mistake
        if not os.path.exists(path) and not (glob.has_magic(path) and glob.glob(path)):
            raise InputError(N_("{path}: no such file or directory", path=path))
    where = None if manifest is None else _path(manifest, "manifest")
    plan = None if where is None else judging_tournament.load_manifest(where)
    files = list(judging_findlogs.find_logs(given))
    if where is not None:
        skip = Path(where).resolve()
        files = [f for f in files if Path(f).resolve() != skip]
    if not files:
        raise judging_findlogs.no_logs(given)
    return judging_tournament.standings(
        files, plan, jobs=workers, max_bytes=limit, manifest_file=where
    )


def duel(a: MoveLog, b: MoveLog) -> Judgement:
    """Judge a StarGames duel between two logs of one deal, as ``spidercli duel`` does: both
    replayed under ``duel`` rules, the verdict naming the winner. ``InputError`` when the logs
    cannot be judged together (another deal, another ruleset, a game duel rules do not play)."""
    return judging_duel.judge(_log(a, "a"), _log(b, "b"))


# ------------------------------------------------------------------------- writing logs


def record_text(
    text: str | bytes, *, name: StrPath = "<log>", max_bytes: int = MAX_LOG_BYTES
) -> str:
    """The log ``text`` with its ``expect`` block written from its replay, as ``spidercli
    record`` would write the file; nothing is written. Only the block's lines change (comments,
    layout, line breaks and byte order marks stay).

    ``text`` and ``name`` as ``parse_log``. ``IllegalLogError`` when the log has a refused
    action; ``InputError`` when it cannot be used, or its layout cannot be rewritten line by line
    (a top level in flow style).
    """
    shown = _name(name)
    new, _ = judging_record.recorded(_bytes_of(text, shown, max_bytes), shown)
    return new


def record_file(path: StrPath, *, max_bytes: int = MAX_LOG_BYTES) -> Recorded:
    """Write or refresh the ``expect`` block of the log at ``path`` in place, as ``spidercli
    record`` does; the file is replaced atomically, and only when its text changes.

    ``IllegalLogError`` and ``InputError`` as ``record_text`` (the file is then left as it was);
    ``OSError`` when the file cannot be replaced.
    """
    return judging_record.record(_path(path, "path"), _positive(max_bytes, "max_bytes"))


def import_kpat(save: StrPath | bytes, *, name: str | None = None) -> KPatImport:
    """A KDE KPatience saved Spider game as a move log (``kpat`` rules), as ``spidercli import
    kpat`` makes it: ``save`` is the save's path, or its bytes (``name``: what messages call it,
    ``<save>`` by default). ``InputError`` for a save that is not KPat's Spider, is corrupt, or
    is refused (XML entities, external references, too large)."""
    if name is not None and not isinstance(name, str):
        raise TypeError(f"name must be a str or None, not {type(name).__name__}")
    if isinstance(save, bytes | bytearray | memoryview):
        return kpat_match.import_save(bytes(save), name)
    return kpat_match.import_save(_path(save, "save"), name)


# ------------------------------------------------------------------------ the settled table


def deals(name: str) -> DealSet:
    """A set of spidercli's table of settled deals (``"PS4"``: PySol's 4-suit deals 1-32000),
    as ``spidercli deals SET`` shows it: its counts of deals won, proven unwinnable and not
    settled, whether it is ``complete``, and each deal's entry (``get(n)``, iteration).
    ``InputError`` for a set the table does not hold."""
    if not isinstance(name, str):
        raise TypeError(f"name must be a set's name (str), not {type(name).__name__}")
    try:
        return sweeps_table.deal_set(name.strip().upper())
    except sweeps_table.TableError as err:
        raise InputError(message_of(err)) from err


def settled(code: str) -> Settled:
    """One deal's entry in the table (``"PS4-17"``), as ``spidercli deals CODE`` shows it: its
    result, its certificate (``log()``, a move log that replays as a win), the proof of an
    unwinnable deal, its grade. ``InputError`` for a deal the table does not hold."""
    if not isinstance(code, str):
        raise TypeError(f"code must be a deal's code (str), not {type(code).__name__}")
    try:
        name, number = sweeps_table.split_code(code)
        return deals(name).get(number)
    except sweeps_table.TableError as err:
        raise InputError(message_of(err)) from err


def pick_deals(
    name: str,
    count: int,
    *,
    seed: int = 0,
    grade: str | None = None,
    title: str | None = None,
    ranking: str | None = None,
    on_grade: Callable[[str], object] | None = None,
) -> Picked:
    """``count`` winnable deals of the table's set ``name``, drawn from ``seed`` (the same deals
    for the same seed on every machine), of the grade ``grade`` (``easy``, ``medium``, ``hard``)
    when given, as ``spidercli deals SET --pick N`` picks them; ``manifest_text()`` is their
    tournament manifest, named ``title`` and ranking players by ``ranking`` (``score`` or
    ``wins``; None: the tournament's default, the score). ``InputError`` when the set has fewer
    such deals.

    Every deal drawn is graded: by the table when it holds the deal's grade, else by the fair
    player (``solver/fair.grade``: 8 playouts, some seconds of CPU a 4-suit deal, the same
    grade on every machine); ``on_grade(code)`` is called before each such grading."""
    n = _positive(count, "count")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int, not {type(seed).__name__}")
    if not 0 <= seed < 1 << 64:
        raise ValueError(f"seed must be from 0 to 2**64 - 1, not {seed}")
    if grade is not None and grade not in GRADES:
        raise ValueError(f"grade must be one of {', '.join(GRADES)}, not {grade!r}")
    if title is not None and not isinstance(title, str):
        raise TypeError(f"title must be a str or None, not {type(title).__name__}")
    if title is not None and not title.strip():  # a tournament would show its file's name
        raise ValueError("title must not be empty: give None for no title")
    if title is not None and not is_utf8(title):
        raise ValueError(f"title must be text that UTF-8 can write, not {title!r}")
    if ranking is not None and ranking not in RANKINGS:
        raise ValueError(f"ranking must be score or wins, not {ranking!r}")
    table = deals(name)
    try:
        return sweeps_table.pick(
            table,
            n,
            seed=seed,
            grade=grade,
            title=title,
            ranking=ranking,
            grader=lambda entry: _graded(entry.game, on_grade),
        )
    except sweeps_table.TableError as err:
        raise InputError(message_of(err)) from err


def _graded(code: str, on_grade: Callable[[str], object] | None) -> Grade:
    if on_grade is not None:
        on_grade(code)
    return solver_fair.grade(code)


__all__ = [
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


# ------------------------------------------------------------------------------ many deals


def sweep(
    deals: str | Iterable[str] = (),
    *,
    random: int | None = None,
    suits: int = 4,
    seed: int = 0,
    game: str = "spider",
    timeout: float = 60.0,
    max_states: int | None = None,
    jobs: int = 1,
    shard: str | None = None,
    output: StrPath | IO[str] | None = None,
    manifest: StrPath | None = None,
) -> Sweep:
    """Solve many deals, as ``spidercli sweep`` does: a ``Sweep`` to iterate, yielding each new
    deal's record (a ``dict``: ``game``, ``deal_id``, ``rules``, ``result``, ``moves``,
    ``lower_bound``, ``states``, ``seconds``, ``log``, ``states_to_win``; ``sweep``'s line of
    JSON) as its search ends, in the order they end.

    ``deals``: game codes and ranges of KPat's or PySol's numbered deals (``"KP4-1..1000"``,
    ``"PS4-1..32000"``), one or an iterable of them; ``random`` more random spidercli deals of
    ``game`` (``spider`` or ``spiderette``) with ``suits`` (1, 2 or 4), drawn from ``seed``.
    ``timeout`` seconds and ``max_states`` positions a deal (None: no limit); ``jobs`` worker
    processes; ``shard``: ``"K/N"``, every N-th deal from the K-th. ``output``: a file's path,
    appended to (the deals it has records of are not solved again: ``tally`` counts them), or
    a text stream each record is written to; ``manifest``: where ``write_manifest()`` writes the
    tournament manifest of the deals won (their logs in ``certificates/`` beside it), once the
    sweep is taken to its end. ``tally.summary()`` says what was found; ``close()`` (or a
    ``with`` block) closes the output file.

    ``InputError`` at once, before any deal is solved, for a code or range that cannot be
    swept, a shard, game or suit count that is not one, more than 10,000,000 deals, or an
    output file or manifest that cannot be written (``OutputError``).
    """
    if isinstance(deals, str):
        deals = [deals]
    specs = list(deals)
    for spec in specs:
        if not isinstance(spec, str):
            raise TypeError(f"each of deals must be a str, not {type(spec).__name__}")
    seconds = _seconds(timeout, "timeout")
    budget = None if max_states is None else _positive(max_states, "max_states")
    workers = _positive(jobs, "jobs")
    if random is not None:
        _positive(random, "random")
        sweeps_plan.game_head(game)  # refused before any code is read
    items = [sweeps_plan.parse_spec(spec) for spec in specs]
    if random is not None:
        items.append(sweeps_plan.random_draw(random, suits, seed, game))
    stream = None if isinstance(output, str | os.PathLike) else output
    return sweeps_run.open_sweep(
        items,
        shard=(1, 1) if shard is None else sweeps_plan.parse_shard(shard),
        timeout=seconds,
        max_states=budget,
        jobs=workers,
        output=stream if stream is not None or output is None else _path(output, "output"),
        manifest=None if manifest is None else _path(manifest, "manifest"),
    )


# ---------------------------------------------------------------------------- the schemas

SchemaName = Literal["log", "report", "verify"]
SCHEMAS: tuple[SchemaName, ...] = ("log", "report", "verify")


def schema(name: SchemaName = "log") -> dict[str, Any]:
    """A JSON Schema, as ``spidercli schema`` prints it: of the move log format (``"log"``), of
    ``replay``'s JSON report (``"report"``) or of ``verify``'s JSON records (``"verify"``)."""
    if name not in SCHEMAS:
        raise ValueError(f"name must be one of {', '.join(map(repr, SCHEMAS))}, not {name!r}")
    if name == "report":
        return logs_schema.report_schema()
    if name == "verify":
        return logs_schema.verify_schema()
    return logs_schema.log_schema()
