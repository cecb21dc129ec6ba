"""The settled table: PySol's numbered Spider deals, each won (with the line that wins it, a
certificate anyone can replay), proven unwinnable (with its proof), or not yet settled.

The table ships inside the package as one compressed text file a set
(``spidercli/sweeps/tables/PS4.txt.xz``: PySol's 4-suit deals 1-32000), made from ``spidercli
sweep``'s records by ``python -m tests.tools.table build`` (``make table``; docs/deals.md). A file
is lines of words separated by blanks, after a header of ``#`` lines (``# set``, ``# title``, ``#
deals FIRST LAST``, ``# made ...``); one line a deal settled or tried, in increasing order::

    17 won 174 55 - deal deal 5>3 8>3 1>8 ...
    1748 unwinnable - - - lock 6
    2036 unknown - 61 - gave-up 600

the deal's number, its result, the moves of its line and the lower bound on any win's, its grade
(the fair player's wins of its playouts, ``-`` when not graded), then the line's actions (won),
the proof (unwinnable: ``lock RANK...``, the ranks that can never be face up, or ``search
POSITIONS``, the whole space searched) or what was tried (unknown: ``gave-up SECONDS``, the
sweep's budget). A deal of the set's range with no line is unknown too: nothing was tried yet.

Each certificate is replayed by the tests on every run; an unwinnable deal's proof is what
``spidercli solve`` finds again.
"""

from __future__ import annotations

import lzma
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Literal

from spidercli.game.actions import Action, parse_action
from spidercli.game.codes import Setup, parse_code, splitmix64_output
from spidercli.game.engine import Game
from spidercli.game.rules import CLASSIC
from spidercli.logs.writer import format_log, yaml_quoted
from spidercli.play.replay import figures
from spidercli.solver.grades import Grade
from spidercli.sweeps.plan import RULES
from spidercli.text.i18n import _, ngettext
from spidercli.text.messages import N_, counted, quoted, said
from spidercli.text.words import grade_word, rank_name

if TYPE_CHECKING:
    from importlib.abc import Traversable

TableResult = Literal["won", "unwinnable", "unknown"]
TABLE_RESULTS: tuple[TableResult, ...] = ("won", "unwinnable", "unknown")


class TableError(ValueError):
    """A set or deal the table does not hold, or a table file that is not one."""


@dataclass(frozen=True)
class SetInfo:
    """A set of numbered deals the table can hold: its name (``PS4``), the app's words for it,
    its first and last deal, and the code of deal ``n`` (``PS4-17``)."""

    name: str
    title: str
    first: int
    last: int

    def code(self, n: int) -> str:
        return f"{self.name}-{n}"

    @property
    def size(self) -> int:
        return self.last - self.first + 1


# The sets spidercli's sweeps settle: PySol's plain game numbers 1-32000, 4, 2 and 1 suits.
SETS: dict[str, SetInfo] = {
    "PS4": SetInfo("PS4", N_("PySol's Spider deals, 4 suits"), 1, 32000),
    "PS2": SetInfo("PS2", N_("PySol's Spider deals, 2 suits"), 1, 32000),
    "PS1": SetInfo("PS1", N_("PySol's Spider deals, 1 suit"), 1, 32000),
}


@dataclass(frozen=True)
class Proof:
    """Why a deal cannot be won: a ``lock`` (``ranks``: no card of these ranks can ever be face
    up, so no run can ever be removed) or a ``search`` of the whole space (``positions``)."""

    kind: Literal["lock", "search"]
    ranks: tuple[int, ...] = ()
    positions: int | None = None

    def to_json(self) -> dict[str, object]:
        if self.kind == "lock":
            return {"kind": "lock", "ranks": list(self.ranks)}
        return {"kind": "search", "positions": self.positions}

    def words(self) -> str:
        return (
            " ".join(["lock", *map(str, self.ranks)])
            if self.kind == "lock"
            else (f"search {self.positions}")
        )


