"""A hint that does not peek: the next action chosen from what a player sees, and the player who
follows it.

What a player sees is a ``fair_view.View``: the face-up cards, the face-down counts, the cards
seen before, the deck.

``fair_hint`` chooses from the view alone, by sampling (determinization): it fills the unseen
slots with the unseen cards in ``samples`` random orders, seeded from a digest of the view (the
same view gives the same samples on every machine), and, on each filling, looks ahead from the
position after each action worth trying with the solver's compiled beam search
(``beam.BeamSolver``, a few positions wide, a few moves deep): a win found, or else the beam's
rank of the best position of each of its levels, summed (``lookahead``). It plays the action
whose worth, summed over the fillings, is the highest. Budgets are counts, so the choice is the
same on every machine; a guard of CPU time (``CPU_GUARD`` seconds a call) stops sampling early on
a machine too slow, the only case where the choice could differ.

``play`` is the player who follows the hint from the deal to the end without undo; ``grade`` is a
deal's difficulty from the player's wins over playouts with different sampling seeds.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field

from spidercli.game.actions import Action, Deal, Flip, Move
from spidercli.game.codes import Setup, parse_code
from spidercli.game.engine import Game
from spidercli.game.rules import CLASSIC, Ruleset
from spidercli.solver.beam import BeamSolver
from spidercli.solver.fair_view import Sight, View, shown_key, view_of
from spidercli.solver.grades import PLAYOUTS, Grade
from spidercli.solver.hints import reasons_for
from spidercli.solver.search import Problem, Step, _Budget
from spidercli.text.messages import N_, Nn_, brief, counted
from spidercli.text.words import ResultWords

# A move's CPU guard: sampling stops once a call has taken this much CPU time (the budgets are
# counts, chosen so that this is never reached on an ordinary machine; see docs/fair.md).
CPU_GUARD = 0.9


# ------------------------------------------------------------------------------ the choice


# How a lookahead may be valued (``lookahead``); ``auto``: ``best`` with one or two suits,
# ``levels`` with four (each measured the stronger there: docs/fair.md).
WORTHS = ("auto", "levels", "best", "progress")


@dataclass(frozen=True)
class FairBudget:
    """How much a fair hint searches: ``samples`` fillings of the unseen cards; on each, for
    each action worth trying, a beam search (the solver's, compiled) of ``width`` positions per
    number of deals done, ``depth`` moves deep, from the position after that action. With
    ``first`` (0: off), only the ``first`` fillings go to every action: the rest go to the
    ``keep`` best actions after them. ``worth``: how a lookahead is valued (``lookahead``;
    ``auto``, the shipped, is ``best`` with one or two suits and ``levels`` with four;
    ``progress`` was tried and found weaker). Counts, never seconds: the same budget gives the
    same choice on every machine."""

    samples: int = 8
    width: int = 5
    depth: int = 15
    first: int = 0
    keep: int = 3
    worth: str = "auto"

    def __post_init__(self) -> None:
        if self.worth not in WORTHS:
            raise ValueError(f"worth must be one of {', '.join(WORTHS)}, not {self.worth!r}")
        for name in ("samples", "width", "depth", "first", "keep"):
            value = getattr(self, name)
            low = 0 if name == "first" else 1
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"{name} must be an int, 1 or more, not {value!r}")


DEFAULT_BUDGET = FairBudget()


@dataclass(frozen=True)
class FairHint:
    """The fair hint: the ``action`` (a move, a deal or a flip; None when nothing is legal or
    the game is over), the ``reasons`` in words, ``won`` (the samples in which a win was found
    after it) of ``samples``, and whether the CPU guard cut the sampling short (``guarded``).
    ``to_json()`` is ``hint --fair --json``'s object: ``hint --json``'s keys (``wins_in`` is
    always None: the hint promises no win) and ``"fair": true``. Frozen; ``reasons`` is a
    tuple."""

    action: Action | None
    reasons: tuple[str, ...] = ()
    won: int = 0
    samples: int = 0
    guarded: bool = False

    def __repr__(self) -> str:
        guarded = ", guarded" if self.guarded else ""
        if self.action is None:
            why = f": {brief(self.reasons[0], 80)}" if len(self.reasons) == 1 else ""
            return f"<FairHint no move{why}>"
        return (
            f"<FairHint {self.action}: won {self.won} of {counted(self.samples, 'sample')}, "
            f"{counted(len(self.reasons), 'reason')}{guarded}>"
        )

    def to_json(self) -> dict[str, object]:
        """``hint --fair --json``'s object."""
        return {
            "action": None if self.action is None else str(self.action),
            "reasons": list(self.reasons),
            "wins_in": None,
            "deal_next": isinstance(self.action, Deal),
            "fair": True,
        }


# A lookahead's worth (higher is better): a win found is worth more than anything else, a
# shorter one more. Else, by ``FairBudget.worth``: ``levels`` the ranks
# (``BeamSolver.rank``, lower is better) of the best position of each level of the beam, summed
# (the start's included, a level the beam did not reach counted as its best), negated, so that a
# position reached sooner counts for more levels; ``best``, the best of those ranks alone,
# negated; ``progress``, the most runs removed and the fewest face-down cards among the levels'
# best positions (``_RUN_WORTH`` a run, ``_DOWN_WORTH`` a card). ``levels`` was measured the
# stronger with four suits, ``best`` with one or two, ``progress`` the weaker (docs/fair.md).
_WIN = 1 << 50
_RUN_WORTH = 200
_DOWN_WORTH = 10


def lookahead(problem: Problem, width: int, depth: int, worth: str = "levels") -> int:
    """The worth of ``problem``'s start for the player (higher is better): see ``_WIN``."""
    start = problem.start
    if start.runs >= problem.runs_to_win:
        return _WIN
    solver = BeamSolver(problem)
    budget = _Budget(None, None, None, 3600.0)
    line = solver._beam(width, depth, budget)
    if line is not None:
        return _WIN - len(line)
    pr = budget.progress
    if worth == "progress":
        runs = max(pr.best_runs, start.runs)
        return _RUN_WORTH * runs - _DOWN_WORTH * min(pr.best_down, sum(start.down))
    first = solver.rank(start)
    best = min(pr.best_rank, first)
    if worth == "best":
        return -best
    return -(first + pr.rank_sum + (depth - pr.levels) * best)


def _child(problem: Problem, solver: BeamSolver, step: Step) -> Problem:
    node = problem.start
    child = solver.after_deal(node) if step is None else solver.after_move(node, *step)
    return Problem(
        list(child.cols),
        list(child.down),
        list(problem.chunks[child.dealt :]),
        permissive=problem.permissive,
        runs=child.runs,
        runs_to_win=problem.runs_to_win,
    )


def legal_steps(game: Game) -> list[Step]:
    """The engine's legal moves and deal, as the solver's steps."""
    steps: list[Step] = list(game.legal_moves())
    if game.check_deal() is None:
        steps.append(None)
    return steps


def candidates(game: Game, steps: list[Step]) -> list[Step]:
    """The legal steps worth trying: those the beam tries (``BeamSolver.moves``: no run split
    but to lengthen a run of its suit, no whole column to an empty one), or every legal step
    when the beam would try none."""
    problem = Problem(
        [bytes(c) for c in game.cols],
        list(game.down),
        [b"x"] * game.deals_left,
        permissive=game.permissive,
        runs=game.runs,
        runs_to_win=game.kind.runs_to_win,
    )
    tried = set(BeamSolver(problem, compiled=False).moves(problem.start))
    chosen = [s for s in steps if s in tried]
    return chosen or steps


def _action(game: Game, step: Step) -> Action:
    if step is None:
        return Deal()
    s, t, k = step
    return Move(s + 1, t + 1, None if game.check_move(s, t, None) == k else k)


def fair_hint(view: View, budget: FairBudget = DEFAULT_BUDGET, *, salt: int = 0) -> FairHint:
    """The next action from ``view`` alone (never an undo): see the module's docstring.
    ``salt`` changes the samples (the grades' playouts), nothing else."""
    if view.over is not None:
        return FairHint(None, (N_("the game is over ({result})", result=ResultWords(view.over)),))
    game = view.game()
    flips = game.flippable()
    if flips:
        c = flips[0]
        return FairHint(
            Flip(c + 1), (N_("turns up the face-down card of column {column}", column=c + 1),)
        )
    steps = legal_steps(game)
    if not steps:
        return FairHint(None, (N_("no move or deal is legal"),))
    steps = candidates(game, steps)
    if view.met:
        fresh = [s for s in steps if _shown_after(game, s) not in view.met]
        steps = fresh or steps
    if len(steps) == 1:
        return _hint(game, steps[0], [N_("the only action worth trying")], 0, 0)
    worth = budget.worth
    if worth == "auto":
        worth = "levels" if view.suits > 2 else "best"
    rng = random.Random(view.digest(salt))
    start = time.process_time()
    totals: dict[Step, int] = dict.fromkeys(steps, 0)
    ranks: dict[Step, int] = dict.fromkeys(steps, 0)
    wins: Counter[Step] = Counter()
    samples = 0
    guarded = False
    active = steps

    def order(s: Step) -> tuple[int, int, tuple[int, int, int]]:
        return (-totals[s], ranks[s], _order(s))

    for i in range(budget.samples):
        if samples and time.process_time() - start > CPU_GUARD:
            guarded = True
            break
        if budget.first and i == budget.first and budget.keep < len(active):  # the best few
            active = sorted(active, key=order)[: budget.keep]
        problem = view.problem(rng)
        solver = BeamSolver(problem, compiled=False)
        samples += 1
        for step in active:
            child = _child(problem, solver, step)
            value = lookahead(child, budget.width, budget.depth, worth)
            totals[step] += value
            ranks[step] += solver.rank(child.start)
            if value > _WIN // 2:
                wins[step] += 1
    best = min(active, key=order)
    won = wins[best]
    if won:
        why = Nn_(
            "a win follows in {won} of {samples} sampled deal",
            "a win follows in {won} of {samples} sampled deals",
            samples,
            won=won,
            samples=samples,
        )
    else:
        why = Nn_(
            "the best prospect over {samples} sampled deal",
            "the best prospect over {samples} sampled deals",
            samples,
            samples=samples,
        )
    return _hint(game, best, [why], won, samples, guarded)


def _shown_after(game: Game, step: Step) -> bytes:
    """What the position after ``step`` shows (``shown_key``), without the card a move turns
    up or a deal brings (unknown before it is played: any such step leads somewhere new)."""
    if step is None:
        return b"deal"
    s, t, k = step
    if game.down[s] == len(game.cols[s]) - k and game.down[s]:
        return b"reveals"
    game.move(s, t, k)
    key = shown_key(game.cols, game.down, game.deals_done, game.runs)
    game.undo()
    return key


def _order(step: Step) -> tuple[int, int, int]:
    return (99, 0, 0) if step is None else step


def _hint(
    game: Game, step: Step, why: list[str], won: int, samples: int, guarded: bool = False
) -> FairHint:
    action = _action(game, step)
    reasons = ([N_("deals a row")] if step is None else reasons_for(game, *step)) + why
    return FairHint(action, tuple(reasons), won, samples, guarded)


# ------------------------------------------------------------------------------ the player


@dataclass(frozen=True)
class FairGame:
    """A game played by following the fair hint from the deal: ``won``, the ``moves`` (deals
    counted, as the score counts them), the ``actions`` played, and ``result`` (the engine's:
    won, blocked, or ``open`` when the player stopped: a position met a third time,
    ``MAX_IDLE`` actions without progress, or ``MAX_ACTIONS``)."""

    won: bool
    moves: int
    result: str
    actions: tuple[Action, ...]
    # the most CPU seconds one hint took (a measure, not part of the game: not compared)
    slowest: float = field(default=0.0, compare=False)


# The player stops a game (a loss) after this many actions, or when it meets a position (as it
# shows: ``shown_key``) for the third time: the hint then only goes round in circles.
MAX_ACTIONS = 1000
MAX_VISITS = 2
# It also stops after this many actions without progress: no card turned, run removed or row
# dealt (a hint that wanders among new positions that lead nowhere).
MAX_IDLE = 200


def play(
    setup: Setup,
    rules: Ruleset = CLASSIC,
    budget: FairBudget = DEFAULT_BUDGET,
    *,
    salt: int = 0,
    max_actions: int = MAX_ACTIONS,
) -> FairGame:
    """Follow the fair hint from ``setup``'s deal to the end, without undo."""
    game = Game.from_setup(setup, rules)
    sight = Sight(game)
    actions: list[Action] = []
    visits: Counter[bytes] = Counter()
    progress = (sum(game.down), -game.runs, -game.deals_done)
    idle = 0
    slowest = 0.0
    while game.over is None and len(actions) < max_actions and idle < MAX_IDLE:
        shown = shown_key(game.cols, game.down, game.deals_done, game.runs)
        visits[shown] += 1
        if visits[shown] > MAX_VISITS:  # going round in circles: stuck
            break
        view = view_of(game, sight)
        clock = time.process_time()
        action = fair_hint(view, budget, salt=salt).action
        slowest = max(slowest, time.process_time() - clock)
        if action is None:
            break
        refusal = game.play(action)
        if refusal is not None:  # never expected: the hint plays legal actions only
            raise RuntimeError(f"the fair hint chose {action}, which the engine refuses: {refusal}")
        actions.append(action)
        sight.saw(game)
        now = (sum(game.down), -game.runs, -game.deals_done)
        if now < progress:
            progress, idle = now, 0
        else:
            idle += 1
    return FairGame(game.over == "won", game.moves, game.result, tuple(actions), slowest)


# ------------------------------------------------------------------------------ grades


# A grade's playouts and budget: each playout is the player with another sampling seed (salt
# 1, 2, ...). The budget is the shipped hint's, fewer samples: a 4-suit deal costs a few CPU
# seconds to grade (docs/fair.md).
GRADE_BUDGET = FairBudget(samples=4, width=5, depth=15)


def grade(
    deal: str | Setup,
    *,
    playouts: int = PLAYOUTS,
    budget: FairBudget = GRADE_BUDGET,
    rules: Ruleset = CLASSIC,
) -> Grade:
    """The grade of a deal (a game code, or a ``Setup``): the same on every machine (the
    budgets are counts, the seeds fixed). ``ValueError`` for text that is not a game code."""
    setup = Setup.from_code(parse_code(deal)) if isinstance(deal, str) else deal
    if isinstance(playouts, bool) or not isinstance(playouts, int) or playouts < 1:
        raise ValueError(f"playouts must be an int, 1 or more, not {playouts!r}")
    won = sum(play(setup, rules, budget, salt=salt).won for salt in range(1, playouts + 1))
    return Grade(won, playouts)


__all__ = [
    "CPU_GUARD",
    "DEFAULT_BUDGET",
    "GRADE_BUDGET",
    "MAX_ACTIONS",
    "FairBudget",
    "FairGame",
    "FairHint",
    "fair_hint",
    "grade",
    "legal_steps",
    "play",
    "view_of",
]
