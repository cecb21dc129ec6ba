"""``spidercli solve`` and ``hint`` without the command line: what a search found, and what to
say about it.

``solve_game`` searches a deal and returns its ``Solution``, the one record of a search's end
(``solve --json`` prints it, the API's ``solve`` returns it, each of ``sweep``'s records is a view
of it): won, proven unwinnable, or gave up. ``solution_of`` is its one builder. ``check_solvable``
checks the ruleset; ``win_log`` is the winning line as a move log with its ``expect`` block; the
sentences on the search's end are built here, once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from spidercli.game.codes import Setup
from spidercli.game.rules import Ruleset, check_playable
from spidercli.logs.writer import format_log
from spidercli.play.refusals import sentence
from spidercli.play.replay import Illegal, figures
from spidercli.solver.beam import pure_python_reason
from spidercli.solver.lines import Solved, solve_setup
from spidercli.solver.search import Progress, SolveStatus
from spidercli.text.i18n import _, ngettext
from spidercli.text.messages import N_, counted, message_of, said
from spidercli.text.words import rank_name


@dataclass(frozen=True)
class Solution:
    """What a search found, as ``solve --json``'s record: ``game`` (the canonical game code, None
    for a written-out deal), ``deal_id``, ``rules`` (the ruleset's name), ``result`` (one of
    ``SOLVE_RESULTS``), ``moves`` (the winning line's moves, deals counted, as the log's
    ``expect`` block states them; None unless won), ``lower_bound`` (no win from the deal takes
    fewer moves), ``states`` (positions searched), ``seconds`` (the search's time), and
    ``log_text`` (the winning log, as ``solve -o`` writes it; None unless won). ``score`` is the
    winning log's score (None unless won): the closing line says it; the record leaves it to the
    log. ``stopped_by`` says which budget ended a search that gave up: ``"time"``, ``"states"``
    or ``"memory"``, or ``"rules"`` when it searched the classic rules' whole space without a
    win under rules that allow more (``duel``), which proves nothing (None unless gave-up; not
    in the record, whose keys are fixed). ``locked`` is set when the proof of an unwinnable
    result is a lock rather than a search (``lock.lock``: no run can ever be removed): the ranks
    of which no card can ever be face up, maybe none (None otherwise; not in the record either).
    ``states_to_win``: the positions searched when the first win was met, before the line was
    polished (None unless won; in ``sweep``'s records, not in ``solve``'s)."""

    game: str | None
    deal_id: str
    rules: str
    result: SolveStatus
    moves: int | None
    lower_bound: int
    states: int
    seconds: float
    log_text: str | None
    score: int | None = None
    stopped_by: str | None = None
    locked: tuple[int, ...] | None = None
    states_to_win: int | None = None

    def __repr__(self) -> str:
        if self.result == "won":
            how = f", {counted(self.moves or 0, 'move')}"
        elif self.locked is not None:
            how = " (locked)"
        elif self.stopped_by is not None:
            how = f" ({self.stopped_by})"
        else:
            how = ""
        return (
            f"<Solution {self.game or f'deal {self.deal_id}'} {self.rules}: {self.result}{how}, "
            f"lower bound {self.lower_bound}, {counted(self.states, 'state')}>"
        )

    def to_json(self) -> dict[str, object]:
        """``solve --json``'s record (``log_text`` as ``log``, the seconds to the millisecond)."""
        return {
            "game": self.game,
            "deal_id": self.deal_id,
            "rules": self.rules,
            "result": self.result,
            "moves": self.moves,
            "lower_bound": self.lower_bound,
            "states": self.states,
            "seconds": round(self.seconds, 3),
            "log": self.log_text,
        }


def solve_game(
    setup: Setup,
    rules: Ruleset,
    *,
    timeout: float | None = 60.0,
    max_states: int | None = None,
    report: Callable[[Progress], None] | None = None,
    memory: int | None = None,
) -> Solution:
    """Search ``setup`` under ``rules`` (a ruleset that plays the deal: ``check_solvable`` says
    so) within the budget (``timeout`` seconds, ``max_states`` positions, ``memory`` bytes for
    the proof; None: no limit, or the proof's default), ``report`` called with the progress now
    and then; the search's ``Solution``."""
    solved = solve_setup(
        setup, rules, timeout=timeout, max_states=max_states, report=report, memory=memory
    )
    return solution_of(setup, rules, solved)


def solution_of(setup: Setup, rules: Ruleset, solved: Solved) -> Solution:
    """The ``Solution`` of what ``lines.solve_setup`` found: the one builder of a search's
    record."""
    p = solved.progress
    code = setup.code
    result = solved.result
    won = result == "won"
    first = p.first_win if p.first_win is not None else p.states
    return Solution(
        game=None if code is None else code.canonical,
        deal_id=setup.deal_id,
        rules=rules.name,
        result=result,
        moves=solved.game.moves if won else None,
        lower_bound=solved.lower_bound,
        states=p.states,
        seconds=p.seconds,
        log_text=win_log(setup, rules, solved) if won else None,
        score=solved.game.score if won else None,
        stopped_by=None if result != "gave-up" else p.stop,
        locked=solved.outcome.locked,
        states_to_win=first if won else None,
    )


def check_solvable(setup: Setup, rules: Ruleset) -> None:
    """``ValueError`` when ``rules`` cannot play the deal (naming the deal)."""
    try:
        check_playable(rules, setup)
    except ValueError as err:
        raise ValueError(N_("{error} ({deal})", error=message_of(err), deal=setup.name)) from err


def searched(solution: Solution) -> str:
    """How much was searched: ``12,345 states in 0.52 s``."""
    states = solution.states
    return ngettext(
        "{states:,} state in {seconds:.2f} s", "{states:,} states in {seconds:.2f} s", states
    ).format(states=states, seconds=solution.seconds)


def no_win_message(setup: Setup, solution: Solution) -> str:
    """Why there is no log: the deal is proven unwinnable, or the budget ran out."""
    if solution.locked:
        return ngettext(
            "{deal} cannot be won: no card of rank {ranks} can ever be face up, so no run can "
            "ever be removed ({searched})",
            "{deal} cannot be won: no card of the ranks {ranks} can ever be face up, so no run "
            "can ever be removed ({searched})",
            len(solution.locked),
        ).format(
            deal=said(setup.name),
            ranks=", ".join(rank_name(r) for r in solution.locked),
            searched=searched(solution),
        )
    if solution.locked is not None:
        return _(
            "{deal} cannot be won: no run can ever be removed, whatever is played ({searched})"
        ).format(deal=said(setup.name), searched=searched(solution))
    if solution.result == "unwinnable":
        return _("{deal} cannot be won: every line of play was searched ({searched})").format(
            deal=said(setup.name), searched=searched(solution)
        )
    if solution.stopped_by == "rules":
        return _(
            "no win found for {deal} ({searched}): the search plays the classic rules' moves, "
            "and the {rules} rules allow more, so finding none proves nothing"
        ).format(deal=said(setup.name), searched=searched(solution), rules=solution.rules)
    if solution.stopped_by == "memory":
        return _(
            "no win found for {deal} before the search's memory was spent ({searched}): the "
            "search gave up, which proves nothing, and a longer --timeout would not help"
        ).format(deal=said(setup.name), searched=searched(solution))
    return _(
        "no win found for {deal} within the budget ({searched}); the search gave up, which "
        "proves nothing"
    ).format(deal=said(setup.name), searched=searched(solution))


def no_hint_message(illegal: Illegal) -> str:
    """Why ``hint`` gives no hint: the log's first refused entry."""
    return illegal.refused(
        N_("{sentence}; no hint for an invalid log", sentence=sentence(illegal.refusal))
    )


def win_log(setup: Setup, rules: Ruleset, solved: Solved) -> str:
    """The winning line as a move log, with its ``expect`` block (``solved.actions`` is set)."""
    assert solved.actions is not None
    g = solved.game
    return format_log(
        setup,
        [str(a) for a in solved.actions],
        rules=rules.name,
        expect=figures("won", g),
        comment=f"A win found by spidercli solve: {g.moves} moves, score {g.score}.",
    )


def solved_message(setup: Setup, solution: Solution) -> str:
    """The closing line of a win: the moves, the score and the search."""
    moves = solution.moves
    assert moves is not None
    return ngettext(
        "solved {deal} in {moves} move, score {score} ({searched})",
        "solved {deal} in {moves} moves, score {score} ({searched})",
        moves,
    ).format(deal=said(setup.name), moves=moves, score=solution.score, searched=searched(solution))


def pure_python_note() -> str | None:
    """The note ``solve`` and ``hint`` print on stderr when the search runs its pure Python
    pass (None when the compiled pass runs): it is many times slower, and its lines within a
    budget may be longer."""
    why = pure_python_reason()
    if why is None:
        return None
    if why == "asked":
        reason = _("SPIDERCLI_PURE_PYTHON is set")
    else:
        reason = _("the compiled pass was not built")
    return _(
        "note: the solver runs its pure Python pass ({reason}): 25-35 times slower than the "
        "compiled one, so within a time limit its lines may be longer"
    ).format(reason=reason)


def bound_message(solution: Solution) -> str:
    """The line beside a win: its moves, the lower bound on any win's, and the gap between."""
    moves = solution.moves
    assert moves is not None
    bound = solution.lower_bound
    return ngettext(
        "{moves} move; any win takes at least {bound}: gap {gap}",
        "{moves} moves; any win takes at least {bound}: gap {gap}",
        moves,
    ).format(moves=moves, bound=bound, gap=moves - bound)


__all__ = [
    "Solution",
    "check_solvable",
    "no_hint_message",
    "no_win_message",
    "pure_python_note",
    "searched",
    "solution_of",
    "solve_game",
    "solved_message",
    "win_log",
]
