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

The work is imported by each function when it is called: ``import spidercli`` stays light. A new
function goes here (with its checks and docstring) and its name into ``spidercli/__init__.py``'s
table; the command calls it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import TYPE_CHECKING, Literal

from spidercli.logs.files import MAX_LOG_BYTES

if TYPE_CHECKING:
    from spidercli.judging.duel import Judgement
    from spidercli.judging.record import Recorded
    from spidercli.judging.tournament import TournamentResult
    from spidercli.judging.verdict import Verdict
    from spidercli.kpat.match import KPatImport
    from spidercli.play.logtypes import MoveLog
    from spidercli.play.replay import Board, ReplayVisitor, Report
    from spidercli.solver.hints import Hint
    from spidercli.solver.result import Solution
    from spidercli.solver.search import Progress
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
    from spidercli.play.logtypes import MoveLog

    if not isinstance(value, MoveLog):
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
        from spidercli.errors import InputError
        from spidercli.logs.files import too_big

        raise InputError(too_big(limit, len(data)).message, path=name)
    return data


# ------------------------------------------------------------------------------ move logs


def read_log(path: StrPath, *, max_bytes: int = MAX_LOG_BYTES) -> MoveLog:
    """Read and check the move log at ``path`` (``-``: standard input).

    ``InputError`` when it cannot be used: a file that is missing, not a regular file or larger
    than ``max_bytes``, text that is not UTF-8, YAML that is malformed or does not follow the
    log format, an unknown game code or action; its ``path`` and ``line`` point at the fault.
    """
    from spidercli.logs.reader import load_log

    return load_log(_path(path, "path"), _positive(max_bytes, "max_bytes"))


def parse_log(
    text: str | bytes, *, name: StrPath = "<log>", max_bytes: int = MAX_LOG_BYTES
) -> MoveLog:
    """Check a move log given as its text: ``bytes`` as a file holds them, or ``str``.

    Both go the way of a file's bytes (a ``str`` as its UTF-8): the same size limit, the same
    checks (UTF-8, no NUL byte, a leading byte order mark dropped), the same reader. ``name``
    is what messages and the log's ``path`` call it. ``InputError`` as ``read_log``.
    """
    from spidercli.logs.reader import parse_log
    from spidercli.logs.yamlreader import decode

    shown = _name(name)
    return parse_log(decode(_bytes_of(text, shown, max_bytes), shown), shown)


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
    from spidercli.play.replay import choose_rules, replay

    _log(log)
    if on_illegal not in ON_ILLEGAL:
        raise ValueError(
            f"on_illegal must be one of {', '.join(map(repr, ON_ILLEGAL))}, not {on_illegal!r}"
        )
    ruleset = choose_rules(log, _rules(rules))
    return replay(log, rules=ruleset, on_illegal=on_illegal, visitor=visitor)


def deal(code: str) -> Board:
    """The starting position a game code deals (``SP2-S1C-AAAAAAA``, ``KP2-17``), as
    ``spidercli deal CODE`` shows it; ``InputError`` for text that is not a game code."""
    from spidercli.errors import InputError
    from spidercli.game.codes import CodeError, Setup, parse_code
    from spidercli.play.replay import Board
    from spidercli.text.messages import message_of

    if not isinstance(code, str):
        raise TypeError(f"code must be a game code (str), not {type(code).__name__}")
    try:
        setup = Setup.from_code(parse_code(code))
    except CodeError as err:
        raise InputError(message_of(err)) from err
    return Board.start(setup)


