"""A sweep's records: one JSON record a deal, a view of the search's ``Solution``
(``record_of``; ``solve_deal`` makes it, in a worker), written a line each and read back a line at
a time (``parse_record``; with ``--manifest``, ``certificate_problem``: a win's log is replayed).
The output file (``Output``) is a regular file, locked for one sweep; what is kept of a record
read back is a digest of its code and its figures (``Done``). ``SweepTally`` counts the records
for the summary; the manifest of the deals won and their certificates are written here.
"""

from __future__ import annotations

import errno
import hashlib
import json
import math
import os
import re
import statistics
import time
from array import array
from collections.abc import Callable
from typing import Any

from spidercli.errors import InputError, OutputError, unwritable
from spidercli.game.codes import CodeError, Setup, parse_code
from spidercli.game.rules import RULESETS
from spidercli.judging.pool import worker_death
from spidercli.logs.files import (
    MAX_LOG_BYTES,
    LineTooLong,
    NotRegularFile,
    line_at,
    lines_of,
    open_to_append,
    write_atomic,
)
from spidercli.logs.reader import parse_log
from spidercli.play.replay import replay
from spidercli.solver.result import Solution, solve_game
from spidercli.solver.search import SOLVE_RESULTS
from spidercli.sweeps.plan import RULES
from spidercli.text.i18n import _, ngettext
from spidercli.text.i18n import number as in_language
from spidercli.text.messages import N_, located, message_of, quoted, shown

FIELDS = (
    "game",
    "deal_id",
    "rules",
    "result",
    "moves",
    "lower_bound",
    "states",
    "seconds",
    "log",
    "states_to_win",
)


# ----------------------------------------------------------------------------- the records


def record_of(solution: Solution, seconds: float) -> dict[str, Any]:
    """A deal's record, a view of the search's ``Solution`` (the one builder,
    ``result.solution_of``): ``solve --json``'s record, the deal's whole time in ``seconds``, and
    ``states_to_win``."""
    return {
        **solution.to_json(),
        "seconds": round(seconds, 3),
        "states_to_win": solution.states_to_win,
    }


# (code, timeout, max_states, the proof's budget of bytes: None for proof.default_memory())
DealTask = tuple[str, float, "int | None", "int | None"]


def solve_deal(task: DealTask) -> dict[str, Any]:
    """One deal's record (in a worker): whatever happens, a record for this deal alone."""
    code, timeout, max_states, memory = task

    start = time.perf_counter()
    setup = Setup.from_code(parse_code(code))
    try:
        solution = solve_game(
            setup, RULESETS[RULES], timeout=timeout, max_states=max_states, memory=memory
        )
    except MemoryError:  # past the search (which gives up on memory by itself): not a bug
        why = "out of memory: the process's or the machine's memory ran out after the search."
        return failed(code, why, time.perf_counter() - start)
    except Exception as err:  # a bug, not the deal's fault: say so, and go on
        why = f"internal error: {type(err).__name__}: {err}. Please report it with this deal."
        return failed(code, why, time.perf_counter() - start)
    return record_of(solution, time.perf_counter() - start)


def failed(code: str, error: str, seconds: float = 0.0) -> dict[str, Any]:
    """The record of a deal whose search did not end (the worker died, a bug): ``gave-up``
    with the ``error`` that says why."""
    setup = Setup.from_code(parse_code(code))
    record: dict[str, Any] = dict.fromkeys(FIELDS)
    record.update(game=setup.name, deal_id=setup.deal_id, rules=RULES, result="gave-up")
    record.update(states=0, seconds=round(seconds, 3), error=error)
    return record


def worker_died(task: DealTask, status: int | None) -> dict[str, Any]:
    """The record of the deal a worker was solving when it died."""

    how = worker_death(status)
    return failed(task[0], f"internal error: the worker process solving this deal {how}.")