@dataclass(frozen=True)
class Settled:
    """One deal as the table holds it (``spidercli deals PS4-17``): its code, its ``result``
    (``won``, ``unwinnable`` or ``unknown``), the moves of its certificate and the lower bound
    on any win's moves (None when unknown), the certificate's ``line`` (its actions; empty
    unless won), the ``proof`` of an unwinnable deal, what was ``tried`` on an unknown one
    (``gave-up 600``: the sweep's budget, in seconds), and its ``grade`` when graded."""

    game: str
    result: TableResult
    moves: int | None = None
    lower_bound: int | None = None
    line: tuple[str, ...] = ()
    proof: Proof | None = None
    tried: str | None = None
    grade: Grade | None = None

    def __repr__(self) -> str:
        moves = "" if self.moves is None else f", {self.moves} moves"
        return f"<Settled {self.game}: {self.result}{moves}>"

    @property
    def number(self) -> int:
        return int(self.game.rpartition("-")[2])

    def setup(self) -> Setup:
        return Setup.from_code(parse_code(self.game))

    def actions(self) -> list[Action]:
        return [parse_action(a) for a in self.line]

    def log(self) -> str | None:
        """The certificate as a move log, in the layout ``spidercli solve -o`` writes, with its
        ``expect`` block (the figures of the win it replays to); None unless won."""
        if self.result != "won":
            return None
        setup = self.setup()
        game = Game.from_setup(setup, CLASSIC)
        done, refusal = game.play_all(self.actions(), record=False)
        if refusal is not None or game.result != "won":  # a table that is not one
            raise TableError(f"{self.game}: its certificate does not win (action {done + 1})")
        return format_log(
            setup,
            list(self.line),
            rules=RULES,
            expect=figures("won", game),
            comment=(
                f"The certificate of {self.game} in spidercli's table of settled deals: "
                f"{game.moves} moves, score {game.score}."
            ),
        )

    def to_json(self) -> dict[str, object]:
        """``spidercli deals CODE --json``'s object."""
        return {
            "game": self.game,
            "result": self.result,
            "moves": self.moves,
            "lower_bound": self.lower_bound,
            "log": self.log(),
            "proof": None if self.proof is None else self.proof.to_json(),
            "grade": None if self.grade is None else self.grade.to_json(),
        }


class Entries(Mapping[int, Settled]):
    """A set's entries by deal number, in the file's order. Every line is read and checked when
    the table is loaded, but a won deal's certificate (some 130 actions) is split into its
    actions only when its entry is asked for, and not kept: a set's summary splits none and a
    deal's entry one (splitting all 32,000 took most of the time to load a set, and keeping them
    split takes some 280 MB: a server answering every deal would grow so). Counting by result
    reads no certificate either."""

    __slots__ = ("_actions", "_counts", "_entries")

    def __init__(self, entries: dict[int, Settled], actions: dict[int, str]) -> None:
        self._entries = entries  # a won deal's entry has its line () here
        self._actions = actions  # a won deal's actions, as the file wrote them
        self._counts: dict[str, int] = {}
        for entry in entries.values():
            self._counts[entry.result] = self._counts.get(entry.result, 0) + 1

    def __getitem__(self, number: int) -> Settled:
        entry = self._entries[number]
        if entry.result == "won":  # some 20 microseconds a time
            return replace(entry, line=tuple(self._actions[number].split()))
        return entry

    def __iter__(self) -> Iterator[int]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, number: object) -> bool:
        return number in self._entries

    def count(self, result: TableResult) -> int:
        """The entries with this result (deals with no line are not entries)."""
        return self._counts.get(result, 0)

    def numbers(self, result: TableResult) -> list[int]:
        """The deals with this result, in increasing order."""
        return sorted(n for n, e in self._entries.items() if e.result == result)


