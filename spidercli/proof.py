"""A search of the whole space of play, whose exhaustion proves that no win exists.

``ProofSearch`` plays every legal move (every count of every movable group onto every column
that takes it, empty ones included) and the deal when legal, depth first, and meets each
position once **up to one equivalence**: once the stock is out, two positions whose columns are
the same columns in another order are one position (no rule then tells one column from another:
a deal, the only action that does, is over). While cards remain to deal, positions are equal
only when every column is equal, in its place (the deal puts its cards column by column). A
position is its columns' cards, their face-down counts and the deals done (the cards gone
follow from the cards left).

When the search has met every position reachable from the start without meeting a win, no
line of play wins: ``Outcome.exhaustive``. It finds a win when there is one within its budget,
but not a short one (the beam does that); ``solution.search`` runs it only after every beam
pass failed without running out of budget. Each position met is kept as an exact key (never a
hash: a proof cannot rest on chance).

The search has two twins that search alike (the same actions in the same order, the same
equivalence, the same positions counted, so the same line or the same proof): the compiled one
(``spidercli/_proof.c``, used when it was built, unless SPIDERCLI_PURE_PYTHON is set), which
holds 75-90 bytes a position (measured: its key, its slot in a table, its path), some 23 times
as fast, and gives up before it would hold more than ``default_memory()`` bytes (8 GiB, or a
quarter of the machine's memory when that is less); and the pure
Python one here (``_run_python``), about 1 KB a position, which gives up past ``MAX_POSITIONS``
(about 1 GB). docs/solver.md, "Proofs", has the figures.

Before searching, it asks ``lock.lock`` whether the start is locked (no run can ever be removed
from it, whatever is played): then it ends at once, unwinnable, having met one position.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from spidercli import solver
from spidercli.lock import Lock, lock
from spidercli.solver import (
    Position,
    Problem,
    Search,
    Solver,
    Step,
    _Budget,
    _fits,
    compiled_proof_by_default,
)

# The positions the pure Python search meets before it gives up: each costs about 1 KB (its key,
# and its place on the path the search holds; 429 MB for 438,090 positions measured), so some 1 GB.
MAX_POSITIONS = 1_000_000
# The most memory the compiled search may hold (its keys, their table, its path) before it gives
# up; default_memory() takes less on a machine with less than 32 GiB.
MEMORY = 8 << 30


def default_memory() -> int:
    """The compiled search's budget of bytes: ``MEMORY``, or a quarter of the machine's memory
    when that is less (a proof on a laptop leaves it room; ``MEMORY`` where the size is not
    known)."""
    try:
        ram = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # no sysconf (Windows), or not that name
        return MEMORY
    return min(MEMORY, ram // 4) if ram > 0 else MEMORY


# A position's key: (columns, face-down counts, deals done) in place, or (None, the sorted
# (column, face-down count) pairs) once the stock is out.
Key = tuple[object, ...]


def position_key(node: Position, deals: int) -> Key:
    """The position's key under the search's equivalence (``deals``: the deals in all): its
    columns in place while cards remain to deal, their sorted list once the stock is out. The
    columns' ``bytes`` are shared with the positions, so a key costs little memory."""
    if node.dealt >= deals:
        return (None, tuple(sorted(zip(node.cols, node.down, strict=True))))
    return (node.cols, node.down, node.dealt)


def compiled_fits(problem: Problem) -> bool:
    """Whether the compiled search takes this problem: what the compiled beam takes
    (``solver._fits``: every deal spidercli plays), every column's top card face up."""
    start = problem.start
    return _fits(problem) and all(
        d < len(c) if c else d == 0 for c, d in zip(start.cols, start.down, strict=True)
    )