def record_line(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------------- the records read back

# One line of a sweep's output at most: a won record holds its log (a few KB; the longest a log
# may be, MAX_LOG_BYTES, is 1 MiB), so a longer line is none of a sweep's.
MAX_RECORD_BYTES = 4 << 20
_MOST = (1 << 63) - 1  # the largest count a record may give (a 64-bit integer's)


class NotRecord(Exception):
    """A line that is not a sweep's record: ``message`` says why (the caller names the line)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


NOT_JSON = N_(
    "not a sweep record: each line of a sweep's output is one JSON record with 'game' and "
    "'result'; name a new file or this one's sweep's"
)


def parse_record(line: bytes) -> dict[str, Any]:
    """The record one line of a sweep's output holds, each field of the type a sweep writes;
    ``NotRecord`` saying what is wrong otherwise (``NOT_JSON`` when it is no JSON record at
    all)."""
    try:
        value = _json(line)
    except (ValueError, RecursionError) as err:  # not UTF-8, not JSON, nested past the stack
        raise NotRecord(NOT_JSON) from err
    if not isinstance(value, dict) or "game" not in value or "result" not in value:
        raise NotRecord(NOT_JSON)
    problem = record_problem(value)
    if problem is not None:
        raise NotRecord(N_("not a sweep record: {problem}", problem=problem))
    return value


def _json(line: bytes) -> Any:
    """The JSON value of a line (UTF-8); a number no float holds (``1e400``) or a constant that
    JSON has not (``NaN``, ``Infinity``) is kept as written (``_Number``), never a float."""
    return _DECODER.decode(line.decode("utf-8"))


class _Number:
    """A number of a record that no float holds, as it was written: refused where a number is
    wanted, shown as it was written."""

    def __init__(self, text: str) -> None:
        self.text = text


def _float(text: str) -> float | _Number:
    value = float(text)
    return value if math.isfinite(value) else _Number(text)


_DECODER = json.JSONDecoder(parse_float=_float, parse_constant=_Number)


def _shown_value(value: object) -> str:
    """A field's value as a message shows it: its JSON, escaped and cut short."""
    if isinstance(value, _Number):
        return shown(value.text, 40)
    written = json.dumps(value, ensure_ascii=False, default=lambda number: number.text)
    return shown(written, 40)


def _text(value: object) -> bool:
    """Text a file can hold (no lone surrogate, which ``\\ud800`` in JSON makes)."""
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _count(value: object) -> bool:
    return type(value) is int and 0 <= value <= _MOST


def _seconds(value: object) -> bool:
    """A number of seconds (1e400 is read as infinity: past the bound, refused)."""
    return isinstance(value, (int, float)) and type(value) is not bool and 0 <= value <= 1e12


_A_COUNT = N_("a whole number, 0 or more")
_A_COUNT_OR_NULL = N_("a whole number, 0 or more, or null")
_TEXT_OR_NULL = N_("text or null")
# Each field a sweep writes: whether its value is one a sweep writes, whether it must be given
# (not null), and what is expected, in words.
_FIELDS: dict[str, tuple[Callable[[object], bool], bool, str]] = {
    "deal_id": (_text, False, _TEXT_OR_NULL),
    "rules": (_text, False, _TEXT_OR_NULL),
    "moves": (_count, False, _A_COUNT_OR_NULL),
    "lower_bound": (_count, False, _A_COUNT_OR_NULL),
    "states": (_count, False, _A_COUNT),
    "seconds": (_seconds, False, N_("a number of seconds, 0 or more")),
    "log": (_text, False, _TEXT_OR_NULL),
    "states_to_win": (_count, False, _A_COUNT_OR_NULL),
    "error": (_text, False, _TEXT_OR_NULL),
}


def record_problem(record: dict[str, Any]) -> str | None:
    """What in a record (a JSON object with ``game`` and ``result``) is not as a sweep writes it,
    in words; None when nothing is."""
    game, result = record["game"], record["result"]
    if not isinstance(game, str) or not _CODE.fullmatch(game):
        return N_(
            "'game' is {value}, where a sweep writes a game code as spidercli names it "
            "(SP4-S1C-AAAAAAB, KP4-17)",
            value=_shown_value(game),
        )
    if result not in SOLVE_RESULTS:
        return N_(
            "'result' is {value}, where a sweep writes won, unwinnable or gave-up",
            value=_shown_value(result),
        )
    for key, (good, required, expected) in _FIELDS.items():
        value = record.get(key)
        if value is None and not required:
            continue
        if not good(value):
            return N_(
                "{key} is {value}, where a sweep writes {expected}",
                key=quoted(key),
                value=_shown_value(value),
                expected=expected,
            )
    if result == "won":
        for key in ("moves", "log"):
            if record.get(key) is None:
                return N_(
                    "a won record with no {key}: a sweep writes a win's moves and log", key=key
                )
        if len(record["log"]) > MAX_LOG_BYTES:
            return N_("its log is longer than a log may be ({limit:,} bytes)", limit=MAX_LOG_BYTES)
    return None


# What a game code as spidercli names it looks like (upper case, digits and dashes): whether it
# is one is asked only of a record for a manifest (``certificate_problem``). A record of anything
# else is never one of a sweep's deals, so resuming passes it over.
_CODE = re.compile(r"[A-Z0-9]{2,4}(-[A-Z0-9]{1,30}){1,2}")


def _is_code(game: str) -> bool:
    """Whether ``game`` is a game code in the form a sweep writes it (canonical)."""
    try:
        return parse_code(game).canonical == game
    except CodeError:
        return False


def certificate_problem(record: dict[str, Any]) -> str | None:
    """Why a record (read back, ``parse_record``'s) cannot enter a manifest, in words; None when
    it can: its ``deal_id`` is its game's, and, when it is won, its log is a game of that deal
    that replays under the sweep's rules as a win, every entry legal and its expect block met,
    in the moves the record says."""
    game = record["game"]
    if not _is_code(game):
        return N_(
            "'game' is {value}, where a sweep writes a game code as spidercli names it "
            "(SP4-S1C-AAAAAAB, KP4-17)",
            value=_shown_value(game),
        )
    setup = Setup.from_code(parse_code(game))
    if record.get("deal_id") != setup.deal_id:
        return N_(
            "its deal_id {value} is not that of {game} ({deal_id})",
            value=_shown_value(record.get("deal_id")),
            game=game,
            deal_id=setup.deal_id,
        )
    if record["result"] != "won":
        return None
    try:
        log = parse_log(record["log"], "log")
    except InputError as err:
        return N_("its log cannot be read: {error}", error=message_of(err))
    if log.deal.deal_id != setup.deal_id:
        return N_("its log is a game of {other}, not of {game}", other=log.deal.name, game=game)
    try:
        report = replay(log, rules=RULESETS[RULES])
    except InputError as err:
        return N_("its log cannot be replayed: {error}", error=message_of(err))
    if report.illegal:
        first = report.illegal[0]
        return N_(
            "its log is refused at {entry} ({rule})", entry=first.named, rule=first.refusal.rule
        )
    if report.result != "won" or report.mismatches:
        return N_("its log does not win: replayed, it ends {result}", result=report.result)
    if report.moves != record["moves"]:
        return N_(
            "its log wins in {actual} moves, not in the {moves} the record says",
            actual=report.moves,
            moves=record["moves"],
        )
    return None


# ------------------------------------------------------------------------- the deals met


class Done:
    """The deals a sweep has met, kept compactly (a million records read back hold some 70 MB,
    where the records themselves held some 900 MB): for each game code, a 128-bit BLAKE2b digest
    of it (the code itself is not kept; two codes with one digest are as likely as a fault of
    the machine) and, in arrays, one entry each: where its record begins in the output file
    (-1: not there), its moves, lower bound and states to its win (-1: none), its seconds,
    whether the plan has met it and its result (``SOLVE_RESULTS``' index); a table of 4 bytes a
    slot, at most half full, finds a code's entry."""

    def __init__(self) -> None:
        self.keys = array("Q")  # hi, lo: the digest's two halves
        self.figures = array("q")  # where, moves, lower bound, states to the win
        self.seconds = array("d")
        self.flags = bytearray()  # met, result
        self._index(1 << 10)

    def _index(self, slots: int) -> None:
        self.slots = array("i", [-1]) * slots
        self.mask = slots - 1
        keys = self.keys
        for entry in range(len(self.seconds)):
            self.slots[self._slot(keys[2 * entry], keys[2 * entry + 1])[0]] = entry

    @staticmethod
    def digest(code: str) -> tuple[int, int]:
        d = hashlib.blake2b(code.encode("utf-8", "surrogatepass"), digest_size=16).digest()
        n = int.from_bytes(d, "little")
        return n >> 64, n & 0xFFFF_FFFF_FFFF_FFFF

    def _slot(self, hi: int, lo: int) -> tuple[int, int]:
        """The slot of the digest ``(hi, lo)`` and its entry; or the empty slot where it would
        go, and -1."""
        slots, keys, mask = self.slots, self.keys, self.mask
        i = hi & mask
        while True:
            entry = slots[i]
            if entry < 0 or (keys[2 * entry] == hi and keys[2 * entry + 1] == lo):
                return i, entry
            i = (i + 1) & mask

    def find(self, code: str) -> int:
        """The entry of ``code``; -1 when it has none."""
        return self._slot(*self.digest(code))[1]

    def put(self, code: str, where: int, record: dict[str, Any] | None = None) -> int:
        """Keep ``code``: its ``record`` read back from where it begins in the output file
        (again: the later record of a deal counts), or, with no record, a deal the plan gives to
        be solved (met). Its entry."""
        if record is None:
            figures, seconds, flags = (where, -1, -1, -1), 0.0, (1, 0)
        else:
            result = record["result"]
            moves = record.get("moves")
            bound = record.get("lower_bound")
            figures = (
                where,
                -1 if moves is None else moves,
                -1 if bound is None else bound,
                measure(record) if result == "won" else -1,
            )
            seconds, flags = float(record.get("seconds") or 0.0), (0, SOLVE_RESULTS.index(result))
        hi, lo = self.digest(code)
        slot, entry = self._slot(hi, lo)
        if entry >= 0:  # a deal recorded again: the later record
            self.figures[4 * entry : 4 * entry + 4] = array("q", figures)
            self.seconds[entry] = seconds
            self.flags[2 * entry : 2 * entry + 2] = bytes(flags)
            return entry
        entry = len(self.seconds)
        self.slots[slot] = entry
        self.keys.extend((hi, lo))
        self.figures.extend(figures)
        self.seconds.append(seconds)
        self.flags.extend(flags)
        if (entry + 1) * 2 > self.mask + 1:
            self._index((self.mask + 1) * 2)
        return entry

    def where(self, entry: int) -> int:
        return self.figures[4 * entry]

    def met(self, entry: int) -> bool:
        return bool(self.flags[2 * entry])

    def meet(self, entry: int) -> None:
        self.flags[2 * entry] = 1

    def result(self, entry: int) -> str:
        return SOLVE_RESULTS[self.flags[2 * entry + 1]]

    def __len__(self) -> int:
        return len(self.seconds)


def _or(value: int | None, none: int) -> int:
    return none if value is None else value


# ------------------------------------------------------------------------- the output file


class Output:
    """The output file: a regular file, locked for this sweep alone, read back record by record
    (resuming), then appended to, each record written whole at once."""

    def __init__(self, path: str, fd: int) -> None:
        self.path = path
        self.fd = fd

    @classmethod
    def open(cls, path: str) -> Output:
        """``path`` opened, or ``OutputError``/``InputError`` at once, before anything is solved:
        a folder, a FIFO, a device, a socket, a file that cannot be read or written, or one that
        another sweep holds (an exclusive lock, ``flock``, taken without waiting)."""
        if os.path.isdir(path):
            raise OutputError(N_("{file}: cannot be written: it is a folder", file=path))
        try:
            fd = open_to_append(path)
        except NotRegularFile as err:
            raise OutputError(located(path, None, message_of(err))) from err
        except PermissionError as err:
            if os.path.exists(path) and not os.access(path, os.R_OK):
                why = N_("cannot be read: {reason}", reason=err.strerror or message_of(err))
                raise InputError(why, path=path) from err
            raise unwritable(path, err) from err
        except OSError as err:
            raise unwritable(path, err) from err
        try:
            _lock(fd, path)
        except BaseException:
            os.close(fd)
            raise
        return cls(path, fd)

    def read(
        self, done: Done, check: Callable[[dict[str, Any]], str | None] | None = None
    ) -> str | None:
        """Read the records already there into ``done`` (each code and where its record begins;
        a code recorded twice: the later record), streamed, a line at a time; a note when the
        last line was cut short (a killed run): a cut line that is still a whole record is kept
        (its line break put back), one that is not is removed from the file. A line that is not
        a record as a sweep writes it, or that ``check`` finds a fault in, is ``InputError``
        naming the file and the line: the file is not a sweep's, or was edited."""
        number = 0
        tail: tuple[int, bytes] | None = None
        try:
            for offset, line, ended in lines_of(self.fd, MAX_RECORD_BYTES):
                number += 1
                if not ended:
                    tail = (offset, line)
                    break
                if line.strip():
                    record = self._checked(line, number, check)
                    done.put(record["game"], offset, record)
        except LineTooLong as err:
            raise InputError(
                N_(
                    "not a sweep record: the line is longer than {limit:,} bytes",
                    limit=MAX_RECORD_BYTES,
                ),
                path=self.path,
                line=number + 1,
            ) from err
        except OSError as err:
            why = N_("cannot be read: {reason}", reason=err.strerror or message_of(err))
            raise InputError(why, path=self.path) from err
        if tail is None or not tail[1].strip():
            return None
        offset, line = tail
        try:
            _json(line)
        except (ValueError, RecursionError):  # cut short: removed, and its deal solved again
            self._repair(lambda: os.ftruncate(self.fd, offset))
            return N_(
                "{file}: its last line was cut short (a run that was stopped while writing?): "
                "removed, and that deal is solved again",
                file=self.path,
            )
        record = self._checked(line, number, check)  # whole: only its line break is missing
        self._repair(lambda: self._write_all(b"\n"))
        done.put(record["game"], offset, record)
        return None

    def _checked(
        self, line: bytes, number: int, check: Callable[[dict[str, Any]], str | None] | None
    ) -> dict[str, Any]:
        try:
            record = parse_record(line)
        except NotRecord as err:
            raise InputError(err.message, path=self.path, line=number) from err
        problem = None if check is None else check(record)
        if problem is not None:
            raise InputError(
                N_(
                    "the record of {game} does not hold: {problem}; it is not certified (remove "
                    "the line, and the deal is solved again)",
                    game=record["game"],
                    problem=problem,
                ),
                path=self.path,
                line=number,
            )
        return record

    def record_at(self, offset: int, code: str) -> dict[str, Any]:
        """The record of ``code`` read back at ``offset`` (where ``read`` found it)."""
        try:
            line = line_at(self.fd, offset, MAX_RECORD_BYTES)
            record = None if line is None else parse_record(line)
        except (NotRecord, OSError):
            record = None
        if record is None or record["game"] != code:
            raise InputError(
                N_(
                    "changed while this sweep was reading it (the record of {game} is no longer "
                    "where it was); run the sweep again",
                    game=code,
                ),
                path=self.path,
            )
        return record

    def write(self, record: dict[str, Any]) -> None:
        """Append ``record``'s line, whole, at once."""
        try:
            self._write_all(record_line(record).encode("utf-8", "backslashreplace"))
        except OSError as err:
            raise unwritable(self.path, err) from err

    def _write_all(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd, view) :]

    def _repair(self, change: Callable[[], object]) -> None:
        try:
            change()
        except OSError as err:
            raise unwritable(self.path, err) from err

    def close(self) -> None:
        os.close(self.fd)


