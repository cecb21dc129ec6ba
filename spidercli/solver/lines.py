"""From the solver's line of play to actions any ruleset accepts, and hints.

``solve_setup`` searches a deal and turns the winning steps into log actions: ``S>T`` where the
contract's inference picks the same count, ``S>T:K`` otherwise, ``deal``, and under ``duel`` a
``flip N`` after every action that leaves a column ending face-down. Every action is played
through the engine as it is made, so a solution that reaches the caller is a verified win.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from spidercli.game.actions import Action, Deal, Flip, Move
from spidercli.game.codes import Setup
from spidercli.game.engine import Game
from spidercli.game.rules import Ruleset
from spidercli.solver.beam import BeamSolver
from spidercli.solver.bounds import lower_bound
from spidercli.solver.lock import lock
from spidercli.solver.proof import ProofSearch
from spidercli.solver.search import (
    Outcome,
    Problem,
    Progress,
    Solver,
    Step,
    problem_from_game,
    shorten,
)
from spidercli.text.messages import N_, Nn_
from spidercli.text.words import ResultWords


class SolverBugError(RuntimeError):
    """The solver proposed an action the engine refuses (never expected)."""


@dataclass
class Solved:
    """A search's result: the winning actions (None when not found), the final position, and
    the lower bound on any win's moves from the start (``bounds.lower_bound``)."""

    outcome: Outcome
    actions: list[Action] | None
    game: Game  # the won game, or the starting position when unsolved
    lower_bound: int = 0

    @property
    def exhaustive(self) -> bool:
        return self.outcome.exhaustive

    @property
    def progress(self) -> Progress:
        return self.outcome.progress


def _flip_exposed(game: Game, out: list[Action]) -> None:
    for c in game.flippable():
        out.append(Flip(c + 1))
        _play(game, out[-1])


def _play(game: Game, action: Action) -> None:
    refusal = game.play(action)
    if refusal is not None:
        raise SolverBugError(f"the engine refuses {action}: {refusal}")


def actions_for(game: Game, steps: list[Step]) -> list[Action]:
    """Play ``steps`` on ``game`` (changed in place) and return them as log actions."""
    out: list[Action] = []
    _flip_exposed(game, out)
    for step in steps:
        action: Action = Deal() if step is None else _as_move(game, *step)
        out.append(action)
        _play(game, action)
        _flip_exposed(game, out)
    return out


def _counting_on(
    report: Callable[[Progress], None], states: int, seconds: float
) -> Callable[[Progress], None]:
    """``report`` for a search that follows others: its figures counted on from theirs (the
    live line never goes back to 0 when the proof starts)."""
    return lambda pr: report(replace(pr, states=pr.states + states, seconds=pr.seconds + seconds))


def proves_under(rules: Ruleset) -> bool:
    """Whether the search's failure proves anything under ``rules``: it plays the classic
    rules' moves (no card onto a column of only face-down cards, no deal while a column is
    empty), which win under every ruleset, but rules that allow more (``duel``, ``kpat``) may
    win where they cannot."""
    return not rules.face_down_column_is_empty and not rules.deal_with_empty_column


def search(
    problem: Problem,
    *,
    timeout: float | None,
    max_states: int | None = None,
    report: Callable[[Progress], None] | None = None,
    memory: int | None = None,
    proves: bool = True,
) -> Outcome:
    """Search for a win from ``problem``'s position: beams of growing width first, then (when
    they fail without running out of budget) the whole space of play (``proof.ProofSearch``),
    which finds a win or proves the position unwinnable. A locked position (``lock.lock``: no
    run can ever be removed) goes to the proof at once, which ends there. ``memory``: the
    proof's budget of bytes (None: ``proof.default_memory()``). ``proves``: whether a search
    that finds no win proves anything under the rules played (``proves_under``); when not, no
    lock is looked for, and a whole space searched without a win is a give-up (``stop``
    ``"rules"``), not a proof."""
    deadline = None if timeout is None else time.monotonic() + timeout
    spent, took = 0, 0.0
    if not proves or lock(problem) is None:  # a millisecond; a beam would only wander
        outcome = BeamSolver(problem).solve(max_states=max_states, deadline=deadline, report=report)
        if outcome.steps is not None or outcome.progress.phase == "gave up":
            return outcome
        spent, took = outcome.progress.states, outcome.progress.seconds
    rest = None if max_states is None else max(max_states - spent, 0)
    live = None if report is None else _counting_on(report, spent, took)
    proof = ProofSearch(problem, memory=memory, locks=proves).solve(
        max_states=rest, deadline=deadline, report=live
    )
    proof.progress.states += spent  # the beams' positions and time, then the proof's
    proof.progress.seconds += took
    if proof.exhaustive and not proves:  # the classic moves' space only: no proof here
        proof.progress.phase = "gave up"
        proof.progress.stop = "rules"
        return replace(proof, exhaustive=False)
    return proof


