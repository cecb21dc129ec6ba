"""``spidercli sweep``: solve many deals, one JSON record a deal, resumable, spread over workers
and over machines (``--shard K/N``), and a tournament manifest of the deals won.

The deals: game codes, ranges of numbered deals (``KP4-1..1000``, ``PS4-1..32000``: KPat's and
PySol's plain deal numbers, the only codes that are numbers) and random spidercli codes
(``random_codes``). ``plan`` lists them, takes the shard and leaves out the deals the output file
already has. Each deal is solved by ``solve_deal`` (in a worker process of ``workers.supervised``)
into its record (``record_of``, the one place that knows what the solver returns); the records
are written as they come, one line each, flushed at once.
"""

from __future__ import annotations

import bisect
import json
import os
import re
import statistics
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from spidercli.codes import CodeError, Setup, parse_code, seed_letters, splitmix64_output
from spidercli.errors import InputError, OutputError, unwritable
from spidercli.files import write_atomic
from spidercli.i18n import _, ngettext
from spidercli.i18n import number as in_language
from spidercli.messages import N_, did_you_mean, message_of, quoted, said
from spidercli.proof import default_memory
from spidercli.rules import RULESETS
from spidercli.solution import solve_setup
from spidercli.solving import win_log
from spidercli.workers import supervised, worker_death

RULES = "classic"  # the ruleset a sweep solves under: every code's own game
RESULTS = ("won", "unwinnable", "gave-up")
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
MAX_DEALS = 10_000_000  # deals in one sweep (after --shard), at most: the plan is kept in memory
GRADES = ("easy", "medium", "hard")

_RANGE = re.compile(r"(KP|PS)([0-9])-([0-9]+)\.\.([0-9]+)")
_SHARD = re.compile(r"([0-9]+)/([0-9]+)")


# ------------------------------------------------------------------------------ the deals


@dataclass(frozen=True)
class Span:
    """Numbered deals ``first`` to ``last`` of one app and suit count (``KP4-1..1000``)."""

    prefix: str  # KP or PS
    suits: int
    first: int
    last: int

    @property
    def size(self) -> int:
        """The deals in the span (``len`` cannot say more than ``sys.maxsize``)."""
        return self.last - self.first + 1

    def code(self, i: int) -> str:
        """The code of the ``i``-th deal of the span (from 0)."""
        return f"{self.prefix}{self.suits}-{self.first + i}"


@dataclass(frozen=True)
class Draw:
    """``--random``'s deals: ``count`` codes ``head`` + seven letters, the letters of the
    ``i``-th drawn by the ``i + 1``-th SplitMix64 step from ``seed``. Each code is made when it is
    wanted (SplitMix64's state after n steps is known at once), so a shard of a huge draw costs
    only its own deals."""

    head: str  # the code up to its letters, such as SP4-S1C-
    seed: int
    count: int

    @property
    def size(self) -> int:
        """The deals drawn (``len`` cannot say more than ``sys.maxsize``: ``--random`` can)."""
        return self.count

    def code(self, i: int) -> str:
        """The code of the ``i``-th deal drawn (from 0)."""
        return self.head + seed_letters(splitmix64_output(self.seed, i + 1) % 26**7)


Item = str | Span | Draw  # a canonical game code, a span of numbered deals, or a random draw


def item_size(item: Item) -> int:
    """The deals an item stands for."""
    return 1 if isinstance(item, str) else item.size