def _lock(fd: int, path: str) -> None:
    """Hold ``fd``'s file for this sweep alone (``flock``, not waiting): ``OutputError`` when
    another sweep holds it. Where there is no ``flock`` (Windows) or the file system has no locks,
    nothing is held."""
    try:  # not on Windows
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as err:
        if err.errno not in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES):
            return  # a file system without locks (some network ones): none to take
        raise OutputError(
            N_(
                "{file}: another sweep is writing its records to this file (it holds the file's "
                "lock); wait for it to end, or give this one another -o file",
                file=path,
            )
        ) from err


# ----------------------------------------------------------------------------- the summary


class SweepTally:
    """The sweep's records so far (those of an earlier run included), kept as what the summary
    and the manifest need: counts, the moves and gaps of the wins in arrays, the search's
    seconds, and, for a manifest, each deal won (its code, difficulty and moves) in the order of
    the plan."""

    def __init__(self, manifest: bool = False) -> None:
        self.counts: dict[str, int] = dict.fromkeys(SOLVE_RESULTS, 0)
        self.moves = array("q")
        self.gaps = array("q")
        self.search = 0.0
        self.earlier = 0  # records read from the output file
        self.started = time.monotonic()
        # For a manifest: each deal of the sweep met so far, in the plan's order, with (states
        # to its win, moves) once won; None while it is solved.
        self.won: dict[str, tuple[int, int] | None] | None = {} if manifest else None

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def expect(self, code: str) -> None:
        """``code`` is being solved (its place in the manifest's order)."""
        if self.won is not None:
            self.won[code] = None

    def add(self, code: str, record: dict[str, Any]) -> None:
        """A record made by this sweep."""
        won = record["result"] == "won"
        self.count_in(
            code,
            record["result"],
            _or(record.get("moves"), -1),
            _or(record.get("lower_bound"), -1),
            float(record.get("seconds") or 0.0),
            measure(record) if won else 0,
        )

    def add_earlier(self, code: str, done: Done, entry: int) -> None:
        """A record read back from the output file (``done``'s ``entry``)."""
        self.earlier += 1
        _where, moves, bound, states = done.figures[4 * entry : 4 * entry + 4]
        self.count_in(code, done.result(entry), moves, bound, done.seconds[entry], states)

    def count_in(
        self, code: str, result: str, moves: int, bound: int, seconds: float, states: int
    ) -> None:
        """A deal's record: its result, moves and lower bound (-1: none), seconds and states to
        its win."""
        self.counts[result] += 1
        self.search += seconds
        if moves >= 0:
            self.moves.append(moves)
            if bound >= 0:
                self.gaps.append(moves - bound)
        if self.won is None:
            return
        if result == "won":
            self.won[code] = (states, moves)
        else:
            self.won.pop(code, None)

    def count(self, result: str) -> int:
        return self.counts[result]

    def summary(self) -> str:
        """``40 deals: 38 won, 1 unwinnable, 1 gave up; median 112 moves, median gap -; 2.31 s a
        deal (92.4 s of search, 47.0 s elapsed)``."""
        total = self.total
        head = ngettext(
            "{total} deal: {won} won, {unwinnable} unwinnable, {gave_up} gave up",
            "{total} deals: {won} won, {unwinnable} unwinnable, {gave_up} gave up",
            total,
        ).format(
            total=total,
            won=self.count("won"),
            unwinnable=self.count("unwinnable"),
            gave_up=self.count("gave-up"),
        )
        median_moves = in_language(statistics.median(self.moves), "g") if self.moves else "-"
        median_gap = in_language(statistics.median(self.gaps), "g") if self.gaps else "-"
        each = self.search / total if total else 0.0
        tail = _(
            "median {moves} moves, median gap {gap}; {each:.2f} s a deal ({search:.1f} s of "
            "search, {elapsed:.1f} s elapsed)"
        ).format(
            moves=median_moves,
            gap=median_gap,
            each=each,
            search=self.search,
            elapsed=time.monotonic() - self.started,
        )
        text = f"{head}; {tail}"
        if self.earlier:
            text += " " + ngettext(
                "({n} record from an earlier run)",
                "({n} records from an earlier run)",
                self.earlier,
            ).format(n=self.earlier)
        return text