@dataclass(frozen=True)
class DealSet:
    """A set of the table (``spidercli deals PS4``): what it is, how many of its deals are
    won, proven unwinnable and not settled, whether every one is settled (``complete``), and
    each deal's entry by number (``entries``)."""

    info: SetInfo
    made: str
    entries: Entries = field(repr=False)

    def __repr__(self) -> str:
        return (
            f"<DealSet {self.name}: {self.won} won, {self.unwinnable} unwinnable, "
            f"{self.unknown} unknown of {self.deals}>"
        )

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def deals(self) -> int:
        return self.info.size

    def count(self, result: TableResult) -> int:
        if result == "unknown":
            return self.deals - self.won - self.unwinnable
        return self.entries.count(result)

    @property
    def won(self) -> int:
        return self.count("won")

    @property
    def unwinnable(self) -> int:
        return self.count("unwinnable")

    @property
    def unknown(self) -> int:
        return self.count("unknown")

    @property
    def complete(self) -> bool:
        return self.unknown == 0

    def get(self, number: int) -> Settled:
        """Deal ``number``'s entry: unknown (nothing tried) when the table has no line for it."""
        if not self.info.first <= number <= self.info.last:
            raise TableError(
                N_(
                    "{deal} is not in the table's set {set} (deals {first}-{last})",
                    deal=self.info.code(number),
                    set=self.name,
                    first=self.info.first,
                    last=self.info.last,
                )
            )
        entry = self.entries.get(number)
        return entry if entry is not None else Settled(self.info.code(number), "unknown")

    def __iter__(self) -> Iterator[Settled]:
        for n in range(self.info.first, self.info.last + 1):
            yield self.get(n)

    def won_numbers(self) -> list[int]:
        return self.entries.numbers("won")

    def to_json(self) -> dict[str, object]:
        """``spidercli deals SET --json``'s object."""
        return {
            "set": self.name,
            "deals": self.deals,
            "won": self.won,
            "unwinnable": self.unwinnable,
            "unknown": self.unknown,
            "complete": self.complete,
        }


# ------------------------------------------------------------------------- the files


def parse_line(info: SetInfo, line: str, where: str) -> Settled:
    """One deal's line of a table file (see the module's docstring)."""
    entry, actions = _parse_line(info, line, where)
    return replace(entry, line=tuple(actions.split())) if entry.result == "won" else entry


def _parse_line(info: SetInfo, line: str, where: str) -> tuple[Settled, str]:
    """One deal's line, checked whole, as its entry and a won deal's actions as written (the
    entry's ``line`` left empty: ``Entries`` splits it when asked for)."""
    words = line.split(None, 5)
    try:
        number, result, moves, bound, grade = words[:5]
        rest = words[5] if len(words) > 5 else ""
        n = _count(number, 1)
        if result == "won":
            if not rest:
                raise ValueError("a won deal without its line")
            won_in, least = _count(moves, 1), _count(bound, 0)
            if least > won_in:
                raise ValueError(f"a lower bound {least} over the line's {won_in} moves")
            return Settled(info.code(n), "won", won_in, least, grade=_grade(grade)), rest
        if result == "unwinnable":
            if (moves, bound, grade) != ("-", "-", "-"):
                raise ValueError("an unwinnable deal with moves, a bound or a grade")
            kind, *args = rest.split() or [""]
            if kind == "lock" and args:
                ranks = tuple(_count(a, 1) for a in args)
                if len(set(ranks)) < len(ranks):
                    raise ValueError(f"a lock naming a rank twice: {args}")
                if max(ranks) > 13:
                    raise ValueError(f"a lock on a rank past 13: {max(ranks)}")
                proof = Proof("lock", ranks=ranks)
            elif kind == "search" and len(args) == 1:
                proof = Proof("search", positions=_count(args[0], 1))
            else:
                raise ValueError(f"a proof that is not 'lock RANK...' or 'search N': {rest!r}")
            return Settled(info.code(n), "unwinnable", proof=proof), ""
        if result == "unknown":
            if moves != "-":
                raise ValueError("an unknown deal with a line's moves")
            tried = " ".join(rest.split()) or None
            if tried is not None and tried.startswith("gave-up"):
                _count(tried.removeprefix("gave-up").strip(), 0)  # the seconds given
            settled = Settled(
                info.code(n),
                "unknown",
                lower_bound=None if bound == "-" else _count(bound, 0),
                tried=tried,
                grade=_grade(grade),
            )
            return settled, ""
        raise ValueError(f"unknown result {result!r}")
    except ValueError as err:
        raise TableError(f"{where}: not a line of the table: {err}") from err