def parse_spec(text: str) -> Item:
    """A command-line deal: a game code (its canonical form) or a range; ``InputError`` naming
    it otherwise."""
    upper = text.strip().upper() if text.isascii() else ""
    if ".." in upper:
        m = _RANGE.fullmatch(upper)
        if m is None:
            raise InputError(
                N_(
                    "{spec} is not a range of deals: a range is KP or PS, the suit count, '-' "
                    "and two deal numbers joined by '..', as in KP4-1..1000 or PS4-1..32000 "
                    "(KPat's and PySol's numbered deals are the only ones with ranges)",
                    spec=quoted(text),
                )
            )
        prefix, suits, first, last = m.groups()
        ends = []
        for number in (first, last):
            try:
                ends.append(parse_code(f"{prefix}{suits}-{number}").seed)
            except CodeError as err:
                raise InputError(
                    N_("{spec}: {error}", spec=quoted(text), error=message_of(err))
                ) from err
        if ends[0] > ends[1]:
            raise InputError(
                N_(
                    "{spec} is an empty range: it runs from the smaller number to the larger",
                    spec=quoted(text),
                )
            )
        return Span(prefix, int(suits), ends[0], ends[1])
    try:
        return parse_code(text).canonical
    except CodeError as err:
        raise InputError(message_of(err)) from err


# --game's values: each game's code up to its seed letters (classic move rule; a Spiderette code
# carries its rule letter only when it is P).
RANDOM_GAMES = {"spider": "SP{suits}-S1C-", "spiderette": "SD{suits}-S1-"}


def game_head(game: str) -> str:
    """``--game``'s code head (its ``{suits}`` to fill); ``InputError`` for a game not known."""
    head = RANDOM_GAMES.get(game.lower())
    if head is None:
        raise InputError(
            N_(
                "--game takes spider or spiderette, not {game}{hint}",
                game=quoted(game),
                hint=did_you_mean(game.lower(), RANDOM_GAMES),
            )
        )
    return head


def random_draw(count: int, suits: int, seed: int, game: str = "spider") -> Draw:
    """``count`` codes of ``game`` (``spider`` or ``spiderette``, classic move rule) with
    ``suits`` suits, drawn by SplitMix64 from ``seed``: the same numbers give the same codes on
    every machine (a Spiderette code has the seed letters of the Spider code in its place)."""
    if suits not in (1, 2, 4):
        raise InputError(N_("--suits takes 1, 2 or 4, not {suits}", suits=suits))
    return Draw(game_head(game).format(suits=suits), seed, max(count, 0))


def random_codes(count: int, suits: int, seed: int, game: str = "spider") -> list[str]:
    """``random_draw``'s codes, all of them."""
    draw = random_draw(count, suits, seed, game)
    return [draw.code(i) for i in range(count)]


def parse_shard(text: str) -> tuple[int, int]:
    """``K/N`` (1 <= K <= N): the shard to take; ``InputError`` otherwise."""
    m = _SHARD.fullmatch(text.strip())
    k, n = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
    if not m or n < 1 or not 1 <= k <= n:
        raise InputError(
            N_(
                "--shard {shard}: expected K/N with 1 <= K <= N, as in 3/8 (the third of eight "
                "shards)",
                shard=quoted(text),
            )
        )
    return k, n


def shard_codes(items: Iterable[Item], shard: tuple[int, int] = (1, 1)) -> Iterator[str]:
    """The codes of ``items`` in order, every N-th from the K-th (``shard`` ``(K, N)``): the N
    shards of one list of deals partition it."""
    k, n = shard
    base = 0  # the index of the item's first deal in the whole list
    for item in items:
        size = item_size(item)
        start = (k - 1 - base) % n  # the first index of the item that falls to this shard
        if isinstance(item, str):
            if start == 0:
                yield item
        else:
            for i in range(start, size, n):
                yield item.code(i)
        base += size


# ----------------------------------------------------------------------------- the records


def record_of(setup: Setup, solved: Any, seconds: float) -> dict[str, Any]:
    """A deal's record from what ``solution.solve_setup`` returned: the one place that reads
    the solver's result (``solve --json``'s record, and ``states_to_win``)."""

    won = solved.actions is not None
    result = "won" if won else "unwinnable" if solved.exhaustive else "gave-up"
    progress = solved.progress
    first = progress.first_win if progress.first_win is not None else progress.states
    return {
        "game": setup.name,
        "deal_id": setup.deal_id,
        "rules": RULES,
        "result": result,
        "moves": solved.game.moves if won else None,
        "lower_bound": solved.lower_bound,
        "states": solved.progress.states,
        "seconds": round(seconds, 3),
        "log": win_log(setup, RULESETS[RULES], solved) if won else None,
        "states_to_win": first if won else None,
    }