def measure(record: dict[str, Any]) -> int:
    """A won record's difficulty: the states searched to its first win (all its states when it
    does not say)."""
    first = record.get("states_to_win")
    return int(record.get("states") or 0) if first is None else int(first)


# ---------------------------------------------------------------------------- the manifest


def certificate_path(manifest: str, code: str) -> str:
    return os.path.join(os.path.dirname(manifest), "certificates", f"{code}.yaml")


def write_certificate(manifest: str, record: dict[str, Any]) -> None:
    """A won record's log, beside the manifest (``certificates/<code>.yaml``)."""
    if record["result"] != "won" or not isinstance(record.get("log"), str):
        return

    path = certificate_path(manifest, record["game"])
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write_atomic(path, record["log"])
    except OSError as err:
        raise unwritable(path, err) from err


def manifest_text(won: list[tuple[str, int, int]], deals: int, budget: str) -> str | None:
    """The tournament manifest of the deals ``won`` (code, states to the win, moves; in the
    sweep's order) of a sweep of ``deals`` deals; None when none was. Beside each deal, the
    solver's effort (its states to the first win, its line's moves), which is no grade: a deal's
    grade comes from the fair player (docs/fair.md)."""
    if not won:
        return None
    lines = [
        f"# The winnable deals of a spidercli sweep: {len(won)} of {deals} deals won",
        f"# ({RULES} rules; a budget of {budget} a deal).",
        "# Beside each deal: the positions the solver searched to its first win and its line's",
        "# moves, the solver's effort, not how hard a person finds the deal (spidercli deals SET",
        "# --pick writes manifests of PySol's deals graded by the fair player).",
        "# Each deal's winning log is in certificates/<code>.yaml beside this file;",
        "# spidercli replay verifies it.",
        f"rules: {RULES}",
        "deals:",
    ]
    for code, n, moves in won:
        lines.append(f"  - {code}  # {n:,} states to a win, {moves} moves")
    return "\n".join(lines) + "\n"


__all__ = [
    "FIELDS",
    "MAX_RECORD_BYTES",
    "NOT_JSON",
    "DealTask",
    "Done",
    "NotRecord",
    "Output",
    "SweepTally",
    "certificate_path",
    "certificate_problem",
    "failed",
    "manifest_text",
    "measure",
    "parse_record",
    "record_line",
    "record_of",
    "record_problem",
    "solve_deal",
    "worker_died",
    "write_certificate",
]
