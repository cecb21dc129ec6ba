"""From the solver's line of play to actions any ruleset accepts.

``solve_setup`` searches a deal and turns the winning steps into log actions: ``S>T`` where the
contract's inference picks the same count, ``S>T:K`` otherwise, ``deal``, and under ``duel`` a
``flip N`` after every action that leaves a column ending face-down. Every action is played
through the engine as it is made, so a solution that reaches the caller is a verified win.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from spidercli.game.actions import Action, Deal, Flip, Move
from spidercli.game.codes import Setup
from spidercli.game.engine import Game
from spidercli.game.rules import Ruleset, bound_holds, classic_moves_only
from spidercli.solver.beam import BeamSolver
from spidercli.solver.bounds import lower_bound
from spidercli.solver.lock import lock
from spidercli.solver.proof import ProofSearch
from spidercli.solver.search import (
    Outcome,
    Problem,
    Progress,
    Solver,
    SolveStatus,
    Step,
    problem_from_game,
    shorten,
)


class SolverBugError(RuntimeError):
    """The solver proposed an action the engine refuses (never expected)."""


@dataclass
class Solved:
    """A search's result: the winning actions (None when not found), the final position, and
    the lower bound on any win's moves from the start (``bounds.lower_bound``; 0 under rules its
    argument does not cover, ``rules.bound_holds``)."""

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

    @property
    def result(self) -> SolveStatus:
        return self.outcome.result


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
    rules' moves (automatic flips, no card onto a column of only face-down cards, no deal while
    a column is empty), which win under every ruleset, but rules that allow more (``duel``,
    ``kpat``) may win where they cannot. An allow-list: every field of ``Ruleset`` is classified
    in ``rules.REACH``, and a proof holds only where each that can allow more has a value that
    allows no more than the classic moves (``rules.classic_moves_only``)."""
    return classic_moves_only(rules)


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
    bound = lower_bound(problem) if bound_holds(rules) else 0  # 0: no win is shorter, surely
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


def _as_move(game: Game, s: int, t: int, k: int) -> Move:
    return Move(s + 1, t + 1, None if game.check_move(s, t, None) == k else k)
