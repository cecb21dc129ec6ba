"""A search that wins deals, and proves some unwinnable.

The solver plays the classic rules' moves (automatic flips, no deal while a column is empty) with
either move rule; every ruleset's log is made from that line of play afterwards (``duel`` gets its
manual flips, see ``solution``), and every line is replayed through the engine before anyone sees
it.

Positions are small immutable values: each column is a ``bytes`` of cards bottom to top (its hash
is cached, slicing and joining are cheap, unchanged columns are shared between positions), with a
tuple of face-down counts, the deals done and the runs removed.

``BeamSolver`` (the one ``spidercli solve`` uses) is a beam search, one move a level: it expands
every position of a level and keeps the best few children for each number of deals done, so the
first win it meets is about as short as the beam can see. Its rank of a position (disorder, then
cards ready to move) is a sum over columns, memoised per column, and a move's child is ranked from
the two columns it changes before its position is even built. Narrow beams first; when one fails
(or wanders past its level cap), a wider one. ``shorten`` then cuts one-action detours out.

``Solver`` is one best-first search over everything, by a cost (lower is better) summed over
columns; with every legal move (``complete``) and no budget, its exhaustion proves that no win
exists. (``solve`` and ``hint`` prove with ``proof.ProofSearch``, which meets positions that
differ only in column order once, and keeps no position but those on its path; ``hint`` ranks
moves by ``Solver.cost``, and ``shorten`` uses its every legal move.) Its pruned moves (``moves``)
leave out moves that cannot improve anything: a group leaves its parent only to reveal a card,
empty its column, land on a better parent (same suit where it sat on another suit, one rank
higher where it sat on a break) or lengthen a one-suit run; it goes to an empty column only
whole, to the leftmost empty column, and never as a whole column (splits are allowed to fill
columns before a deal).
"""

from __future__ import annotations

import heapq
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from hashlib import blake2b
from types import ModuleType
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from spidercli.game.engine import Game

_compiled: ModuleType | None
try:  # the compiled beam pass (spidercli/solver/_beam.c), built where a C compiler was found
    from spidercli.solver import _beam as _compiled
except ImportError:  # pragma: no cover - depends on the build
    _compiled = None

_compiled_proof: ModuleType | None
try:  # the compiled proof search (spidercli/solver/_proof.c, for proof.ProofSearch), built alike
    from spidercli.solver import _proof as _compiled_proof
except ImportError:  # pragma: no cover - depends on the build
    _compiled_proof = None


def compiled_available() -> bool:
    """Whether the compiled beam pass was built and imports."""
    return _compiled is not None


def compiled_by_default() -> bool:
    """The beam's default: the compiled pass when built, unless SPIDERCLI_PURE_PYTHON is set
    (to anything but empty or 0)."""
    return pure_python_reason() is None


def compiled_proof_available() -> bool:
    """Whether the compiled proof search (``proof.ProofSearch``'s twin) was built and imports."""
    return _compiled_proof is not None


def compiled_proof_by_default() -> bool:
    """The proof search's default: compiled when built, unless SPIDERCLI_PURE_PYTHON is set."""
    return _compiled_proof is not None and pure_python_reason() != "asked"


def pure_python_reason() -> str | None:
    """Why the beam runs its pure Python pass by default: ``"not built"`` (the compiled pass is
    missing: no compiler at install, or its build failed), ``"asked"`` (SPIDERCLI_PURE_PYTHON
    is set), or None: the compiled pass runs."""
    if _compiled is None:
        return "not built"
    if os.environ.get("SPIDERCLI_PURE_PYTHON", "") not in ("", "0"):
        return "asked"
    return None


def solver_pass() -> str:
    """The solver's pass in use, for ``--version`` (English, as the version line):
    ``solver: compiled pass`` or ``solver: pure Python pass (...)``, saying why; a compiled beam
    whose proof search (``proof.ProofSearch``) was not built says so too."""
    why = pure_python_reason()
    if why is None:
        if _compiled_proof is None:
            return (
                "solver: compiled pass (proofs in pure Python: their compiled search was not built)"
            )
        return "solver: compiled pass"
    if why == "asked":
        return "solver: pure Python pass (SPIDERCLI_PURE_PYTHON is set)"
    return "solver: pure Python pass (the compiled pass was not built)"


class Position(NamedTuple):
    """A position of the search (classic play: every column's last card face-up)."""

    cols: tuple[bytes, ...]  # each column's cards, bottom to top (suit << 4 | rank)
    down: tuple[int, ...]  # each column's face-down count
    dealt: int  # deals done
    runs: int  # runs removed


# A step: (source, target, count), 0-based, or None for a deal.
Step = tuple[int, int, int] | None

# The whole-space search keeps every position it meets (for the line back to the start), about
# 600 bytes each (measured on a 4-suit deal); past this many it gives up (about 1.2 GB) rather
# than grow without bound.
MAX_NODES = 2_000_000

_RUN = tuple(bytes(range(s << 4 | 13, s << 4, -1)) for s in range(4))