def hint(
    log: MoveLog,
    *,
    rules: str | None = None,
    timeout: float = 5.0,
    max_states: int | None = None,
    on_search: Callable[[], None] | None = None,
) -> Hint:
    """The best next action after ``log`` (never a deal), with the reasons, as ``spidercli
    hint`` gives it; the search for a win takes at most ``timeout`` seconds and ``max_states``
    positions (None: no limit; a budget the same on every machine).

    ``IllegalLogError`` when the log has a refused action (there is no position to give a hint
    for); ``InputError`` for a ruleset as ``replay``. ``on_search`` is the command line's (called
    just before a search, which a finished game or a card to turn up needs none of), not part
    of the public API.
    """
    from spidercli.play.replay import IllegalLogError
    from spidercli.solver.hints import find_hint
    from spidercli.solver.result import no_hint_message

    seconds = _seconds(timeout, "timeout")
    budget = None if max_states is None else _positive(max_states, "max_states")
    report = replay(log, rules)
    if report.illegal:
        bad = report.illegal[0]
        raise IllegalLogError(no_hint_message(bad), path=log.path, line=bad.line, report=report)
    return find_hint(report.game, timeout=seconds, max_states=budget, on_search=on_search)


def solve(
    game: str | MoveLog,
    *,
    rules: str | None = None,
    timeout: float | None = 60.0,
    max_states: int | None = None,
    progress: Callable[[Progress], None] | None = None,
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
    the deal. ``progress`` is the command line's (its live line), not part of the public API.
    """
    from spidercli.errors import InputError
    from spidercli.game.codes import CodeError, Setup, parse_code
    from spidercli.game.rules import ruleset_named
    from spidercli.play.logtypes import MoveLog
    from spidercli.play.replay import choose_rules
    from spidercli.solver.result import solve_game
    from spidercli.text.messages import message_of

    seconds = None if timeout is None else _seconds(timeout, "timeout")
    budget = None if max_states is None else _positive(max_states, "max_states")
    if isinstance(game, MoveLog):
        ruleset = choose_rules(game, _rules(rules))
        setup = game.deal
    elif isinstance(game, str):
        try:
            setup = Setup.from_code(parse_code(game))
            ruleset = ruleset_named(_rules(rules) or "classic")
        except (CodeError, ValueError) as err:
            raise InputError(message_of(err)) from err
    else:
        raise TypeError(f"game must be a game code (str) or a MoveLog, not {type(game).__name__}")
    try:
        return solve_game(setup, ruleset, timeout=seconds, max_states=budget, report=progress)
    except ValueError as err:
        raise InputError(message_of(err)) from err


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
    from spidercli.judging.workers import verdicts

    for flag, value in (("with_json", with_json), ("gitignore", gitignore)):
        if not isinstance(value, bool):
            raise TypeError(f"{flag} must be a bool, not {type(value).__name__}")
    pages = None if html_dir is None else _path(html_dir, "html_dir")
    found = verdicts(
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
    from spidercli.errors import InputError
    from spidercli.text.messages import N_

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
    import glob
    from pathlib import Path

    from spidercli.errors import InputError
    from spidercli.judging.findlogs import find_logs, no_logs
    from spidercli.judging.tournament import load_manifest, standings
    from spidercli.text.messages import N_

    given = list(_paths(paths, "paths"))
    workers = _positive(jobs, "jobs")
    limit = _positive(max_bytes, "max_bytes")
    for path in given:  # a submission folder that is not there is the organiser's mistake
        if not os.path.exists(path) and not (glob.has_magic(path) and glob.glob(path)):
            raise InputError(N_("{path}: no such file or directory", path=path))
    where = None if manifest is None else _path(manifest, "manifest")
    plan = None if where is None else load_manifest(where)
    files = list(find_logs(given))
    if where is not None:
        skip = Path(where).resolve()
        files = [f for f in files if Path(f).resolve() != skip]
    if not files:
        raise no_logs(given)
    return standings(files, plan, jobs=workers, max_bytes=limit)


def duel(a: MoveLog, b: MoveLog) -> Judgement:
    """Judge a StarGames duel between two logs of one deal, as ``spidercli duel`` does: both
    replayed under ``duel`` rules, the verdict naming the winner. ``InputError`` when the logs
    cannot be judged together (another deal, another ruleset, a game duel rules do not play)."""
    from spidercli.judging.duel import judge

    return judge(_log(a, "a"), _log(b, "b"))


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
    from spidercli.judging.record import recorded

    shown = _name(name)
    new, _ = recorded(_bytes_of(text, shown, max_bytes), shown)
    return new


def record_file(path: StrPath, *, max_bytes: int = MAX_LOG_BYTES) -> Recorded:
    """Write or refresh the ``expect`` block of the log at ``path`` in place, as ``spidercli
    record`` does; the file is replaced atomically, and only when its text changes.

    ``IllegalLogError`` and ``InputError`` as ``record_text`` (the file is then left as it was);
    ``OSError`` when the file cannot be replaced.
    """
    from spidercli.judging.record import record

    return record(_path(path, "path"), _positive(max_bytes, "max_bytes"))


def import_kpat(save: StrPath | bytes, *, name: str | None = None) -> KPatImport:
    """A KDE KPatience saved Spider game as a move log (``kpat`` rules), as ``spidercli import
    kpat`` makes it: ``save`` is the save's path, or its bytes (``name``: what messages call it,
    ``<save>`` by default). ``InputError`` for a save that is not KPat's Spider, is corrupt, or
    is refused (XML entities, external references, too large)."""
    from spidercli.kpat.match import import_save

    if name is not None and not isinstance(name, str):
        raise TypeError(f"name must be a str or None, not {type(name).__name__}")
    if isinstance(save, bytes | bytearray | memoryview):
        return import_save(bytes(save), name)
    return import_save(_path(save, "save"), name)


# ------------------------------------------------------------------------ the settled table


def deals(name: str) -> DealSet:
    """A set of spidercli's table of settled deals (``"PS4"``: PySol's 4-suit deals 1-32000),
    as ``spidercli deals SET`` shows it: its counts of deals won, proven unwinnable and not
    settled, whether it is ``complete``, and each deal's entry (``get(n)``, iteration).
    ``InputError`` for a set the table does not hold."""
    from spidercli.errors import InputError
    from spidercli.sweeps.table import TableError, deal_set
    from spidercli.text.messages import message_of

    if not isinstance(name, str):
        raise TypeError(f"name must be a set's name (str), not {type(name).__name__}")
    try:
        return deal_set(name.strip().upper())
    except TableError as err:
        raise InputError(message_of(err)) from err


def settled(code: str) -> Settled:
    """One deal's entry in the table (``"PS4-17"``), as ``spidercli deals CODE`` shows it: its
    result, its certificate (``log()``, a move log that replays as a win), the proof of an
    unwinnable deal, its grade. ``InputError`` for a deal the table does not hold."""
    from spidercli.errors import InputError
    from spidercli.sweeps.table import TableError, split_code
    from spidercli.text.messages import message_of

    if not isinstance(code, str):
        raise TypeError(f"code must be a deal's code (str), not {type(code).__name__}")
    try:
        name, number = split_code(code)
        return deals(name).get(number)
    except TableError as err:
        raise InputError(message_of(err)) from err


def pick_deals(
    name: str,
    count: int,
    *,
    seed: int = 0,
    grade: str | None = None,
    title: str | None = None,
) -> Picked:
    """``count`` winnable deals of the table's set ``name``, drawn from ``seed`` (the same deals
    for the same seed on every machine), of the grade ``grade`` (``easy``, ``medium``, ``hard``)
    when given, as ``spidercli deals SET --pick N`` picks them; ``manifest_text()`` is their
    tournament manifest. ``InputError`` when the set has fewer such deals."""
    from spidercli.errors import InputError
    from spidercli.sweeps.table import GRADES, TableError, pick
    from spidercli.text.messages import message_of

    n = _positive(count, "count")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int, not {type(seed).__name__}")
    if not 0 <= seed < 1 << 64:
        raise ValueError(f"seed must be from 0 to 2**64 - 1, not {seed}")
    if grade is not None and grade not in GRADES:
        raise ValueError(f"grade must be one of {', '.join(GRADES)}, not {grade!r}")
    if title is not None and not isinstance(title, str):
        raise TypeError(f"title must be a str or None, not {type(title).__name__}")
    table = deals(name)
    try:
        return pick(table, n, seed=seed, grade=grade, title=title)
    except TableError as err:
        raise InputError(message_of(err)) from err


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
