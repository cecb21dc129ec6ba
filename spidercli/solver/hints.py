"""Hints: the best next action from a position (``find_hint``), and why it helps, in words.

The search is the one ``solve`` runs (``lines.search``), and its end is read as ``solve`` reads
it (``Outcome.result``): a win found gives its first move, a proof that none exists says so, and
a search that gave up falls back on the move to the best position by the solver's measure.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from spidercli.game.actions import Action, Flip
from spidercli.game.engine import Game
from spidercli.solver.lines import _as_move, proves_under, search
from spidercli.solver.search import Solver, problem_from_game
from spidercli.text.messages import N_, Nn_, brief, counted
from spidercli.text.words import ResultWords


@dataclass(frozen=True)
class Hint:
    """The best next action (``hint``): the ``action`` to play (``str(action)`` is its log
    text, ``3>7`` or ``flip 4``; None when no move helps, a hint never names a deal), the
    ``reasons`` it helps, in words, ``wins_in``: the moves (and deals) of the win the search
    found from here (None: none found), and ``deal_next``: that win deals before any move.
    ``to_json()`` is ``hint --json``'s object. Frozen; ``reasons`` is a tuple."""

    action: Action | None  # None: no move helps (a hint never names a deal)
    reasons: tuple[str, ...] = ()
    wins_in: int | None = None  # moves (and deals) to a win found by the search
    deal_next: bool = False  # the win found deals before any move

    def __repr__(self) -> str:
        wins = "" if self.wins_in is None else f", wins in {self.wins_in}"
        deal = ", deal next" if self.deal_next else ""
        if self.action is None:
            why = f": {brief(self.reasons[0], 80)}" if len(self.reasons) == 1 else ""
            return f"<Hint no move{why}{wins}{deal}>"
        return f"<Hint {self.action}: {counted(len(self.reasons), 'reason')}{wins}{deal}>"

    def to_json(self) -> dict[str, object]:
        """``hint --json``'s object."""
        return {
            "action": None if self.action is None else str(self.action),
            "reasons": list(self.reasons),
            "wins_in": self.wins_in,
            "deal_next": self.deal_next,
        }


def reasons_for(game: Game, s: int, t: int, k: int) -> list[str]:
    """Why a move helps, in words: what it reveals, empties, builds or completes."""
    col = game.cols[s]
    first = col[-k]
    out: list[str] = []
    if k == len(col):
        out.append(N_("empties column {column}", column=s + 1))
    elif game.down[s] == len(col) - k:
        out.append(N_("reveals a card in column {column}", column=s + 1))
    target = game.cols[t]
    if not target:
        out.append(N_("uses the empty column {column}", column=t + 1))
    elif target[-1] == first + 1:
        out.append(N_("builds on the same suit"))
    runs = game.runs
    game.move(s, t, k)
    if game.runs > runs:
        out.append(N_("completes a run"))
    game.undo()
    return out


def find_hint(
    game: Game,
    *,
    timeout: float = 5.0,
    max_states: int | None = None,
    on_search: Callable[[], None] | None = None,
) -> Hint:
    """The best next action from ``game`` (changed and restored; never a deal), the search for a
    win taking at most ``timeout`` seconds and ``max_states`` positions (None: no limit). A game
    over and a card to turn up are answered at once; otherwise the solver searches, and
    ``on_search`` (the command line's note on the solver's pass) is called just before."""
    if game.over is not None:
        return Hint(None, (N_("the game is over ({result})", result=ResultWords(game.over)),))
    flips = game.flippable()
    if flips:
        c = flips[0]
        return Hint(
            Flip(c + 1), (N_("turns up the face-down card of column {column}", column=c + 1),)
        )
    if on_search is not None:
        on_search()
    problem = problem_from_game(game)
    outcome = search(
        problem, timeout=timeout, max_states=max_states, proves=proves_under(game.rules)
    )
    steps = outcome.steps
    if outcome.result == "won" and steps:
        wins_in = len(steps)
        if steps[0] is None:
            return Hint(None, (N_("no move helps before the next deal"),), wins_in, True)
        s, t, k = steps[0]
        reasons = reasons_for(game, s, t, k)
        reasons.append(
            Nn_(
                "a win follows in {moves} move",
                "a win follows in {moves} moves",
                wins_in,
                moves=wins_in,
            )
        )
        return Hint(_as_move(game, s, t, k), tuple(reasons), wins_in)
    if outcome.result == "unwinnable":
        if outcome.locked is not None:
            return Hint(None, (N_("no win exists from here: no run can ever be removed"),))
        return Hint(None, (N_("no win exists from here: every line of play was searched"),))
    # No win found: the move that leads to the best position by the solver's measure.
    solver = Solver(problem)
    node = problem.start
    best: tuple[int, tuple[int, int, int]] | None = None
    for step in solver.moves(node, False):
        if step is not None:
            score = solver.cost(solver.after_move(node, *step))
            if best is None or score < best[0]:
                best = (score, step)
    by_states = max_states is not None and outcome.progress.stop == "states"
    if best is None or best[0] >= solver.cost(node):
        if by_states:
            why = N_(
                "no move improves the position, and no win was found in {states:,} positions",
                states=max_states,
            )
        else:
            why = N_(
                "no move improves the position, and no win was found in {seconds:g} s",
                seconds=timeout,
            )
        return Hint(None, (why,))
    s, t, k = best[1]
    reasons = reasons_for(game, s, t, k) or [N_("improves the position")]
    if by_states:
        reasons.append(N_("no win found in {states:,} positions", states=max_states))
    else:
        reasons.append(N_("no win found in {seconds:g} s", seconds=timeout))
    return Hint(_as_move(game, s, t, k), tuple(reasons))