@dataclass(frozen=True)
class Weights:
    """The cost function's weights (lower cost is better). Tuned on the benchmark's deals."""

    face_down: int = 10  # each face-down card
    brk: int = 6  # a face-up card on one that is not one rank higher
    off_suit: int = 3  # a face-up card on one rank higher of another suit
    empty: int = 8  # bonus for each empty column (up to ``empty_cap``)
    empty_cap: int = 3
    run: int = 30  # bonus per run removed
    stock: int = 5  # each card still in the stock
    length: float = 0.0  # each move made in the current stage (f = cost + length * moves)


@dataclass
class Progress:
    """What the search has done so far: for the live progress line and the final report."""

    states: int = 0
    seconds: float = 0.0
    best_runs: int = 0
    best_down: int = 10**9
    best_deals: int = 0
    phase: str = "pruned"
    first_win: int | None = None  # the states searched when the first win was met
    stop: str | None = None  # the budget that made a search give up: "time", "states", "memory"

    @property
    def rate(self) -> float:
        return self.states / self.seconds if self.seconds > 0 else 0.0


@dataclass(frozen=True)
class Outcome:
    """``steps`` is the winning line (None when none was found); ``exhaustive`` says the whole
    space of legal play was searched (or a lock proved that no run can ever be removed: then
    ``locked`` is set), so no win exists."""

    steps: list[Step] | None
    exhaustive: bool
    progress: Progress
    # A lock proved it (``lock.lock``, no search): the ranks of which no card can ever be face
    # up (maybe none); None when the search did.
    locked: tuple[int, ...] | None = None


class Problem:
    """A position to solve from, and the rules of the search."""

    def __init__(
        self,
        columns: list[bytes],
        down: list[int],
        deal_chunks: list[bytes],
        *,
        permissive: bool,
        runs: int,
        runs_to_win: int,
    ) -> None:
        self.start = Position(tuple(columns), tuple(down), 0, runs)
        self.chunks = tuple(deal_chunks)
        self.permissive = permissive
        self.runs_to_win = runs_to_win
        self.ncols = len(columns)
        cards = b"".join(columns) + b"".join(deal_chunks)
        self.suits = len({c >> 4 for c in cards}) or 1

    def compiled_args(
        self,
    ) -> tuple[tuple[bytes, ...], tuple[int, ...], tuple[bytes, ...], int, bool, int]:
        """The problem as both compiled searches take it first (``_beam.beam``,
        ``_proof.search``): the start's columns and face-down counts, the deals, the runs
        removed, the move rule and the runs a win wants."""
        start = self.start
        return (start.cols, start.down, self.chunks, start.runs, self.permissive, self.runs_to_win)


def default_weights(problem: Problem) -> Weights:
    """The best-first search's weights for this deal (that search now runs only after every beam
    failed, over every legal move, for a proof). Counting each move (``length``) gave it shorter
    lines with one or two suits when it was the main search, but cost 4-suit deals half their wins
    within the budget, so it is used only with up to two suits."""
    return Weights(length=3.0) if problem.suits <= 2 else Weights()


def _column_cost(col: bytes, d: int, w: Weights) -> int:
    n = len(col)
    if n == 0:
        return 0
    cost = w.face_down * d
    brk = w.brk
    off = w.off_suit
    for i in range(d, n - 1):
        a = col[i]
        b = col[i + 1]
        if b != a - 1:
            cost += off if (b & 15) == (a & 15) - 1 else brk
    return cost


def _take_run(col: bytes, d: int) -> tuple[bytes, int, int]:
    """A column ending in an Ace, with the one-suit run King..Ace it completes removed (and the
    card under it turned): the column, its face-down count and the runs removed (0 or 1)."""
    if len(col) - d >= 13 and col.endswith(_RUN[col[-1] >> 4]):
        col = col[:-13]
        if col and d >= len(col):
            d = len(col) - 1
        return col, d, 1
    return col, d, 0


class _Stop(Exception):
    """The budget (time, positions or memory) ran out."""


class _Budget:
    """Counts the positions a search expands, reports progress, and stops the search (``_Stop``)
    when the deadline or the position budget is reached."""

    def __init__(
        self,
        deadline: float | None,
        max_states: int | None,
        report: Callable[[Progress], None] | None,
        report_every: float,
    ) -> None:
        self.progress = Progress()
        self.start = time.monotonic()
        self.deadline = deadline
        self.max_states = max_states
        self.limit: float = float("inf") if max_states is None else max_states
        self.report = report
        self.report_every = report_every
        self.next_report = self.start + report_every

    def grant(self, done: int, more: int = 1) -> int:
        """The compiled pass's count: ``done`` positions expanded since its last call; with
        ``more``, how many it may expand before it calls again (1 to 256: exactly up to
        ``max_states``), or ``_Stop`` when the position budget is spent or the deadline has
        passed. The same count and the same stops as ``tick`` once a position, without a call
        from C into Python for each position."""
        pr = self.progress
        pr.states += done
        if not more:
            return 0
        if pr.states >= self.limit:
            raise self.stop("states")
        self._clock()
        left = self.limit - pr.states
        return 256 if left > 256 else int(left)

    def tick(self) -> None:
        """Count one position about to be expanded: ``_Stop`` instead when the position budget
        is spent (checked every time, so a search expands exactly up to ``max_states``), or,
        checked every 256 positions, when the deadline has passed."""
        pr = self.progress
        if pr.states >= self.limit:
            raise self.stop("states")
        pr.states += 1
        if pr.states & 255 == 0:
            self._clock()

    def _clock(self) -> None:
        """The time so far: ``_Stop`` when the deadline has passed, a report when one is due."""
        pr = self.progress
        now = time.monotonic()
        pr.seconds = now - self.start
        if self.deadline is not None and now >= self.deadline:
            raise self.stop("time")
        if self.report is not None and now >= self.next_report:
            self.next_report = now + self.report_every
            self.report(pr)

    def stop(self, budget: str) -> _Stop:
        """The ``_Stop`` to raise when ``budget`` ("time", "states" or "memory") is spent, said
        in the progress (``Progress.stop``)."""
        self.progress.stop = budget
        return _Stop()


