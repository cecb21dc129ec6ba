"""The lower bound on a win's moves (spidercli/solver/bounds.py): never above the moves left of a
line the solver found, at any point of the line; never above the true shortest win of small
positions, found by a plain breadth-first search over the engine's every legal action; and
printed beside a win with the gap."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from spidercli.game.codes import Setup, parse_code
from spidercli.game.engine import Game
from spidercli.game.rules import CLASSIC
from spidercli.logs.reader import load_log
from spidercli.solver.bounds import joins, lower_bound
from spidercli.solver.lines import solve_setup
from spidercli.solver.search import Problem, problem_from_game
from tests.helpers import FIXTURES, run
from tests.plainsearch import dealt_out, plain_search, small_game

SPADES = list(range(1, 14))  # A..K of suit 0
HEARTS = [0x10 | r for r in range(1, 14)]


def test_the_counts() -> None:
    assert joins(bytes([13, 12, 11, 0x1A, 9])) == 2  # K Q J of one suit, then 10 of another
    # 4 suits: 96 joins wanted, at most 10 a deal (fewer with Kings in it), one a move.
    problem = Problem([b"\x01"] * 10, [0] * 10, [bytes([2] * 10)] * 5, permissive=False, runs=0,
                      runs_to_win=8)  # fmt: skip
    assert lower_bound(problem) == 5 + 96 - 50
    kings = Problem([b"\x01"] * 10, [0] * 10, [bytes([13] * 10)] * 5, permissive=False, runs=0,
                    runs_to_win=8)  # fmt: skip
    assert lower_bound(kings) == 5 + 96
    # A run laid out whole but face-down under its Ace: 12 joins there, 12 cards to turn.
    buried = Problem([bytes(range(13, 0, -1))], [12], [], permissive=False, runs=0, runs_to_win=1)
    assert lower_bound(buried) == 12 - 1
    won = Problem([b""], [0], [], permissive=False, runs=1, runs_to_win=1)
    assert lower_bound(won) == 0


@pytest.mark.parametrize(
    "name",
    [
        "example-spider-1suit-117.yaml",
        "example-spiderette-53.yaml",
        "example-spider-2suit.yaml",
        "example-spider-4suit.yaml",
    ],
)
def test_never_above_the_moves_left_of_a_line_found(name: str) -> None:
    """The worked examples are lines the solver found: at every position along each, the bound
    is at most the moves the line still takes."""
    log = load_log(FIXTURES / name)
    game = Game.from_setup(log.deal, CLASSIC)
    total = len(log.entries)
    for done, entry in enumerate(log.entries):
        assert lower_bound(problem_from_game(game)) <= total - done, (name, done)
        assert game.play(entry.action) is None
    assert game.result == "won"


@pytest.mark.parametrize("code", ["SD1-S1-AAAAAAC", "SD2-S1-AAAAAAE"])
def test_never_above_a_fresh_solvers_line(code: str) -> None:
    setup = Setup.from_code(parse_code(code))
    solved = solve_setup(setup, CLASSIC, timeout=60)
    assert solved.actions is not None
    assert 0 < solved.lower_bound <= solved.game.moves
    game = Game.from_setup(setup, CLASSIC)
    for done, action in enumerate(solved.actions):
        assert lower_bound(problem_from_game(game)) <= solved.game.moves - done
        assert game.play(action) is None


def _small(rng: random.Random) -> Game:
    """One run of spades over 3-5 columns (some face-down), perhaps a deal and a few hearts:
    shuffled, or (for wins within reach of a plain search) cut into descending pieces that are
    shuffled, a few cards swapped."""
    ncols = rng.randint(3, 5)
    extra = rng.randint(0, 3)
    if rng.random() < 0.5:
        cards = SPADES + HEARTS[:extra]
        rng.shuffle(cards)
    else:
        run = SPADES[::-1]
        cuts = sorted(rng.sample(range(1, 13), rng.randint(3, 6)))
        pieces = [run[a:b] for a, b in zip([0, *cuts], [*cuts, 13], strict=True)]
        rng.shuffle(pieces)
        cards = [c for piece in pieces for c in piece]
        for card in HEARTS[:extra]:
            cards.insert(rng.randint(0, len(cards)), card)
        for _ in range(rng.randint(0, 2)):
            i, j = rng.randrange(len(cards)), rng.randrange(len(cards))
            cards[i], cards[j] = cards[j], cards[i]
    columns, down, stock = dealt_out(rng, cards, ncols)
    return small_game(columns, down, stock, suits=2 if extra else 1, runs=1)


@pytest.mark.slow  # 80 exhaustive searches; the property test below runs in make test
def test_never_above_the_shortest_win_of_small_positions() -> None:
    rng = random.Random(2126)
    won = tight = 0
    for _ in range(80):
        game = _small(rng)
        plain = plain_search(game, limit=5_000)
        if plain is None or plain.shortest is None:
            continue
        bound = lower_bound(problem_from_game(game))
        assert bound <= plain.shortest
        won += 1
        tight += bound == plain.shortest
    assert won >= 12 and tight >= 1  # it met wins, and the bound is sometimes the exact count


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_never_above_the_shortest_win_property(seed: int) -> None:
    game = _small(random.Random(seed))
    plain = plain_search(game, limit=5_000)
    if plain is None or plain.shortest is None:
        event("no win, or too large a space")
        return
    event("won")
    assert lower_bound(problem_from_game(game)) <= plain.shortest


def test_solve_prints_the_bound_and_the_gap() -> None:
    result = run("solve", "SD1-S1-AAAAAAC")
    assert result.exit_code == 0
    lines = result.stderr.splitlines()
    assert lines[0].startswith("spidercli: solved SD1-S1-AAAAAAC in 44 moves, score ")
    assert lines[1] == "spidercli: 44 moves; any win takes at least 27: gap 17"
    cs = run("solve", "SD1-S1-AAAAAAC", "--lang", "cs")
    assert cs.stderr.splitlines()[1] == (
        "spidercli: 44 tahů; každá výhra potřebuje nejméně 27: rozdíl 17"
    )