# (code, timeout, max_states, the proof's budget of bytes: None for proof.default_memory())
Task = tuple[str, float, "int | None", "int | None"]


def solve_deal(task: Task) -> dict[str, Any]:
    """One deal's record (in a worker): whatever happens, a record for this deal alone."""
    code, timeout, max_states, memory = task

    start = time.perf_counter()
    setup = Setup.from_code(parse_code(code))
    try:
        solved = solve_setup(
            setup, RULESETS[RULES], timeout=timeout, max_states=max_states, memory=memory
        )
    except Exception as err:  # a bug, not the deal's fault: say so, and go on
        why = f"internal error: {type(err).__name__}: {err}. Please report it with this deal."
        return failed(code, why, time.perf_counter() - start)
    return record_of(setup, solved, time.perf_counter() - start)


def failed(code: str, error: str, seconds: float = 0.0) -> dict[str, Any]:
    """The record of a deal whose search did not end (the worker died, a bug): ``gave-up``
    with the ``error`` that says why."""
    setup = Setup.from_code(parse_code(code))
    record: dict[str, Any] = dict.fromkeys(FIELDS)
    record.update(game=setup.name, deal_id=setup.deal_id, rules=RULES, result="gave-up")
    record.update(states=0, seconds=round(seconds, 3), error=error)
    return record


def worker_died(task: Task, status: int | None) -> dict[str, Any]:
    """The record of the deal a worker was solving when it died."""

    how = worker_death(status)
    return failed(task[0], f"internal error: the worker process solving this deal {how}.")


def record_line(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False) + "\n"


@dataclass(frozen=True)
class Known:
    """What a sweep keeps of a record: for the summary and the manifest (not the log)."""

    result: str
    moves: int | None
    lower_bound: int | None
    states: int
    seconds: float
    states_to_win: int | None = None

    @property
    def measure(self) -> int:
        """The difficulty measure: the states searched to the first win (all the states of a
        record that does not say)."""
        return self.states if self.states_to_win is None else self.states_to_win

    @classmethod
    def of(cls, record: dict[str, Any]) -> Known:
        return cls(
            record["result"],
            record.get("moves"),
            record.get("lower_bound"),
            int(record.get("states") or 0),
            float(record.get("seconds") or 0.0),
            record.get("states_to_win"),
        )


def _is_record(value: object) -> bool:
    return (
        isinstance(value, dict)
        and isinstance(value.get("game"), str)
        and value.get("result") in RESULTS
    )


def read_records(
    path: str, on_record: Callable[[dict[str, Any]], None] | None = None
) -> tuple[dict[str, Known], str | None]:
    """The records already in the output file ``path`` (none when it does not exist), by game
    code, and a note when its last line was cut short (a killed run): a cut line that is still
    a whole record is kept (its line ended), one that is not is removed from the file. A line
    before the last that is not a record is ``InputError`` (naming the file and the line):
    the file is not a sweep's. ``on_record`` sees each whole record (the certificates)."""
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below, after the repair
    except FileNotFoundError:
        return {}, None
    except OSError as err:
        why = N_("cannot be read: {reason}", reason=err.strerror or message_of(err))
        raise InputError(why, path=path) from err
    known: dict[str, Known] = {}
    note = None
    with handle:
        try:
            data = handle.read()
        except OSError as err:
            why = N_("cannot be read: {reason}", reason=err.strerror or message_of(err))
            raise InputError(why, path=path) from err
    lines = data.split(b"\n")
    tail = lines.pop()  # after the last newline: empty unless the last line was cut
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        record = _record_or_none(line)
        if record is None:
            raise InputError(
                N_(
                    "not a sweep record: each line of a sweep's output is one JSON record "
                    "with 'game' and 'result'; name a new file or this one's sweep's"
                ),
                path=path,
                line=number,
            )
        known[record["game"]] = Known.of(record)
        if on_record is not None:
            on_record(record)
    if tail.strip():
        record = _record_or_none(tail)
        try:
            with open(path, "r+b") as repair:
                if record is not None:  # whole, only its newline missing
                    repair.seek(0, os.SEEK_END)
                    repair.write(b"\n")
                else:
                    repair.truncate(len(data) - len(tail))
        except OSError as err:
            raise unwritable(path, err) from err
        if record is not None:
            known[record["game"]] = Known.of(record)
            if on_record is not None:
                on_record(record)
        else:
            note = N_(
                "{file}: its last line was cut short (a run that was stopped while writing?): "
                "removed, and that deal is solved again",
                file=path,
            )
    return known, note