class Search:
    """What both searches share: the problem, the effects of a move and of a deal on a position,
    and ``solve``, which runs the search (``_run``) within a budget."""

    # Set by a search that a lock ended before it began (``proof.ProofSearch``): the ranks of
    # which no card can ever be face up, as ``Outcome.locked``.
    locked: tuple[int, ...] | None = None

    def __init__(self, problem: Problem) -> None:
        self.p = problem

    # ------------------------------------------------------------------ effects

    def after_move(self, node: Position, s: int, t: int, k: int) -> Position:
        cols, down, dealt, runs = node
        src = cols[s]
        n = len(src)
        group = src[n - k :]
        new_src = src[: n - k]
        dst = cols[t] + group
        lst = list(cols)
        lst[s] = new_src
        if (dst[-1] & 15) != 1 and (not new_src or down[s] < len(new_src)):
            lst[t] = dst  # nothing turned, no run removed: the face-down counts stay
            return Position(tuple(lst), down, dealt, runs)
        dn = list(down)
        if new_src and dn[s] >= len(new_src):
            dn[s] = len(new_src) - 1
        if (dst[-1] & 15) == 1:
            dst, dn[t], removed = _take_run(dst, dn[t])
            runs += removed
        lst[t] = dst
        return Position(tuple(lst), tuple(dn), dealt, runs)

    def after_deal(self, node: Position) -> Position:
        cols, down, dealt, runs = node
        chunk = self.p.chunks[dealt]
        lst = list(cols)
        dn = list(down)
        for i, card in enumerate(chunk):
            col = lst[i] + bytes((card,))
            if card & 15 == 1:
                col, dn[i], removed = _take_run(col, dn[i])
                runs += removed
            lst[i] = col
        return Position(tuple(lst), tuple(dn), dealt + 1, runs)

    # ------------------------------------------------------------------ search

    def solve(
        self,
        *,
        max_states: int | None = None,
        deadline: float | None = None,
        report: Callable[[Progress], None] | None = None,
        report_every: float = 0.25,
    ) -> Outcome:
        budget = _Budget(deadline, max_states, report, report_every)
        try:
            steps, exhaustive = self._run(budget)
        except _Stop:
            steps, exhaustive = None, False
            budget.progress.phase = "gave up"
        except MemoryError:  # an allocation failed (a limit of the process, the container's):
            steps, exhaustive = None, False  # what the search held is freed as it unwinds
            budget.progress.phase = "gave up"
            budget.progress.stop = "memory"
        budget.progress.seconds = time.monotonic() - budget.start
        return Outcome(steps, exhaustive, budget.progress, self.locked)

    def _run(self, budget: _Budget) -> tuple[list[Step] | None, bool]:
        """The search: its line (None when none found), and whether its failure is a proof."""
        raise NotImplementedError


