"""What a group may move, one rule in many places: ``game.groups.movable_length`` (its one Python
home) against the rule book's words, and every copy and caller held equal to it over random
columns, under both move rules and every ruleset (and two that no app ships): the engine's checks
and its two fast paths (``_plainly_legal``, ``play_all``), its generator, a tap and the move to
the column the tap picks, and the solver's move generators (``Solver.moves``, the beam's)."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spidercli.game.actions import Move, Tap
from spidercli.game.cards import make_card
from spidercli.game.engine import (
    BUILD_ONE_HIGHER,
    GROUP_MIXED_SUITS,
    GROUP_NOT_DESCENDING,
    NO_TARGET,
    Game,
    Refusal,
)
from spidercli.game.groups import movable_length
from spidercli.game.rules import CLASSIC, RULESETS, SPIDERETTE, Ruleset
from spidercli.solver.beam import BeamSolver
from spidercli.solver.search import Problem, Solver

# Every ruleset, and two no app ships: manual flips where a column of only face-down cards
# cannot be played on, and a face-down column that takes anything under automatic flips.
RULES: list[Ruleset] = [
    *RULESETS.values(),
    replace(CLASSIC, name="manual", auto_flip=False),
    replace(CLASSIC, name="open", face_down_column_is_empty=True),
]


def reference(col: list[int], down: int, permissive: bool) -> int:
    """The rule book's words: the most face-up cards at the end of the column that descend by
    one, and (classic move rule) are one suit."""
    best = 0
    for k in range(1, len(col) - down + 1):
        group = col[len(col) - k :]
        descends = all(b & 15 == (a & 15) - 1 for a, b in pairwise(group))
        if descends and (permissive or len({c >> 4 for c in group}) == 1):
            best = k
    return best


@st.composite
def columns(draw: st.DrawFn, suits: int, most: int = 16) -> tuple[list[int], int]:
    """A column's cards bottom to top and its face-down count: runs of one suit, runs of mixed
    suits and breaks, some cards or all face down (an empty column now and then)."""
    cards: list[int] = []
    for _ in range(draw(st.integers(0, most))):
        kind = draw(st.sampled_from(["suit", "suit", "suit", "rank", "any"]))
        if not cards or kind == "any" or cards[-1] & 15 == 1:
            card = make_card(draw(st.integers(1, 13)), draw(st.integers(0, suits - 1)))
        elif kind == "suit":
            card = cards[-1] - 1
        else:
            card = make_card((cards[-1] & 15) - 1, draw(st.integers(0, suits - 1)))
        cards.append(card)
    return cards, draw(st.integers(0, len(cards)))


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([1, 2, 4]).flatmap(columns), st.booleans())
def test_movable_length_is_the_rule_books(column: tuple[list[int], int], permissive: bool) -> None:
    col, down = column
    assert movable_length(col, down, permissive) == reference(col, down, permissive)
    assert movable_length(bytes(col), down, permissive) == reference(col, down, permissive)


@st.composite
def positions(draw: st.DrawFn) -> tuple[Ruleset, int, bool, list[list[int]], list[int]]:
    """Spiderette's seven columns, drawn at random, under a ruleset and a move rule."""
    rules = draw(st.sampled_from(RULES))
    suits = draw(st.sampled_from([1, 2, 4]))
    permissive = "permissive" in rules.move_rules and draw(st.booleans())
    drawn = [draw(columns(suits, 10)) for _ in range(SPIDERETTE.columns)]
    return rules, suits, permissive, [c for c, _ in drawn], [d for _, d in drawn]


def fresh(position: tuple[Ruleset, int, bool, list[list[int]], list[int]]) -> Game:
    rules, suits, permissive, cols, down = position
    game = Game(SPIDERETTE, rules, cols, [], suits=suits, permissive=permissive, down=down)
    game.deals_done = len(SPIDERETTE.deal_sizes)  # no stock: moves alone
    return game


def takes(game: Game, t: int, first: int) -> bool:
    """The target rule in the rule book's words (the engine's ``_takes``)."""
    col = game.cols[t]
    anything = not col or (game.rules.face_down_column_is_empty and game.down[t] == len(col))
    return anything or col[-1] & 15 == (first & 15) + 1


