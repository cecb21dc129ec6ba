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
hash: a proof cannot rest on chance); past ``MAX_POSITIONS`` (about 1 GB) it gives up.
"""

from __future__ import annotations

from collections.abc import Iterator

from spidercli.solver import Position, Problem, Search, Solver, Step, _Budget, _Stop

# The positions met before the search gives up: each costs about 1 KB (its key, and its place on
# the path the search holds; 429 MB for 438,090 positions measured), so some 1 GB.
MAX_POSITIONS = 1_000_000

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


class ProofSearch(Search):
    """Depth first over every legal action, each position (under ``position_key``'s equivalence)
    once: a win's line, or, when the space is exhausted, the proof that none exists."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem)
        self._moves = Solver(problem).moves
        self.positions = 0  # the positions met (each equivalence class once)

    def _children(self, node: Position) -> Iterator[tuple[Step, Position]]:
        for step in self._moves(node, True):
            yield step, (self.after_deal(node) if step is None else self.after_move(node, *step))

    def _run(self, budget: _Budget) -> tuple[list[Step] | None, bool]:
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
                raise _Stop
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


__all__ = ["MAX_POSITIONS", "Key", "ProofSearch", "position_key"]
