"""The beam pass: the search that ``spidercli solve`` runs first, and which pass runs it.

``BeamSolver`` is a beam search, one move a level: it expands every position of a level and keeps
the best few children for each number of deals done, so the first win it meets is about as short
as the beam can see. Its rank of a position (disorder, then cards ready to move) is a sum over
columns, memoised per column, and a move's child is ranked from the two columns it changes before
its position is even built. Narrow beams first; when one fails (or wanders past its level cap), a
wider one.

One pass of it is compiled (``_beam.c``, an optional C extension built by setup.py) and runs in
place of the Python pass where it was built; both give the same lines
(``tests/test_beam_compiled.py``). ``SPIDERCLI_PURE_PYTHON=1`` forces the Python pass.
"""

from __future__ import annotations

import heapq
import os
from hashlib import blake2b
from types import ModuleType
from typing import NamedTuple

from spidercli.game.groups import movable_length
from spidercli.solver.search import (
    Position,
    Problem,
    Search,
    Step,
    _Budget,
    _fits,
    _Stop,
    _take_run,
)

_compiled: ModuleType | None
try:  # the compiled beam pass (spidercli/solver/_beam.c), built where a C compiler was found
    from spidercli.solver import _beam as _compiled
except ImportError:  # pragma: no cover - depends on the build
    _compiled = None


def compiled_available() -> bool:
    """Whether the compiled beam pass was built and imports."""
    return _compiled is not None


def compiled_by_default() -> bool:
    """The beam's default: the compiled pass when built, unless SPIDERCLI_PURE_PYTHON is set
    (to anything but empty or 0)."""
    return pure_python_reason() is None


def pure_python_reason() -> str | None:
    """Why the beam runs its pure Python pass by default: ``"not built"`` (the compiled pass is
    missing: no compiler at install, or its build failed), ``"asked"`` (SPIDERCLI_PURE_PYTHON
    is set), or None: the compiled pass runs."""
    if _compiled is None:
        return "not built"
    if os.environ.get("SPIDERCLI_PURE_PYTHON", "") not in ("", "0"):
        return "asked"
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
    # leaves the budget to the next. The 600 pass capped at 5000 moves wins the deals that need
    # a long line (PS4-2457: won at level 3236 in 7 s, then polished to 497 moves); uncapped, it
    # wandered on other deals until the budget ended (PS4-3670: 375,000,000 positions in 267 s),
    # and no pass after it ever ran; capped, it ends in about 5 s. The three widest, capped at
    # 500 moves, win the rare 4-suit deals every pass before them misses (about 1 in 700 of
    # PySol's: each of the 19 among 1-13580 that a 60 s sweep gave up on is won by one of them
    # in 4-60 s; one at 50000 but not at 100000: beams of different widths see different lines).
    # A process running the 100000-wide pass peaks at about 600 MB, the 12000-wide one at about
    # 140 MB.
    SCHEDULE: tuple[tuple[int, int | None], ...] = (
        (40, 250),
        (150, 300),
        (600, 400),
        (2000, 400),
        (6000, 400),
        (12000, 400),
        (600, 5000),
        (30000, 500),
        (50000, 500),
        (100000, 500),
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
            # The one-suit run on top. A face-down last card (no legal play reaches one) counts
            # as a run of one, as in the compiled pass (``info_of`` in ``_beam.c``).
            same = movable_length(col, min(d, n - 1), False)
            digest = column_digest(col, d)
            info = (disorder, same, 1 << 4 * ((col[0] & 15) + 1), 1 << 4 * (col[-1] & 15), digest)
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
            # The group that may move (from a face-down last card, one card, as ``same``).
            m = movable_length(col, min(d, n - 1), True) if permissive else same
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
                rank = self._rank(*level[0].sums)
                pr.best_rank = min(pr.best_rank, rank)
                pr.levels += 1
                pr.rank_sum += rank
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
