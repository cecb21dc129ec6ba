"""What a group may move: the one Python home of the rule.

Several face-up cards at the end of a column move together when they descend by one; under the
classic move rule they must also all be one suit, under the permissive one any descending group
moves (docs/rules.md). ``movable_length`` says how many cards at the end of a column that is, and
every Python reader of the rule calls it: the engine's checks (``Game._check_group``,
``Game.movable_length``, ``Game._infer_count``, the legal moves), the solver's move generators
(``search.Solver.moves``, ``beam.BeamSolver``). Two measured fast paths keep an inline copy beside
their twin in ``game/engine.py`` (``Game._plainly_legal`` and ``Game.play_all``, twins of
``Game.check_move``); ``tests/test_groups.py`` holds them, and every caller above, equal to this
function over random columns under both move rules and every ruleset. The compiled passes have
their own copies in C (``solver/_beam.c``'s ``expand``, ``solver/_proof.c``'s ``next_action``),
held equal to the Python passes by ``tests/test_beam_compiled.py`` and
``tests/test_proof_compiled.py``.
"""

from __future__ import annotations

from collections.abc import Sequence


def movable_length(col: Sequence[int], down: int, permissive: bool) -> int:
    """How many cards at the end of ``col`` (cards bottom to top, as ints; its first ``down``
    face down) can move together: the face-up cards at its end that descend by one, and, unless
    ``permissive``, are one suit (each card exactly the one before it minus 1). 0 when no card
    is face up. Its ``permissive`` answer is also the column's descending run, which ``S>T``
    searches for the count it infers."""
    i = len(col) - 1
    if i < down:
        return 0
    if permissive:
        while i > down and (col[i - 1] & 15) == (col[i] & 15) + 1:
            i -= 1
    else:
        while i > down and col[i - 1] == col[i] + 1:
            i -= 1
    return len(col) - i