class NoFallback(Game):
    """A game whose ``play`` fails: ``play_all`` must take a legal move in its own loop."""

    def play(self, action: object) -> Refusal | None:
        raise AssertionError(f"play_all left {action} to play")


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_the_engine_asks_one_rule(
    position: tuple[Ruleset, int, bool, list[list[int]], list[int]],
) -> None:
    """The checks, the generator, both fast paths and a tap against ``movable_length``."""
    game = fresh(position)
    rules, suits, permissive, cols, down = position
    n = game.kind.columns
    legal: set[tuple[int, int, int]] = set()
    for s in range(n):
        col, d = cols[s], down[s]
        m = movable_length(col, d, game.permissive)
        assert game.movable_length(s) == m
        for k in range(1, len(col) - d + 1):
            refusal = game._check_group(s, k)
            if k <= m:
                assert refusal is None
            else:
                assert refusal is not None
                descending = movable_length(col, len(col) - k, True) == k
                assert refusal.rule == (GROUP_MIXED_SUITS if descending else GROUP_NOT_DESCENDING)
            for t in range(n):
                if t != s and k <= m and takes(game, t, col[-k]):
                    legal.add((s, t, k))
        for t in range(n):
            if t == s:
                continue
            for count in (None, *range(0, len(col) + 2)):
                move = Move(s + 1, t + 1, count)
                checked = game.check_move(s, t, count)
                assert game._plainly_legal(move) == (0 if isinstance(checked, Refusal) else checked)
                general = fresh(position)
                if not isinstance(checked, Refusal):
                    general.move(s, t, checked)
                one = fresh(position)
                assert one.play(move) == (checked if isinstance(checked, Refusal) else None)
                assert one.key() == general.key()
                whole = (NoFallback if not isinstance(checked, Refusal) else Game)(
                    SPIDERETTE, rules, cols, [], suits=suits, permissive=permissive, down=down
                )
                whole.deals_done = len(SPIDERETTE.deal_sizes)
                _, refused = whole.play_all([move])
                assert refused == (checked if isinstance(checked, Refusal) else None)
                assert whole.key() == general.key()
    assert set(game.legal_moves()) == legal
    assert game.has_legal_action() == bool(legal or game.flippable())


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_a_tap_is_the_move_to_the_column_it_picks(
    position: tuple[Ruleset, int, bool, list[list[int]], list[int]],
) -> None:
    """A tap and the move of the same cards agree on the target rule: the tap's column takes
    the group by ``check_move``, and a tap finds none only when no column does."""
    game = fresh(position)
    for s in range(game.kind.columns):
        m = game.movable_length(s)
        for k in range(1, m + 1):
            t = game.tap_target(s, k)
            fits = [u for u in range(game.kind.columns) if u != s and game.check_move(s, u, k) == k]
            tapped = fresh(position)
            refusal = tapped.play(Tap(s + 1, k))
            if t is None:
                assert fits == []
                assert refusal == Refusal(NO_TARGET, tuple(game.cols[s][-k:]))
            else:
                assert t in fits
                moved = fresh(position)
                assert moved.play(Move(s + 1, t + 1, k)) is None
                assert refusal is None
                assert tapped.key() == moved.key()
        for u in range(game.kind.columns):  # a refused target is refused under its one rule
            if u != s and m and game.cols[u] and not takes(game, u, game.cols[s][-m]):
                checked = game.check_move(s, u, m)
                assert isinstance(checked, Refusal) and checked.rule == BUILD_ONE_HIGHER


@st.composite
def problems(draw: st.DrawFn) -> tuple[Problem, list[list[int]], list[int], bool]:
    """A solver's position: Spiderette's columns at random (each non-empty one ending face up,
    one left empty), a deal left, either move rule."""
    suits = draw(st.sampled_from([1, 2, 4]))
    permissive = draw(st.booleans())
    cols: list[list[int]] = []
    down: list[int] = []
    for _ in range(SPIDERETTE.columns - 1):
        col, d = draw(columns(suits, 12))
        cols.append(col)
        down.append(min(d, max(len(col) - 1, 0)))
    at = draw(st.integers(0, SPIDERETTE.columns - 1))
    cols.insert(at, [])
    down.insert(at, 0)
    chunk = bytes(make_card(1 + c, 0) for c in range(SPIDERETTE.columns))
    problem = Problem(
        [bytes(c) for c in cols], down, [chunk], permissive=permissive, runs=0, runs_to_win=4
    )
    return problem, cols, down, permissive


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_the_solver_asks_the_same_rule(
    drawn: tuple[Problem, list[list[int]], list[int], bool],
) -> None:
    """``Solver.moves`` (every legal move) is the engine's generator; the beam's columns and its
    moves to an empty column count the same groups."""
    problem, cols, down, permissive = drawn
    game = Game(SPIDERETTE, CLASSIC, cols, [], suits=4, permissive=permissive, down=down)
    node = problem.start
    every = Solver(problem).moves(node, True)
    assert {step for step in every if step is not None} == set(game.legal_moves())
    beam = BeamSolver(problem, compiled=False)
    offered = beam.moves(node)
    empty = next(t for t, c in enumerate(cols) if not c)
    for s, (col, d) in enumerate(zip(cols, down, strict=True)):
        assert beam.column_info(bytes(col), d)[1] == movable_length(col, d, False)
        m = movable_length(col, d, permissive)
        to_empty = {
            k for (a, b, k) in (x for x in offered if x is not None) if a == s and b == empty
        }
        assert to_empty == {k for k in range(1, m + 1) if k < len(col)}