def _count(word: str, least: int) -> int:
    """A plain decimal count of at least ``least``; ``ValueError`` for anything else."""
    if not (word.isascii() and word.isdigit()) or int(word) < least:
        raise ValueError(f"{word!r} is not a count of at least {least}")
    return int(word)


def _grade(word: str) -> Grade | None:
    if word == "-":
        return None
    wins, _, playouts = word.partition("/")
    return Grade(_count(wins, 0), _count(playouts, 1))


def read_table(info: SetInfo, text: str, where: str) -> DealSet:
    """A table file's text (decompressed) as the set it holds."""
    entries: dict[int, Settled] = {}
    actions: dict[int, str] = {}
    last = 0  # the lines go in increasing order
    made = ""
    for i, line in enumerate(text.splitlines(), 1):
        if line.startswith("#"):
            key, _, value = line[1:].strip().partition(" ")
            if key == "made":
                made = value
            elif key == "set" and value != info.name:
                raise TableError(f"{where}:{i}: the table of {value}, not of {info.name}")
            continue
        if not line.strip():
            continue
        entry, line_actions = _parse_line(info, line, f"{where}:{i}")
        number = entry.number
        if not info.first <= number <= info.last or number <= last:
            raise TableError(
                f"{where}:{i}: deal {number} is out of range, repeated or out of order"
            )
        last = number
        entries[number] = entry
        if line_actions:  # a won deal's
            actions[number] = line_actions
    return DealSet(info, made, Entries(entries, actions))


def table_path(name: str) -> Traversable:
    return resources.files("spidercli.sweeps") / "tables" / f"{name}.txt.xz"


@cache
def deal_set(name: str) -> DealSet:
    """The table's set ``name`` (``PS4``); ``TableError`` for a set it does not hold."""
    info = SETS.get(name.upper())
    path = table_path(info.name) if info is not None else None
    if info is None or path is None or not path.is_file():
        raise TableError(
            N_(
                "{set} is not in spidercli's table of settled deals (it holds {held}); "
                "spidercli sweep settles any deals, e.g. spidercli sweep PS4-1..100",
                set=quoted(name),
                held=", ".join(held()) or "none",
            )
        )
    text = lzma.decompress(path.read_bytes()).decode("utf-8")
    return read_table(info, text, f"spidercli/sweeps/tables/{info.name}.txt.xz")


def held() -> list[str]:
    """The sets the installed table holds, in ``SETS``' order."""
    return [name for name in SETS if table_path(name).is_file()]


def split_code(code: str) -> tuple[str, int]:
    """``PS4-17`` as its set and number (``('PS4', 17)``); ``TableError`` when it is none."""
    head, sep, number = code.strip().upper().rpartition("-")
    if not sep or not number.isascii() or not number.isdigit():
        raise TableError(N_("{code} is not a set's deal such as PS4-17", code=quoted(code)))
    digits = number.lstrip("0") or "0"  # int() stops at 4,300 digits, zeros included
    if len(digits) > 18:  # no set goes so far
        raise TableError(
            N_("{code} is not in the table: no set has a deal numbered so high", code=quoted(code))
        )
    return head, int(digits)


def settled(code: str) -> Settled:
    """The table's entry of one deal (``PS4-17``)."""
    name, number = split_code(code)
    return deal_set(name).get(number)