class ProofSearch(Search):
    """Depth first over every legal action, each position (under ``position_key``'s equivalence)
    once: a win's line, or, when the space is exhausted, the proof that none exists. Compiled
    (``spidercli/_proof.c``) or in pure Python (``_run_python``), the same search."""

    def __init__(
        self,
        problem: Problem,
        *,
        compiled: bool | None = None,
        memory: int | None = None,
        locks: bool = True,
    ) -> None:
        """``compiled``: search compiled (True; an error when it was not built), in Python
        (False), or by default (None: see ``solver.compiled_proof_by_default``); a problem the
        compiled search does not take (``compiled_fits``) is searched in Python. ``memory``: the
        compiled search's budget of bytes (default ``default_memory()``). ``locks``: first ask
        ``lock.lock`` whether the start is locked (then no run can ever be removed: the search
        ends there, unwinnable, one position met, ``lock`` set); False searches it anyway."""
        super().__init__(problem)
        self.locks = locks
        self.lock: Lock | None = None  # what proved the start locked, when it is
        self._moves = Solver(problem).moves
        self.positions = 0  # the positions met (each equivalence class once)
        # The compiled search's last word on its path's length, the deals done where it stands,
        # and the bytes it holds (the pure Python search leaves them at 0).
        self.depth = 0
        self.dealt = 0
        self.memory = 0
        if compiled and solver._compiled_proof is None:
            raise RuntimeError("the compiled proof search (spidercli._proof) was not built")
        use = compiled_proof_by_default() if compiled is None else compiled
        self.compiled = use and compiled_fits(problem)
        self.max_bytes = default_memory() if memory is None else memory

    def _children(self, node: Position) -> Iterator[tuple[Step, Position]]:
        for step in self._moves(node, True):
            yield step, (self.after_deal(node) if step is None else self.after_move(node, *step))

    def _run(self, budget: _Budget) -> tuple[list[Step] | None, bool]:
        root = self.p.start
        if self.locks and root.runs < self.p.runs_to_win:
            self.lock = lock(self.p)
            if self.lock is not None:  # no run can ever be removed: nothing to search
                budget.progress.phase = "proof"
                self.positions = 1
                budget.tick()  # the start, met (a spent budget stops here, and proves nothing)
                self.locked = self.lock.ranks
                return None, True
        if self.compiled:
            return self._run_compiled(budget)
        return self._run_python(budget)

    def _run_compiled(self, budget: _Budget) -> tuple[list[Step] | None, bool]:
        compiled = solver._compiled_proof
        assert compiled is not None
        budget.progress.phase = "proof"
        line, exhaustive = compiled.search(
            *self.p.compiled_args(),
            -1,
            min(max(self.max_bytes, 0), _C_LONG_LONG_MAX),
            budget.grant,
            budget.progress,
            self,
        )
        if line is None and not exhaustive:
            raise budget.stop("memory")  # its memory spent
        return line, exhaustive

    def _run_python(self, budget: _Budget) -> tuple[list[Step] | None, bool]:
        p = self.p
        goal = p.runs_to_win
        root = p.start
        if root.runs >= goal:
            return [], False
        deals = len(p.chunks)
        progress = budget.progress
        progress.phase = "proof"
        seen = {position_key(root, deals)}
        self.positions = 1
        tick = budget.tick
        tick()
        stack = [self._children(root)]
        path: list[Step] = []
        while stack:
            found = next(stack[-1], None)
            if found is None:
                stack.pop()
                if path:
                    path.pop()
                continue
            step, child = found
            if child.runs >= goal:
                return [*path, step], False
            key = position_key(child, deals)
            if key in seen:
                continue
            if len(seen) >= MAX_POSITIONS:
                raise budget.stop("memory")
            tick()
            seen.add(key)
            self.positions = len(seen)
            if child.runs > progress.best_runs:
                progress.best_runs = child.runs
            if child.dealt > progress.best_deals:
                progress.best_deals = child.dealt
            stack.append(self._children(child))
            path.append(step)
        return None, True


_C_LONG_LONG_MAX = (1 << 63) - 1  # the compiled search's budget of bytes is a C long long

__all__ = [
    "MAX_POSITIONS",
    "MEMORY",
    "Key",
    "ProofSearch",
    "compiled_fits",
    "default_memory",
    "position_key",
]