def _record_or_none(line: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if _is_record(value) else None


# ----------------------------------------------------------------------------- the summary


@dataclass
class Tally:
    """The sweep's records so far (those of an earlier run included)."""

    known: dict[str, Known] = field(default_factory=dict)
    earlier: int = 0  # records read from the output file
    started: float = field(default_factory=time.monotonic)

    def add(self, code: str, record: dict[str, Any]) -> None:
        self.known[code] = Known.of(record)

    def count(self, result: str) -> int:
        return sum(1 for k in self.known.values() if k.result == result)

    def summary(self) -> str:
        """``40 deals: 38 won, 1 unwinnable, 1 gave up; median 112 moves, median gap -; 2.31 s a
        deal (92.4 s of search, 47.0 s elapsed)``."""

        values = list(self.known.values())
        moves = [k.moves for k in values if k.moves is not None]
        gaps = [
            k.moves - k.lower_bound
            for k in values
            if k.moves is not None and k.lower_bound is not None
        ]
        search = sum(k.seconds for k in values)
        head = ngettext(
            "{total} deal: {won} won, {unwinnable} unwinnable, {gave_up} gave up",
            "{total} deals: {won} won, {unwinnable} unwinnable, {gave_up} gave up",
            len(values),
        ).format(
            total=len(values),
            won=self.count("won"),
            unwinnable=self.count("unwinnable"),
            gave_up=self.count("gave-up"),
        )
        median_moves = in_language(statistics.median(moves), "g") if moves else "-"  # 31,5 in cs
        median_gap = in_language(statistics.median(gaps), "g") if gaps else "-"
        each = search / len(values) if values else 0.0
        tail = _(
            "median {moves} moves, median gap {gap}; {each:.2f} s a deal ({search:.1f} s of "
            "search, {elapsed:.1f} s elapsed)"
        ).format(
            moves=median_moves,
            gap=median_gap,
            each=each,
            search=search,
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


# ---------------------------------------------------------------------------- the manifest


def grades(states: list[int]) -> Callable[[int], str]:
    """The grade of a deal won after ``n`` states, in thirds of ``states`` (the deals won):
    a deal's grade is that of the first deal with as many states in sorted order, so equal
    searches share a grade."""
    ordered = sorted(states)

    def grade(n: int) -> str:
        rank = bisect.bisect_left(ordered, n)
        return GRADES[rank * len(GRADES) // len(ordered)]

    return grade


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


def manifest_text(codes: list[str], tally: Tally, budget: str) -> str | None:
    """The tournament manifest of the deals won among ``codes``, graded; None when none was."""
    won = [(c, tally.known[c]) for c in dict.fromkeys(codes) if c in tally.known]
    won = [(c, k) for c, k in won if k.result == "won"]
    if not won:
        return None
    grade = grades([k.measure for _code, k in won])
    most: dict[str, int] = {}
    for _code, k in won:
        most[grade(k.measure)] = max(most.get(grade(k.measure), 0), k.measure)
    bounds = ", ".join(f"{g} up to {most[g]:,}" for g in GRADES if g in most)
    lines = [
        f"# The winnable deals of a spidercli sweep: {len(won)} of {len(codes)} deals won",
        f"# ({RULES} rules; a budget of {budget} a deal).",
        "# Difficulty: the positions the solver searched to its first win, graded in thirds over",
        "# these deals (equal searches share a grade):",
        f"# {bounds}.",
        "# Each deal's winning log is in certificates/<code>.yaml beside this file;",
        "# spidercli replay verifies it.",
        f"rules: {RULES}",
        "deals:",
    ]
    for code, k in won:
        lines.append(
            f"  - {code}  # {grade(k.measure)}: {k.measure:,} states to a win, {k.moves} moves"
        )
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------- the sweep


@dataclass
class Plan:
    """The deals of a sweep (after ``--shard``), those still to solve, and the tally so far."""

    codes: list[str]
    todo: list[str]
    tally: Tally
    note: str | None = None


def plan(
    items: list[Item],
    shard: tuple[int, int],
    output: str | None,
    on_record: Callable[[dict[str, Any]], None] | None = None,
) -> Plan:
    """The sweep's deals, and those the output file does not have yet. More than ``MAX_DEALS``
    in the shard are refused before any is made."""
    k, n = shard
    total = sum(item_size(item) for item in items)
    if (total - k) // n + 1 > MAX_DEALS:  # the shard's deals: indices k - 1, k - 1 + n, ...
        raise InputError(
            N_(
                "a sweep takes at most {limit:,} deals; spread it over shards (--shard K/N)",
                limit=MAX_DEALS,
            )
        )
    codes = list(shard_codes(items, shard))
    tally = Tally()
    note = None
    if output is not None:
        wanted = set(codes)

        def mine(record: dict[str, Any]) -> None:
            if record["game"] in wanted and on_record is not None:
                on_record(record)

        known, note = read_records(output, mine)
        tally.known = {c: k for c, k in known.items() if c in wanted}
        tally.earlier = len(tally.known)
    todo = [c for c in dict.fromkeys(codes) if c not in tally.known]  # a deal given twice: once
    return Plan(codes, todo, tally, note)


def records(
    codes: list[str], *, timeout: float, max_states: int | None, jobs: int
) -> Iterator[dict[str, Any]]:
    """Each deal's record as it is made: in this process (``jobs`` 1), else in ``jobs``
    workers, each record as soon as its worker has it. The workers share the compiled proof
    search's budget of memory (``proof.default_memory()``): each of the ``min(jobs, deals)``
    started may hold that share of it, so a sweep whose hardest deals reach the proof at once
    holds no more than one ``solve`` would. (The pure Python proof search ignores the budget and
    stops at ``proof.MAX_POSITIONS``, about 1 GB, in each worker.)"""
    many = jobs > 1 and hasattr(os, "fork")
    memory = default_memory() // max(min(jobs, len(codes)), 1) if many else None
    tasks = ((code, timeout, max_states, memory) for code in codes)
    if not many:
        for task in tasks:
            yield solve_deal(task)
        return

    yield from supervised(tasks, jobs, solve_deal, worker_died, ordered=False)


class Sink:
    """Where the records go: a file opened to append (each record flushed as it is written), or
    standard output."""

    def __init__(self, out: IO[str], path: str | None) -> None:
        self.out = out
        self.path = path

    @classmethod
    def open(cls, path: str) -> Sink:
        try:
            return cls(open(path, "a", encoding="utf-8"), path)
        except OSError as err:
            raise unwritable(path, err) from err

    def write(self, record: dict[str, Any]) -> None:
        try:
            self.out.write(record_line(record))
            self.out.flush()
        except OSError as err:
            if self.path is None:
                raise
            raise unwritable(self.path, err) from err

    def close(self) -> None:
        if self.path is not None:
            self.out.close()


def check_output(path: str) -> None:
    """``OutputError`` when ``path`` cannot take records (a folder, no permission)."""
    if os.path.isdir(path):
        raise OutputError(N_("{file}: cannot be written: it is a folder", file=path))


class LiveLine:
    """The progress line on a terminal: rewritten in place after each record, cleared at the
    end. Off a terminal it says nothing (the summary comes at the end)."""

    def __init__(self, stream: IO[str], total: int) -> None:
        self.stream = stream
        self.on = stream.isatty()
        self.total = total
        self.done = 0

    def tick(self, tally: Tally) -> None:
        self.done += 1
        if not self.on:
            return

        line = _(
            "sweep: {done} of {total} deals, {won} won, {unwinnable} unwinnable, {gave_up} gave up"
        ).format(
            done=self.done,
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


def run_sweep(
    specs: list[str],
    *,
    timeout: float,
    max_states: int | None = None,
    jobs: int = 1,
    output: str | None = None,
    shard: str | None = None,
    manifest: str | None = None,
    random: int | None = None,
    suits: int | None = None,
    seed: int | None = None,
    game: str | None = None,
    stdout: IO[str],
    stderr: IO[str],
) -> int:
    """``spidercli sweep``: the records on ``output`` (a file, appended to and resumed) or
    ``stdout``, progress and the summary on ``stderr``; the exit status (0 done, 1 a manifest
    with no deal won, 130 interrupted). ``InputError`` / ``OutputError`` for what cannot be
    used, before any deal is solved (or, for output, when it cannot be written)."""

    if random is None and (suits is not None or seed is not None or game is not None):
        raise InputError(N_("--suits, --seed and --game go with --random N (random deals)"))
    if random is not None and suits is None:
        raise InputError(N_("--random needs --suits: 1, 2 or 4"))
    if game is not None:
        game_head(game)  # refused before any code is read
    if not specs and random is None:
        raise InputError(
            N_(
                "no deals to sweep: name game codes, ranges (KP4-1..1000, PS4-1..32000) or "
                "--random N --suits S"
            )
        )
    items: list[Item] = [parse_spec(spec) for spec in specs]
    if random is not None and suits is not None:
        game = "spider" if game is None else game
        items.append(random_draw(random, suits, 0 if seed is None else seed, game))
    where = parse_shard(shard) if shard is not None else (1, 1)
    if output is not None:
        check_output(output)
    if manifest is not None:
        if os.path.isdir(manifest):
            raise OutputError(N_("{file}: cannot be written: it is a folder", file=manifest))
        folder = os.path.dirname(certificate_path(manifest, "-"))
        try:  # before any deal is solved: a folder that cannot be made is said at once
            os.makedirs(folder, exist_ok=True)
        except OSError as err:
            raise unwritable(folder, err) from err

    def certify(record: dict[str, Any]) -> None:
        if manifest is not None:
            write_certificate(manifest, record)

    planned = plan(items, where, output, certify)
    tally = planned.tally
    if planned.note is not None:
        stderr.write(f"spidercli: {said(planned.note)}\n")
    sink = Sink.open(output) if output is not None else Sink(stdout, None)
    live = LiveLine(stderr, len(planned.todo))
    interrupted = False
    try:
        for record in records(planned.todo, timeout=timeout, max_states=max_states, jobs=jobs):
            sink.write(record)
            certify(record)
            tally.add(record["game"], record)
            live.tick(tally)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        live.close()
        sink.close()
    stderr.write(f"spidercli: sweep: {tally.summary()}\n")  # the command's name, in any language
    if interrupted:
        kept = _("interrupted: every finished record is kept")
        stderr.write(f"spidercli: {kept}\n")
        return 130
    if manifest is None:
        return 0
    budget = f"{timeout:g} s" + ("" if max_states is None else f" or {max_states:,} states")
    text = manifest_text(planned.codes, tally, budget)
    if text is None:
        none = _("no deal was won: no manifest written")
        stderr.write(f"spidercli: {none}\n")
        return 1

    try:
        write_atomic(manifest, text)
    except OSError as err:
        raise unwritable(manifest, err) from err
    return 0


__all__ = [
    "FIELDS",
    "GRADES",
    "RESULTS",
    "Draw",
    "Known",
    "Plan",
    "Sink",
    "Span",
    "Tally",
    "certificate_path",
    "grades",
    "manifest_text",
    "parse_shard",
    "parse_spec",
    "plan",
    "random_codes",
    "random_draw",
    "read_records",
    "record_of",
    "records",
    "run_sweep",
    "shard_codes",
    "solve_deal",
    "write_certificate",
]