# ------------------------------------------------------------------------- picking deals


def shuffled(numbers: list[int], seed: int) -> Iterator[int]:
    """``numbers`` in a random order drawn from ``seed`` alone, the same on every machine: a
    Fisher-Yates shuffle from the front by SplitMix64, yielded as it goes (so taking the first
    N costs N steps)."""
    pool = list(numbers)
    for i in range(len(pool)):
        x = splitmix64_output(seed, i + 1)
        j = i + ((x * (len(pool) - i)) >> 64)
        pool[i], pool[j] = pool[j], pool[i]
        yield pool[i]


# ---------------------------------------------------------------------------- the words


def set_text(table: DealSet) -> str:
    """``spidercli deals SET``'s text: the set, and how many of its deals are settled."""
    head = _("{set}: {title}, deals {first}-{last}").format(
        set=table.name,
        title=said(table.info.title),
        first=table.info.first,
        last=table.info.last,
    )
    counts = _("{won:,} won, {unwinnable:,} unwinnable, {unknown:,} not settled").format(
        won=table.won, unwinnable=table.unwinnable, unknown=table.unknown
    )
    state = _("complete: every deal is settled") if table.complete else _("not complete")
    return f"{head}\n{counts}: {state}\n"


def entry_text(entry: Settled) -> str:
    """``spidercli deals CODE``'s text: the deal's result and how to check it."""
    lines: list[str] = []
    if entry.result == "won":
        assert entry.moves is not None
        lines.append(
            ngettext(
                "{deal}: won in {moves:,} move; any win takes at least {bound:,}",
                "{deal}: won in {moves:,} moves; any win takes at least {bound:,}",
                entry.moves,
            ).format(deal=entry.game, moves=entry.moves, bound=entry.lower_bound)
        )
        lines.append(
            _("its certificate: spidercli deals {deal} --log | spidercli replay -").format(
                deal=entry.game
            )
        )
    elif entry.result == "unwinnable":
        proof = entry.proof
        assert proof is not None
        if proof.kind == "lock":
            lines.append(
                ngettext(
                    "{deal}: cannot be won: no card of rank {ranks} can ever be face up, so no "
                    "run can ever be removed",
                    "{deal}: cannot be won: no card of the ranks {ranks} can ever be face up, so "
                    "no run can ever be removed",
                    len(proof.ranks),
                ).format(deal=entry.game, ranks=", ".join(rank_name(r) for r in proof.ranks))
            )
        else:
            lines.append(
                _("{deal}: cannot be won: all {positions:,} positions were searched").format(
                    deal=entry.game, positions=proof.positions
                )
            )
        lines.append(_("its proof: spidercli solve {deal} finds it again").format(deal=entry.game))
    else:
        if entry.tried is not None and entry.tried.startswith("gave-up "):
            seconds = int(entry.tried.split()[1])
            lines.append(
                _("{deal}: not settled: the sweep gave up after {seconds:,} s").format(
                    deal=entry.game, seconds=seconds
                )
            )
        else:
            lines.append(_("{deal}: not settled yet").format(deal=entry.game))
        lines.append(_("spidercli solve {deal} --timeout 600 tries again").format(deal=entry.game))
    if entry.grade is not None:
        lines.append(
            ngettext(
                "grade: {bucket} (the fair player won {wins} of {playouts} playout)",
                "grade: {bucket} (the fair player won {wins} of {playouts} playouts)",
                entry.grade.playouts,
            ).format(
                bucket=grade_word(entry.grade.bucket),
                wins=entry.grade.wins,
                playouts=entry.grade.playouts,
            )
        )
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Picked:
    """Deals picked from a set (``spidercli deals SET --pick N``): winnable ones, each with its
    certificate and grade, in the order drawn from ``seed``; ``title`` names the tournament."""

    set: str
    seed: int
    grade: str | None
    title: str | None
    deals: tuple[Settled, ...]
    ranking: str | None = None

    def __repr__(self) -> str:
        grade = "" if self.grade is None else f", grade {self.grade}"
        return f"<Picked {self.set}: {counted(len(self.deals), 'deal')}, seed {self.seed}{grade}>"

    def manifest_text(self) -> str:
        """The tournament manifest of these deals (``spidercli tournament --manifest``), each
        with its grade and moves as a comment."""
        which = "" if self.grade is None else f" --grade {self.grade}"
        which += "" if self.ranking is None else f" --ranking {self.ranking}"
        lines = [
            f"# {counted(len(self.deals), 'winnable deal')} of {SETS[self.set].title} "
            f"({self.set}), picked",
            f"# by spidercli deals {self.set} --pick {len(self.deals)} --seed {self.seed}{which}.",
            "# Each deal's winning log is in certificates/<code>.yaml beside this file;",
            "# spidercli replay verifies it. Grades: the fair player's playouts won",
            "# (docs/fair.md).",
        ]
        if self.title is not None:
            lines.append(f"name: {yaml_quoted(self.title)}")
        lines.append(f"rules: {RULES}")
        if self.ranking is not None:
            lines.append(f"ranking: {self.ranking}")
        lines.append("deals:")
        for entry in self.deals:
            if entry.grade is None:
                lines.append(f"  - {entry.game}  # {entry.moves} moves")
                continue
            g = entry.grade
            lines.append(
                f"  - {{game: {entry.game}, grade: {g.bucket}}}  # {g.wins} of {g.playouts} "
                f"fair playouts won; {entry.moves} moves"
            )
        return "\n".join(lines) + "\n"

    def to_json(self) -> dict[str, object]:
        return {
            "set": self.set,
            "seed": self.seed,
            "grade": self.grade,
            "title": self.title,
            "ranking": self.ranking,
            "deals": [
                {
                    "game": e.game,
                    "moves": e.moves,
                    "grade": None if e.grade is None else e.grade.to_json(),
                }
                for e in self.deals
            ],
        }


