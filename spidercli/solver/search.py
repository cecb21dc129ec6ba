"""A search that wins deals, and proves some unwinnable.

The solver plays the classic rules' moves (automatic flips, no deal while a column is empty) with
either move rule; every ruleset's log is made from that line of play afterwards (``duel`` gets its
manual flips, see ``solution``), and every line is replayed through the engine before anyone sees
it.

Positions are small immutable values: each column is a ``bytes`` of cards bottom to top (its hash
is cached, slicing and joining are cheap, unchanged columns are shared between positions), with a
tuple of face-down counts, the deals done and the runs removed.

The beam search that ``spidercli solve`` runs first is ``beam.BeamSolver``, built on ``Search``;
``shorten`` then cuts one-action detours out of the line it finds.

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
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, NamedTuple

from spidercli.game.groups import movable_length

if TYPE_CHECKING:
    from spidercli.game.engine import Game


class Position(NamedTuple):
    """A position of the search (classic play: every column's last card face-up)."""

    cols: tuple[bytes, ...]  # each column's cards, bottom to top (suit << 4 | rank)
    down: tuple[int, ...]  # each column's face-down count
    dealt: int  # deals done
    runs: int  # runs removed


# A step: (source, target, count), 0-based, or None for a deal.
Step = tuple[int, int, int] | None

SolveStatus = Literal["won", "unwinnable", "gave-up"]
# How a search ends: a win (its line), a proof that none exists (the whole space searched), or a
# spent budget (which proves nothing).
SOLVE_RESULTS: tuple[SolveStatus, ...] = ("won", "unwinnable", "gave-up")

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
    # The beam's best rank among its levels' best positions (``BeamSolver.rank``; lower is
    # better): how far a beam got, for the fair hint's lookahead (``fair.lookahead``).
    best_rank: int = 1 << 62
    levels: int = 0  # the beam's levels (after its start), and the sum of their best ranks
    rank_sum: int = 0
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

    @property
    def result(self) -> SolveStatus:
        """How the search ended, the one reading of it that ``solve``, ``hint`` and ``sweep``
        share: ``won`` (a line found), ``unwinnable`` (none exists) or ``gave-up``."""
        if self.steps is not None:
            return "won"
        return "unwinnable" if self.exhaustive else "gave-up"


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
        # Each column's trailing one-suit run (face-up), for the consolidation rule: the group
        # the classic move rule moves (``groups.movable_length``).
        trail = [movable_length(cols[t], down[t], False) for t in range(ncols)]
        out: list[Step] = []
        for s in range(ncols):
            col = cols[s]
            n = len(col)
            if not n:
                continue
            d = down[s]
            up = n - d
            same = trail[s]  # one-suit run at the end
            m = movable_length(col, d, True) if permissive else same  # the group that may move
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