class Solver(Search):
    """A best-first search by ``cost``; over every legal move, its exhaustion is a proof."""

    def __init__(self, problem: Problem, weights: Weights | None = None) -> None:
        super().__init__(problem)
        self.w = weights or default_weights(problem)
        self._col_cost: dict[tuple[bytes, int], int] = {}

    # ------------------------------------------------------------------ evaluation

    def cost(self, node: Position) -> int:
        cols, down, dealt, runs = node
        w = self.w
        memo = self._col_cost
        total = 0
        empties = 0
        for col, d in zip(cols, down, strict=True):
            if not col:
                empties += 1
                continue
            key = (col, d)
            c = memo.get(key)
            if c is None:
                c = memo[key] = _column_cost(col, d, w)
            total += c
        total -= w.empty * min(empties, w.empty_cap)
        total -= w.run * runs
        chunks = self.p.chunks
        for i in range(dealt, len(chunks)):
            total += w.stock * len(chunks[i])
        return total

    # ------------------------------------------------------------------ move generation

    def moves(self, node: Position, complete: bool = False) -> list[Step]:
        """The moves worth trying (every legal one when ``complete``), and the deal if legal."""
        cols, down, dealt, _ = node
        ncols = self.p.ncols
        permissive = self.p.permissive
        empties = [i for i in range(ncols) if not cols[i]]
        first_empty = empties[0] if empties else -1
        stock_left = dealt < len(self.p.chunks)
        # Each non-empty column's trailing one-suit run (face-up), for the consolidation rule.
        trail = [0] * ncols
        for t in range(ncols):
            col = cols[t]
            n = len(col)
            if n:
                j = n - 1
                lo = down[t]
                while j > lo and col[j - 1] == col[j] + 1:
                    j -= 1
                trail[t] = n - j
        out: list[Step] = []
        for s in range(ncols):
            col = cols[s]
            n = len(col)
            if not n:
                continue
            d = down[s]
            up = n - d
            same = trail[s]  # one-suit run at the end
            m = same
            if permissive:
                i = n - m
                while m < up and (col[i - 1] & 15) == (col[i] & 15) + 1:
                    m += 1
                    i -= 1
            top_rank = col[-1] & 15
            for t in range(ncols):
                if t == s:
                    continue
                tc = cols[t]
                if not tc:
                    continue
                last = tc[-1]
                k = (last & 15) - top_rank
                if k < 1 or k > m:
                    continue
                if complete:
                    out.append((s, t, k))
                    continue
                first = col[n - k]
                if k == up:
                    out.append((s, t, k))  # reveals a card or empties the column
                    continue
                parent = col[n - k - 1]
                before = 0 if parent == first + 1 else 1 if (parent & 15) == (first & 15) + 1 else 2
                after = 0 if last == first + 1 else 1
                if after < before or (before == 0 and after == 0 and trail[t] + k > same):
                    out.append((s, t, k))
            if first_empty >= 0 and not (d == 0 and m == n and not complete):
                if complete:
                    for t in empties:
                        if t != s:
                            for k in range(1, m + 1):
                                out.append((s, t, k))
                    continue
                t = first_empty
                if t == s:
                    t = empties[1] if len(empties) > 1 else -1
                if t < 0:
                    continue
                out.append((s, t, m))
                if permissive and same < m:
                    out.append((s, t, same))
                if stock_left:  # columns must be filled before a deal: allow splits
                    for k in range(1, m):
                        if k != same:
                            out.append((s, t, k))
        if stock_left and not empties:
            out.append(None)
        return out

    # ------------------------------------------------------------------ search

    def _run(self, budget: _Budget) -> tuple[list[Step] | None, bool]:
        """The pruned search, then every legal move: its exhaustion proves there is no win."""
        for complete in (False, True):
            budget.progress.phase = "complete" if complete else "pruned"
            steps = self._search(complete, budget)
            if steps is not None:
                return steps, False
        return None, True

    def _search(self, complete: bool, budget: _Budget) -> list[Step] | None:
        p = self.p
        goal = p.runs_to_win
        length = self.w.length
        cost = self.cost
        after_move = self.after_move
        after_deal = self.after_deal
        moves = self.moves
        root = p.start
        if root[3] >= goal:
            return []
        nodes: list[Position] = [root]
        parent: list[int] = [-1]
        step_of: list[Step] = [None]
        depth: list[int] = [0]
        seen = {(root[0], root[1], root[2])}
        heap: list[tuple[float, int, int]] = [(cost(root), 0, 0)]
        counter = 0
        pop = heapq.heappop
        push = heapq.heappush
        tick = budget.tick
        progress = budget.progress
        while heap:
            _, _, idx = pop(heap)
            node = nodes[idx]
            tick()
            if len(nodes) > MAX_NODES:
                raise budget.stop("memory")
            g = depth[idx] + 1
            for step in moves(node, complete):
                child = after_deal(node) if step is None else after_move(node, *step)
                key = (child[0], child[1], child[2])
                if key in seen:
                    continue
                seen.add(key)
                runs = child[3]
                if runs > progress.best_runs:
                    progress.best_runs = runs
                nodes.append(child)
                parent.append(idx)
                step_of.append(step)
                depth.append(g)
                cid = len(nodes) - 1
                if runs >= goal:
                    return _path(cid, parent, step_of)
                down_total = sum(child[1])
                if down_total < progress.best_down:
                    progress.best_down = down_total
                if child[2] > progress.best_deals:
                    progress.best_deals = child[2]
                counter -= 1
                push(heap, (cost(child) + length * g, counter, cid))
        return None


# A column's part of the beam's rank: (disorder, cards ready on top, its bottom card's rank one
# up as a 4-bit counter, its top card's rank as a 4-bit counter; see ``BeamSolver.rank``), and a
# 64-bit digest of its cards and face-down count for the position's key.
ColumnInfo = tuple[int, int, int, int, int]
_NO_COLUMN: ColumnInfo = (0, 0, 0, 0, 0)
_KING_SEAT = 1 << 56  # a King at the bottom counts as seated: a top of "rank 14" always there
_NIBBLES = sum(1 << (4 * r) for r in range(16))
_MASK = (1 << 64) - 1
# Polishing passes (beam widths) by suit count, run after the first win. Wider polishing gives
# shorter lines at a cost in time. Tuned with the compiled pass on KPat deals 101-120 and 201-222
# (not the benchmark's 1-20), median moves against KPat's, CPU time: 1 suit 92 / 89 / 89 against
# 93 with 100 / 600 / 1000 (1000: 0.74 s); 2 suits 109 / 105 / 103 against 109 with 80 / 600 /
# 1000 (1000: 0.92 s); 4 suits 150 / 136 / 133 against 143 with 60 / 600 / 1000 (1000: 1.2 s),
# the longest line against KPat's 1.37 / 1.07 / 1.03 times. The pure Python pass runs the same
# widths, 25-35 times slower.
POLISH: dict[int, tuple[int, ...]] = {1: (1000,), 2: (1000,), 4: (1000,)}
# A beam forgets the positions it has met (all but the current level's) past this many, and
# empties its column memo past this many entries.
SEEN_LIMIT = 3_000_000
MEMO_LIMIT = 500_000
# Odd 64-bit factors for the key of a position (one per column place, the last for the deals).
_PLACE = tuple(
    int.from_bytes(blake2b(b"place %d" % i, digest_size=8).digest(), "little") | 1
    for i in range(11)
)


