"""``spidercli solve`` and ``hint`` without the command line: what to say about the search.

``solve_target`` reads a game code (or, failing that, leaves the caller to read a log) and checks
the ruleset; ``win_log`` is the winning line as a move log with its ``expect`` block; the
sentences on the search's end (won, proven unwinnable, budget spent) are built here, once.
"""

from __future__ import annotations

from spidercli.codes import Setup
from spidercli.i18n import _, ngettext
from spidercli.logwriter import format_log
from spidercli.messages import N_, message_of, said
from spidercli.refusals import sentence
from spidercli.replay import Illegal, figures
from spidercli.rules import Ruleset, check_playable
from spidercli.solution import Solved


def check_solvable(setup: Setup, rules: Ruleset) -> None:
    """``ValueError`` when ``rules`` cannot play the deal (naming the deal)."""
    try:
        check_playable(rules, setup)
    except ValueError as err:
        raise ValueError(N_("{error} ({deal})", error=message_of(err), deal=setup.name)) from err


def searched(solved: Solved) -> str:
    """How much was searched: ``12,345 states in 0.52 s``."""
    p = solved.progress
    return ngettext(
        "{states:,} state in {seconds:.2f} s", "{states:,} states in {seconds:.2f} s", p.states
    ).format(states=p.states, seconds=p.seconds)


def no_win_message(setup: Setup, solved: Solved) -> str:
    """Why there is no log: the deal is proven unwinnable, or the budget ran out."""
    if solved.exhaustive:
        return _("{deal} cannot be won: every line of play was searched ({searched})").format(
            deal=said(setup.name), searched=searched(solved)
        )
    return _(
        "no win found for {deal} within the budget ({searched}); the search gave up, which "
        "proves nothing"
    ).format(deal=said(setup.name), searched=searched(solved))


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


def solved_message(setup: Setup, solved: Solved) -> str:
    """The closing line of a win: the moves, the score and the search."""
    g = solved.game
    return ngettext(
        "solved {deal} in {moves} move, score {score} ({searched})",
        "solved {deal} in {moves} moves, score {score} ({searched})",
        g.moves,
    ).format(deal=said(setup.name), moves=g.moves, score=g.score, searched=searched(solved))


__all__ = [
    "check_solvable",
    "no_hint_message",
    "no_win_message",
    "searched",
    "solved_message",
    "win_log",
]