def solve_setup(
    setup: Setup,
    rules: Ruleset,
    *,
    timeout: float | None = 60.0,
    max_states: int | None = None,
    report: Callable[[Progress], None] | None = None,
    memory: int | None = None,
) -> Solved:
    game = Game.from_setup(setup, rules)
    problem = problem_from_game(game)
    bound = lower_bound(problem)
    outcome = search(
        problem,
        timeout=timeout,
        max_states=max_states,
        report=report,
        memory=memory,
        proves=proves_under(rules),
    )
    if outcome.steps is None:
        return Solved(outcome, None, game, bound)
    solver = Solver(problem)
    steps = outcome.steps
    while True:  # cut detours until none is left
        shorter = shorten(solver, steps, reach=1)
        if len(shorter) >= len(steps):
            break
        steps = shorter
    actions = actions_for(game, steps)  # the starting position becomes the won game
    if game.result != "won":
        raise SolverBugError(f"the solver's line ends {game.result}, not won")
    return Solved(outcome, actions, game, bound)


# ---------------------------------------------------------------------------------- hints


@dataclass
class Hint:
    """The best next action (``hint``): the ``action`` to play (``str(action)`` is its log
    text, ``3>7`` or ``flip 4``; None when no move helps, a hint never names a deal), the
    ``reasons`` it helps, in words, ``wins_in``: the moves (and deals) of the win the search
    found from here (None: none found), and ``deal_next``: that win deals before any move.
    ``to_json()`` is ``hint --json``'s object."""

    action: Action | None  # None: no move helps (a hint never names a deal)
    reasons: list[str] = field(default_factory=list)
    wins_in: int | None = None  # moves (and deals) to a win found by the search
    deal_next: bool = False  # the win found deals before any move

    def to_json(self) -> dict[str, object]:
        """``hint --json``'s object."""
        return {
            "action": None if self.action is None else str(self.action),
            "reasons": self.reasons,
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


def hint(
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
        return Hint(None, [N_("the game is over ({result})", result=ResultWords(game.over))])
    flips = game.flippable()
    if flips:
        c = flips[0]
        return Hint(
            Flip(c + 1), [N_("turns up the face-down card of column {column}", column=c + 1)]
        )
    if on_search is not None:
        on_search()
    problem = problem_from_game(game)
    outcome = search(
        problem, timeout=timeout, max_states=max_states, proves=proves_under(game.rules)
    )
    steps = outcome.steps
    if steps:
        wins_in = len(steps)
        if steps[0] is None:
            return Hint(None, [N_("no move helps before the next deal")], wins_in, True)
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
        return Hint(_as_move(game, s, t, k), reasons, wins_in)
    if outcome.locked is not None:
        return Hint(None, [N_("no win exists from here: no run can ever be removed")])
    if outcome.exhaustive:
        return Hint(None, [N_("no win exists from here: every line of play was searched")])
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
        return Hint(None, [why])
    s, t, k = best[1]
    reasons = reasons_for(game, s, t, k) or [N_("improves the position")]
    if by_states:
        reasons.append(N_("no win found in {states:,} positions", states=max_states))
    else:
        reasons.append(N_("no win found in {seconds:g} s", seconds=timeout))
    return Hint(_as_move(game, s, t, k), reasons)


def _as_move(game: Game, s: int, t: int, k: int) -> Move:
    return Move(s + 1, t + 1, None if game.check_move(s, t, None) == k else k)