_FNV_OFFSET = 0xCBF29CE484222325
_FNV_PRIME = 0x100000001B3


def column_digest(col: bytes, d: int) -> int:
    """A column's 64-bit digest for the keys: FNV-1a over its cards and then its face-down
    count, then splitmix64's finaliser (the compiled pass computes the same). Fixed, not
    ``hash()``: the same deal always gives the same keys, so the same line."""
    h = _FNV_OFFSET
    for b in col:
        h = ((h ^ b) * _FNV_PRIME) & _MASK
    h = ((h ^ d) * _FNV_PRIME) & _MASK
    h = ((h ^ (h >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    h = ((h ^ (h >> 27)) * 0x94D049BB133111EB) & _MASK
    return h ^ (h >> 31)


class Level(NamedTuple):
    """A position kept in a beam level, with what its children's ranks are computed from."""

    node: Position
    parent: int  # its parent's index in the level before (-1 for the root)
    step: Step  # the step from the parent
    infos: list[ColumnInfo]  # each column's part of the rank
    sums: tuple[int, int, int, int, int]  # disorder, ready, empties, bottom and top counters
    key: int  # the position's 64-bit key (see ``BeamSolver.level_entry``)


Sums = tuple[int, int, int, int, int]  # disorder, ready, empties, bottoms, tops (see Level)
# A move's effect on the two columns it changes, before its position is built: the source column
# and its face-down count, the target's, the runs removed, the new sums and the two columns' infos.
Change = tuple[bytes, int, bytes, int, int, Sums, ColumnInfo, ColumnInfo, int]
# A child met in a beam level: (rank, order met, parent index, step, its change or, for a deal,
# its whole level entry). Sorting compares rank, then order (unique), nothing further.
Candidate = tuple[int, int, int, Step, "Change | Level"]


class BeamSolver(Search):
    """A beam search, one move a level: every position of a level is expanded, and the best
    ``width`` children for each number of deals done make the next level, so the first win met
    is about as short as the beam can see. Positions are ranked by disorder (face-down cards and
    one-suit runs of face-up cards, less one for each rank of bottom card that is a King or fits
    on some column's top card, less the empty columns), then by the cards ready to move (one-suit
    runs on top, cards sent off, empty columns). A level cap stops a beam that wanders; the
    schedule then tries a wider one."""

    # Passes: beam width per number of deals done, and the most moves a line may take (None:
    # no cap). Narrow beams are fast and win most deals; wider ones find the rest. A pass runs
    # only when every narrower one failed, so the wide ones change no line the narrow ones find.
    # Widths past 600 win 4-suit deals whose 600-wide beam runs dry (every child already met) or
    # wanders (KPat's 168: won at 12000 in 303 moves); capped, so that a beam that wanders
    # leaves the budget to the next. The last pass, uncapped, wins the deals that need a long
    # line. A process running the 12000-wide pass peaks at about 140 MB.
    SCHEDULE: tuple[tuple[int, int | None], ...] = (
        (40, 250),
        (150, 300),
        (600, 400),
        (2000, 400),
        (6000, 400),
        (12000, 400),
        (600, None),
    )

    def __init__(self, problem: Problem, *, compiled: bool | None = None) -> None:
        """``compiled``: run each pass compiled (True; an error when it was not built), in
        Python (False), or by default (None: see ``compiled_by_default``). Both give the same
        lines; the compiled pass is many times faster."""
        super().__init__(problem)
        self._info: dict[tuple[bytes, int], ColumnInfo] = {}
        if compiled and _compiled is None:
            raise RuntimeError("the compiled beam pass (spidercli.solver._beam) was not built")
        self.compiled = (compiled_by_default() if compiled is None else compiled) and _fits(problem)

    def column_info(self, col: bytes, d: int) -> ColumnInfo:
        """A column's part of the rank (memoised): its disorder (face-down cards, plus one for
        each one-suit run of face-up cards), the length of its one-suit run on top, and its
        bottom and top cards' ranks as counters."""
        if not col:
            return _NO_COLUMN
        key = (col, d)
        info = self._info.get(key)
        if info is None:
            n = len(col)
            disorder = d + 1
            for i in range(d, n - 1):
                if col[i + 1] != col[i] - 1:
                    disorder += 1
            j = n - 1
            while j > d and col[j - 1] == col[j] + 1:
                j -= 1
            digest = column_digest(col, d)
            info = (disorder, n - j, 1 << 4 * ((col[0] & 15) + 1), 1 << 4 * (col[-1] & 15), digest)
            self._info[key] = info
        return info

    def level_entry(self, node: Position, parent: int, step: Step) -> Level:
        """A position's level entry, its rank's parts computed whole."""
        # A sum of the columns' digests, each times its place's odd factor, and the deals done:
        # a move changes two terms. Equal keys for different positions are left to chance
        # (2**-64 a pair), never to the process: the digests are fixed (``column_digest``), not
        # hash().
        memo = self._info.get
        infos: list[ColumnInfo] = []
        dis = ready = empties = bottoms = 0
        tops = _KING_SEAT
        key = node.dealt * _PLACE[-1]
        for i, (c, d) in enumerate(zip(node.cols, node.down, strict=True)):
            if c:
                info = memo((c, d)) or self.column_info(c, d)
                dis += info[0]
                ready += info[1]
                bottoms += info[2]
                tops += info[3]
                key += _PLACE[i] * info[4]
            else:
                info = _NO_COLUMN
                empties += 1
            infos.append(info)
        sums = (dis, ready + 13 * node.runs, empties, bottoms, tops)
        return Level(node, parent, step, infos, sums, key & _MASK)

    @staticmethod
    def _rank(disorder: int, ready: int, empties: int, bottoms: int, tops: int) -> int:
        # The ranks (4-bit counters) that have both a bottom card one below and a top card.
        nz_b = bottoms | bottoms >> 1 | bottoms >> 2 | bottoms >> 3
        nz_t = tops | tops >> 1 | tops >> 2 | tops >> 3
        disorder -= (nz_b & nz_t & _NIBBLES).bit_count()
        disorder = max(0, disorder - empties)
        return disorder * 256 - ready - empties

    def rank(self, node: Position) -> int:
        """The beam's order of a position (lower is better)."""
        return self._rank(*self.level_entry(node, -1, None).sums)

    def moves(self, node: Position) -> list[Step]:
        """The moves the beam tries: any part of a column's top run (any descending sequence
        under the permissive rule) onto a card one rank higher, except that a run is split only
        to lengthen a same-suit run; to the leftmost empty column any part but a whole column,
        and once the stock is out, never a split run; the deal when legal."""
        infos = [self.column_info(c, d) for c, d in zip(node.cols, node.down, strict=True)]
        return self._moves(node, infos)

    def _moves(self, node: Position, infos: list[ColumnInfo]) -> list[Step]:
        """``moves``, with each column's part of the rank at hand (its top run's length)."""
        cols, down, dealt, _ = node
        permissive = self.p.permissive
        stock_left = dealt < len(self.p.chunks)
        first_empty = -1
        by_rank: dict[int, list[int]] = {}  # columns by their top card's rank
        for t, col in enumerate(cols):
            if col:
                r = col[-1] & 15
                same_rank = by_rank.get(r)
                if same_rank is None:
                    by_rank[r] = [t]
                else:
                    same_rank.append(t)
            elif first_empty < 0:
                first_empty = t
        out: list[Step] = []
        for s, col in enumerate(cols):
            n = len(col)
            if not n:
                continue
            d = down[s]
            same = infos[s][1]
            m = same
            if permissive:
                i = n - m
                while m < n - d and (col[i - 1] & 15) == (col[i] & 15) + 1:
                    m += 1
                    i -= 1
            for k in range(1, m + 1):
                first = col[n - k]
                split = k < n - d and col[n - k - 1] == first + 1
                for t in by_rank.get((first & 15) + 1, ()):
                    if t != s and (
                        not split or (cols[t][-1] == first + 1 and infos[t][1] + k > same)
                    ):
                        out.append((s, t, k))
                if first_empty >= 0 and k < n and (stock_left or not split):
                    out.append((s, first_empty, k))
        if stock_left and first_empty < 0:
            out.append(None)
        return out

    def _run(self, budget: _Budget) -> tuple[list[Step] | None, bool]:
        """Each pass of the schedule in turn until one wins, then the polishing passes, each
        capped one move below the best line so far (a beam of another width often sees a
        shorter line); a beam never proves anything. A budget that runs out while polishing
        keeps the line already found."""
        if self.p.start.runs >= self.p.runs_to_win:
            return [], False
        best = None
        for width, cap in self.SCHEDULE:
            best = self._beam(width, cap, budget)
            if best is not None:
                break
        else:
            return None, False
        budget.progress.first_win = budget.progress.states
        try:
            for width in self.polish_widths():
                shorter = self._beam(width, len(best) - 1, budget)
                if shorter is not None:
                    best = shorter
        except (_Stop, MemoryError):  # the search won: a budget that ends polishing stops none
            budget.progress.stop = None
        return best, False

    def polish_widths(self) -> tuple[int, ...]:
        return POLISH.get(self.p.suits, ())

    def expand(
        self,
        entry: Level,
        idx: int,
        out: list[Candidate],
        seen: set[int],
        bests: list[list[int]] | None = None,
        width: int = 0,
        later: list[int] | None = None,
    ) -> tuple[bool, Step]:
        """Append ``entry``'s children (it is ``idx`` in its level) to ``out`` as candidates,
        without building their positions, skipping (and adding to ``seen``) the keys already
        met; ``(True, step)`` as soon as a step wins. With ``bests`` (per number of deals done,
        the negated ranks of the best ``width`` candidates so far, a heap), a child that cannot
        make its bucket's best ``width`` is left out of ``out``, its key added to ``later``
        (when given, for the caller to add to ``seen`` once the level is done) or ``seen``."""
        node, _, _, infos, sums, pkey = entry
        cols, down, _, runs = node
        goal = self.p.runs_to_win
        info = self.column_info
        memo = self._info.get
        dis, ready, empties, bottoms, tops = sums
        # Moves come grouped by source and count: the source's side is worked out once a group.
        last_sk = (-1, 0)
        new_s = b""
        ds = 0
        ns = os_ = _NO_COLUMN
        heap = bests[node.dealt] if bests is not None else None
        for step in self._moves(node, infos):
            if step is None:
                child = self.after_deal(node)
                if child[3] >= goal:
                    return True, None
                e = self.level_entry(child, idx, None)
                if e.key not in seen:
                    seen.add(e.key)
                    rank = self._rank(*e.sums)
                    if bests is not None:
                        deal_heap = bests[child.dealt]
                        if len(deal_heap) < width:
                            heapq.heappush(deal_heap, -rank)
                        elif rank < -deal_heap[0]:
                            heapq.heapreplace(deal_heap, -rank)
                    out.append((rank, len(out), idx, None, e))
                continue
            s, t, k = step
            src = cols[s]
            n = len(src) - k
            if (s, k) != last_sk:
                last_sk = (s, k)
                new_s = src[:n]
                ds = down[s]
                if n and ds >= n:
                    ds = n - 1
                ns = (memo((new_s, ds)) or info(new_s, ds)) if n else _NO_COLUMN
                os_ = infos[s]
            new_t = cols[t] + src[n:]
            dt = down[t]
            removed = 0
            if (new_t[-1] & 15) == 1:
                new_t, dt, removed = _take_run(new_t, dt)
                if runs + removed >= goal:
                    return True, step
            nt = memo((new_t, dt)) or info(new_t, dt)
            ot = infos[t]
            d2 = dis - os_[0] - ot[0] + ns[0] + nt[0]
            r2 = ready - os_[1] - ot[1] + ns[1] + nt[1] + 13 * removed
            e2 = empties + (not new_s) + (not new_t) - (not cols[t])
            b2 = bottoms - os_[2] - ot[2] + ns[2] + nt[2]
            t2 = tops - os_[3] - ot[3] + ns[3] + nt[3]
            # The rank (see ``_rank``), inline: this is the search's innermost loop.
            nz_b = b2 | b2 >> 1 | b2 >> 2 | b2 >> 3
            nz_t = t2 | t2 >> 1 | t2 >> 2 | t2 >> 3
            d3 = d2 - (nz_b & nz_t & _NIBBLES).bit_count() - e2
            rank = (d3 if d3 > 0 else 0) * 256 - r2 - e2
            key = (pkey + _PLACE[s] * (ns[4] - os_[4]) + _PLACE[t] * (nt[4] - ot[4])) & _MASK
            if heap is not None and len(heap) >= width and rank >= -heap[0]:
                # A child ranked no better than the ``width`` best already met for its bucket
                # (all met before it, so ahead of it in the sort) cannot be kept, met before or
                # not: it is remembered as met (with ``later``, once the level is done: the
                # bucket's worst only gets better during a level, so the same child met again
                # this level is left out again), but never looked up or built.
                if later is None:
                    seen.add(key)
                else:
                    later.append(key)
                continue
            if key in seen:
                continue
            seen.add(key)
            if heap is not None:
                if len(heap) < width:
                    heapq.heappush(heap, -rank)
                else:
                    heapq.heapreplace(heap, -rank)
            change = (new_s, ds, new_t, dt, removed, (d2, r2, e2, b2, t2), ns, nt, key)
            out.append((rank, len(out), idx, step, change))
        return False, None

    def _beam(self, width: int, cap: int | None, budget: _Budget) -> list[Step] | None:
        """One pass: the first winning line met by a beam of ``width`` (per number of deals
        done) within ``cap`` moves, or None."""
        if self.compiled and 1 <= width <= COMPILED_MAX_WIDTH:
            assert _compiled is not None
            line: list[Step] | None = _compiled.beam(
                *self.p.compiled_args(),
                width,
                # C ints: a cap or a limit past them is as good as none (no pass gets there)
                -1 if cap is None else min(max(cap, 0), _C_INT_MAX),
                min(max(SEEN_LIMIT, -1), _C_LONG_LONG_MAX),
                _PLACE,
                budget.grant,
                budget.progress,
            )
            return line
        return self._beam_python(width, cap, budget)

    def _beam_python(self, width: int, cap: int | None, budget: _Budget) -> list[Step] | None:
        p = self.p
        expand = self.expand
        tick = budget.tick
        pr = budget.progress
        level = [self.level_entry(p.start, -1, None)]
        # The way back from each level: (parent index, step) of each position kept.
        levels: list[list[tuple[int, Step]]] = []
        # The keys of every position met, kept or not (a position the beam passed over once is
        # not taken up again later, which keeps the beam moving on).
        seen = {level[0].key}
        buckets = len(p.chunks) + 1
        while level and (cap is None or len(levels) < cap):
            levels.append([(e.parent, e.step) for e in level])
            if len(self._info) > MEMO_LIMIT:  # bound the memo's memory
                self._info.clear()
            if len(seen) > SEEN_LIMIT:  # and the keys' (about 60 bytes each)
                seen = {e.key for e in level}
            children: list[Candidate] = []
            bests: list[list[int]] = [[] for _ in range(buckets)]
            later: list[int] = []
            for idx, entry in enumerate(level):
                tick()
                won, step = expand(entry, idx, children, seen, bests, width, later)
                if won:
                    return self._line(levels, idx, step)
            seen.update(later)  # the children left out, met all the same
            children.sort()
            counts = [0] * buckets
            parents = level
            level = []
            for _, _, idx, step, change in children:
                if step is None:
                    assert isinstance(change, Level)
                    dealt = change.node.dealt
                    if counts[dealt] < width:
                        counts[dealt] += 1
                        level.append(change)
                    continue
                assert not isinstance(change, Level)
                parent = parents[idx]
                node = parent.node
                dealt = node.dealt
                if counts[dealt] >= width:
                    continue
                counts[dealt] += 1
                s, t, _ = step
                new_s, ds, new_t, dt, removed, sums, ns, nt, key = change
                lst = list(node.cols)
                lst[s] = new_s
                lst[t] = new_t
                down = node.down
                if ds != down[s] or dt != down[t]:
                    dn = list(down)
                    dn[s] = ds
                    dn[t] = dt
                    down = tuple(dn)
                child = Position(tuple(lst), down, dealt, node.runs + removed)
                infos = list(parent.infos)
                infos[s] = ns
                infos[t] = nt
                level.append(Level(child, idx, step, infos, sums, key))
            if level:
                best = level[0].node
                pr.best_runs = max(pr.best_runs, best.runs)
                pr.best_down = min(pr.best_down, sum(best.down))
                pr.best_deals = max(pr.best_deals, best.dealt)
        return None

    @staticmethod
    def _line(levels: list[list[tuple[int, Step]]], idx: int, last: Step) -> list[Step]:
        steps = [last]
        for level in reversed(levels[1:]):
            idx, step = level[idx]
            steps.append(step)
        steps.reverse()
        return steps


COMPILED_MAX_WIDTH = 1 << 20  # the compiled pass's widest beam (_beam.c's MAX_WIDTH)
_C_INT_MAX = (1 << 31) - 1  # the compiled pass's level cap is a C int, its seen limit a long long
_C_LONG_LONG_MAX = (1 << 63) - 1


def _fits(problem: Problem) -> bool:
    """Whether the compiled pass takes this problem: up to 10 columns, 63 deals and 127 cards,
    ranks 1-13 and suits 0-3, face-down counts 0-255, runs 0 to 2**20 (every deal spidercli
    plays); the Python pass takes any other."""
    cards = b"".join(problem.start.cols) + b"".join(problem.chunks)
    return (
        1 <= problem.ncols <= 10
        and len(problem.chunks) <= 63
        and all(len(c) <= problem.ncols for c in problem.chunks)
        and all(1 <= c & 15 <= 13 and c < 64 for c in cards)
        and all(0 <= d <= 255 for d in problem.start.down)
        and len(cards) <= 127
        and 0 <= problem.start.runs <= 1 << 20
        and problem.runs_to_win <= 1 << 20
    )


def shorten(solver: Solver, steps: list[Step], reach: int = 2) -> list[Step]:
    """Cut detours out of a winning line: wherever a later position of the line can be reached
    from an earlier one in at most ``reach`` legal actions fewer than the line takes, splice."""
    nodes = [solver.p.start]
    for step in steps:
        nodes.append(
            solver.after_deal(nodes[-1]) if step is None else solver.after_move(nodes[-1], *step)
        )
    index = {(n[0], n[1], n[2]): i for i, n in enumerate(nodes)}  # the last visit of each
    out: list[Step] = []
    i = 0
    end = len(nodes) - 1
    while i < end:
        best_j, best_line = i + 1, [steps[i]]
        frontier: list[tuple[Position, list[Step]]] = [(nodes[i], [])]
        for d in range(1, reach + 1):
            nxt = []
            for node, line in frontier:
                for step in solver.moves(node, True):
                    child = (
                        solver.after_deal(node) if step is None else solver.after_move(node, *step)
                    )
                    j = index.get((child[0], child[1], child[2]))
                    if child[3] >= solver.p.runs_to_win:
                        j = end
                    if j is not None and j - i > d and j - i - d > best_j - i - len(best_line):
                        best_j, best_line = j, [*line, step]
                    nxt.append((child, [*line, step]))
            frontier = nxt
        out.extend(best_line)
        i = best_j
    return out


def _path(idx: int, parent: list[int], step_of: list[Step]) -> list[Step]:
    steps: list[Step] = []
    while parent[idx] >= 0:
        steps.append(step_of[idx])
        idx = parent[idx]
    steps.reverse()
    return steps


def problem_from_game(game: Game) -> Problem:
    """The position of an engine ``Game`` (classic-style: every column's last card face-up)."""
    stock = game.stock_left
    chunks = []
    for size in game.kind.deal_sizes[game.deals_done :]:
        chunks.append(bytes(stock[:size]))
        del stock[:size]
    return Problem(
        [bytes(c) for c in game.cols],
        list(game.down),
        chunks,
        permissive=game.permissive,
        runs=game.runs,
        runs_to_win=game.kind.runs_to_win,
    )