def pick(
    table: DealSet,
    count: int,
    *,
    seed: int = 0,
    grade: str | None = None,
    title: str | None = None,
    ranking: str | None = None,
    grader: Callable[[Settled], Grade] | None = None,
) -> Picked:
    """``count`` winnable deals of ``table`` drawn from ``seed`` (``shuffled``), those of the
    bucket ``grade`` alone when given; each deal drawn without a grade in the table is graded by
    ``grader`` (deterministic, so the pick is the same on every machine). ``TableError`` when the
    set has fewer such deals."""
    won = table.won_numbers()
    if len(won) < count:  # said before any deal is graded
        raise TableError(
            N_(
                "{set} has only {n} winnable deals, fewer than the {count} asked for",
                set=table.name,
                n=len(won),
                count=count,
            )
        )
    chosen: list[Settled] = []
    for n in shuffled(won, seed):
        entry = table.get(n)
        if entry.grade is None and grader is not None:
            entry = replace(entry, grade=grader(entry))
        if grade is None or (entry.grade is not None and entry.grade.bucket == grade):
            chosen.append(entry)
            if len(chosen) == count:
                break
    if len(chosen) < count:  # only with a grade: every won deal was drawn
        raise TableError(
            N_(
                "{set} has only {n} winnable deals of grade {grade}, fewer than the {count} "
                "asked for",
                set=table.name,
                n=len(chosen),
                grade=grade,
                count=count,
            )
        )
    return Picked(table.name, seed, grade, title, tuple(chosen), ranking)


__all__ = [
    "SETS",
    "TABLE_RESULTS",
    "DealSet",
    "Picked",
    "Proof",
    "SetInfo",
    "Settled",
    "TableError",
    "deal_set",
    "entry_text",
    "held",
    "pick",
    "read_table",
    "set_text",
    "settled",
    "shuffled",
    "split_code",
]
