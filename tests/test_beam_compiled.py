"""The compiled beam pass (spidercli/solver/_beam.c) against the Python pass: the same line, the
same positions expanded, the same progress, from fresh deals and from mid-game positions, with
either move rule, Spider and Spiderette, 1, 2 and 4 suits; the same column digests; and, under
``make test``, the compiled pass must have been built."""

from __future__ import annotations

import os
import random
import signal
import sys
import threading
import tracemalloc

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import spidercli.solver.beam
from spidercli.game.codes import parse_code, seed_letters
from spidercli.game.engine import Game
from spidercli.game.rules import CLASSIC
from spidercli.solver.beam import BeamSolver, column_digest, compiled_available, compiled_by_default
from spidercli.solver.search import Problem, _Budget, _Stop, problem_from_game
from tests.helpers import Boom, budget_raising_at, fixture_problem

needs_compiled = pytest.mark.skipif(
    not compiled_available(), reason="the compiled beam pass was not built"
)


def test_the_compiled_pass_is_built_where_required() -> None:
    """``make test`` sets SPIDERCLI_REQUIRE_COMPILED: a build that silently left the compiled
    pass out (and so tested the Python pass alone) fails here."""
    if os.environ.get("SPIDERCLI_REQUIRE_COMPILED", "") in ("", "0"):
        pytest.skip("SPIDERCLI_REQUIRE_COMPILED is not set")
    assert compiled_available()


def test_pure_python_can_be_forced(monkeypatch: pytest.MonkeyPatch) -> None:
    problem = problem_from_game(Game.from_code(parse_code("SP1-S1C-AAAAAAB"), CLASSIC))
    monkeypatch.setenv("SPIDERCLI_PURE_PYTHON", "1")
    assert not compiled_by_default()
    assert not BeamSolver(problem).compiled
    monkeypatch.setenv("SPIDERCLI_PURE_PYTHON", "0")
    assert compiled_by_default() == compiled_available()
    assert BeamSolver(problem).compiled == compiled_available()
    assert not BeamSolver(problem, compiled=False).compiled


def test_asking_for_a_missing_compiled_pass_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    problem = problem_from_game(Game.from_code(parse_code("SP1-S1C-AAAAAAB"), CLASSIC))
    monkeypatch.setattr(spidercli.solver.beam, "_compiled", None)
    assert not compiled_available()
    with pytest.raises(RuntimeError, match="not built"):
        BeamSolver(problem, compiled=True)
    assert not BeamSolver(problem).compiled  # the default falls back to Python


def test_the_python_digest_is_fnv1a_then_splitmix64() -> None:
    # Worked by hand from the definitions: FNV-1a of the single byte 0 (the face-down count of
    # an empty column), then splitmix64's finaliser.
    h = (0xCBF29CE484222325 * 0x100000001B3) & (2**64 - 1)
    h = ((h ^ (h >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
    h = ((h ^ (h >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
    assert column_digest(b"", 0) == h ^ (h >> 31)
    assert column_digest(b"\x01", 0) != column_digest(b"", 1)  # the count is not a card
    assert column_digest(b"\x0d\x0c", 0) != column_digest(b"\x0d\x0c", 1)


@needs_compiled
@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=120), st.integers(0, 255))
def test_both_digests_agree(col: bytes, down: int) -> None:
    from spidercli.solver import _beam

    assert _beam.column_digest(col, down) == column_digest(col, down)


def _pass(
    problem: Problem,
    compiled: bool,
    width: int,
    cap: int | None,
    max_states: int | None = None,
) -> tuple[object, int, tuple[int, ...]]:
    """One pass: its line (or "stopped" when the budget ran out), the positions expanded, and
    the progress it reported (the levels' best ranks too, which the fair hint reads)."""
    beam = BeamSolver(problem, compiled=compiled)
    assert beam.compiled == compiled
    budget = _Budget(None, max_states, None, 1.0)
    line: object
    try:
        line = beam._beam(width, cap, budget)
    except _Stop:
        line = "stopped"
    pr = budget.progress
    return (
        line,
        pr.states,
        (
            pr.best_runs,
            pr.best_down,
            pr.best_deals,
            pr.best_rank,
            pr.levels,
            pr.rank_sum,
        ),
    )


def assert_same_pass(
    problem: Problem, width: int, cap: int | None, max_states: int | None = None
) -> object:
    python = _pass(problem, False, width, cap, max_states)
    compiled = _pass(problem, True, width, cap, max_states)
    assert compiled == python
    return python[0]


FIXED = [
    ("SP1-S1C-AAAAAAB", 12),
    ("SP2-S1C-AAAAAAD", 10),
    ("SP2-S1P-AAAAAAC", 8),
    ("SP4-S1C-AAAAAAB", 6),
    ("SP4-S1P-AAAAAAF", 6),
    ("SD1-S1-AAAAAAC", 10),
    ("SD2-S1P-AAAAAAE", 10),
    ("SD4-S1-AAAAAAG", 8),
]


@needs_compiled
@pytest.mark.parametrize(("code", "width"), FIXED)
def test_the_compiled_pass_is_the_python_pass(code: str, width: int) -> None:
    problem = problem_from_game(Game.from_code(parse_code(code), CLASSIC))
    assert_same_pass(problem, width, 300)
    assert_same_pass(problem, 3, 40)  # cut off by the cap
    assert assert_same_pass(problem, 3, 0) is None  # no level at all
    assert assert_same_pass(problem, 3, -2) is None
    assert assert_same_pass(problem, width, None, max_states=700) == "stopped"


@needs_compiled
def test_the_compiled_pass_wins_like_the_python_one() -> None:
    problem = problem_from_game(Game.from_code(parse_code("SP1-S1C-AAAAAAB"), CLASSIC))
    line = assert_same_pass(problem, 12, None)
    assert isinstance(line, list) and line


@needs_compiled
def test_the_seen_sets_reset_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    problem = problem_from_game(Game.from_code(parse_code("SP2-S1C-AAAAAAD"), CLASSIC))
    free = assert_same_pass(problem, 10, 300)
    monkeypatch.setattr(spidercli.solver.beam, "SEEN_LIMIT", 400)
    bounded = assert_same_pass(problem, 10, 300)
    assert bounded != free  # forgetting positions met changed the search


@needs_compiled
@pytest.mark.parametrize("cap", [2**31 - 1, 2**31, 2**63, 2**70])
def test_caps_past_a_c_int_are_no_cap(cap: int) -> None:
    """A level cap past the C int the compiled pass takes is no cap there, as in Python (it
    raised OverflowError)."""
    problem = problem_from_game(Game.from_code(parse_code("SP1-S1C-AAAAAAB"), CLASSIC))
    assert assert_same_pass(problem, 12, cap) == assert_same_pass(problem, 12, None)


@needs_compiled
@pytest.mark.parametrize("limit", [-(2**70), -1, 0, 2**63 - 1, 2**63, 2**70])
def test_seen_limits_past_a_c_long_long_are_taken(
    monkeypatch: pytest.MonkeyPatch, limit: int
) -> None:
    """SEEN_LIMIT at and past the bounds of the C long long the compiled pass takes: the same
    pass as in Python (it raised OverflowError)."""
    problem = problem_from_game(Game.from_code(parse_code("SP2-S1C-AAAAAAD"), CLASSIC))
    monkeypatch.setattr(spidercli.solver.beam, "SEEN_LIMIT", limit)
    assert_same_pass(problem, 6, 120, max_states=2000)


@needs_compiled
def test_a_long_pass_forgets_the_way_back_of_dead_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pass that never wins and runs until its budget ends kept the way back of every position
    it ever kept (8 bytes each: 250 MB after 20 million positions); past the seen limit it now
    forgets the past no current position descends from, and the line it finds is unchanged (the
    differential tests here run with low seen limits too)."""
    problem = problem_from_game(Game.from_code(parse_code("SP4-S1C-AAAAAAB"), CLASSIC))
    problem.runs_to_win = 9  # never won: the pass goes on until the budget ends
    monkeypatch.setattr(spidercli.solver.beam, "SEEN_LIMIT", 20_000)
    beam = BeamSolver(problem, compiled=True)
    budget = _Budget(None, 300_000, None, 1.0)
    tracemalloc.start()
    try:
        with pytest.raises(_Stop):
            beam._beam(60, None, budget)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert budget.progress.states >= 300_000
    # Without forgetting: about 300,000 positions kept, 2.4 MB of way back.
    assert peak < 600_000


@needs_compiled
@pytest.mark.parametrize(
    ("path", "entries"),
    [
        ("example-spider-1suit-117.yaml", 60),  # runs already removed
        ("example-spider-1suit-117.yaml", 100),
        ("spider-4suit-permissive.yaml", 10**6),
        ("spiderette-2suit-permissive.yaml", 10**6),
        ("example-spiderette-53.yaml", 30),
    ],
)
def test_the_compiled_pass_from_a_game_in_progress(path: str, entries: int) -> None:
    problem = fixture_problem(path, entries)
    assert_same_pass(problem, 6, 200)


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.slow  # a long property run: make test-slow
@needs_compiled
@SETTINGS
@given(
    st.sampled_from(["SP1-S1C", "SP2-S1C", "SP2-S1P", "SP4-S1C", "SP4-S1P", "SD1-S1", "SD4-S1P"]),
    st.integers(0, 26**7 - 1),
    st.lists(st.integers(0, 10**6), max_size=60),
    st.integers(1, 5),
    st.sampled_from([None, 3, 30]),
    st.sampled_from([None, 50]),
)
def test_the_compiled_pass_on_random_positions(
    prefix: str,
    seed: int,
    choices: list[int],
    width: int,
    cap: int | None,
    seen_limit: int | None,
) -> None:
    """From a random deal after random legal play (deals included), with small beams and,
    sometimes, a seen set forgotten every few levels."""
    game = Game.from_code(parse_code(f"{prefix}-{seed_letters(seed)}"), CLASSIC)
    for choice in choices:
        moves: list[tuple[int, int, int] | None] = list(game.legal_moves())
        if game.check_deal() is None:
            moves.append(None)
        if not moves or game.result is not None:
            break
        step = moves[choice % len(moves)]
        if step is None:
            game.deal()
        else:
            game.move(*step)
    problem = problem_from_game(game)
    if seen_limit is None:
        assert_same_pass(problem, width, cap, max_states=3000)
        return
    old = spidercli.solver.beam.SEEN_LIMIT
    spidercli.solver.beam.SEEN_LIMIT = seen_limit
    try:
        assert_same_pass(problem, width, cap, max_states=3000)
    finally:
        spidercli.solver.beam.SEEN_LIMIT = old


@needs_compiled
def test_a_tick_that_raises_stops_the_compiled_pass_cleanly() -> None:
    problem = problem_from_game(Game.from_code(parse_code("SP4-S1C-AAAAAAB"), CLASSIC))
    beam = BeamSolver(problem, compiled=True)
    budget = budget_raising_at(5)
    with pytest.raises(Boom):
        beam._beam(8, None, budget)
    assert budget.calls == 5
    assert budget.progress.states == 4 * 256  # every grant spent in full, none counted twice


def _arbitrary_problem(rng: random.Random) -> Problem:
    """Any position the compiled pass takes, legal play or not: Spider or Spiderette, 1-4 suits,
    runs already removed, ready-made runs (whole or not), empty columns (some with a face-down
    count), face-down counts at or past a column's length, 0-5 deals left of any size, a goal
    one or two runs away."""
    spider = rng.random() < 0.6
    ncols, goal = (10, 8) if spider else (7, 4)
    suits = rng.choice([1, 2, 4])
    deck = [(s % suits) << 4 | r for s in range(4) for r in range(1, 14)] * (2 if spider else 1)
    rng.shuffle(deck)
    runs = rng.randint(0, goal - 1)
    deck = deck[13 * runs :]
    chunks = []
    for _ in range(rng.randint(0, 5)):
        size = ncols if rng.random() < 0.9 else rng.randint(1, ncols)
        if len(deck) >= size:
            chunks.append(bytes(deck[:size]))
            del deck[:size]
    cols: list[list[int]] = [[] for _ in range(ncols)]
    for _ in range(rng.randint(0, 3)):
        suit = rng.randrange(suits) << 4
        top = rng.randint(1, 13)
        low = rng.choice([1, rng.randint(1, top)])
        cols[rng.randrange(ncols)].extend(suit | r for r in range(top, low - 1, -1))
    empty = set(rng.sample(range(ncols), rng.choice([0, 1, 2, 3])))
    for card in deck:
        c = rng.randrange(ncols)
        if c not in empty or rng.random() < 0.05:
            cols[c].append(card)
    while sum(map(len, cols)) + sum(map(len, chunks)) > 127:  # the compiled pass's most
        max(cols, key=len).pop(0)
    down = [
        rng.randint(0, 3)
        if not c
        else len(c) + rng.randint(0, 2)
        if rng.random() < 0.05
        else rng.randint(0, len(c) - 1)
        for c in cols
    ]
    if rng.random() < 0.5:
        goal = min(goal, runs + rng.choice([1, 2]))
    return Problem(
        [bytes(c) for c in cols],
        down,
        chunks,
        permissive=rng.random() < 0.5,
        runs=runs,
        runs_to_win=goal,
    )


@needs_compiled
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.randoms(use_true_random=False),
    st.sampled_from([1, 2, 5, 40, 150, 2000]),
    st.sampled_from([None, 0, 1, 7, 60, 400]),
    st.sampled_from([None, 0, 1, 50, 2000]),
)
def test_the_compiled_pass_on_arbitrary_positions(
    rng: random.Random, width: int, cap: int | None, seen_limit: int | None
) -> None:
    """Positions no legal play need reach, any width, cap and seen limit (0: every level
    forgets), a budget of 2,048 positions: the same as the Python pass."""
    problem = _arbitrary_problem(rng)
    old = spidercli.solver.beam.SEEN_LIMIT
    if seen_limit is not None:
        spidercli.solver.beam.SEEN_LIMIT = seen_limit
    try:
        assert_same_pass(problem, width, cap, max_states=2048)
    finally:
        spidercli.solver.beam.SEEN_LIMIT = old


@needs_compiled
@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT sent with os.kill is a POSIX signal")
def test_ctrl_c_while_the_compiled_pass_runs_raises_keyboardinterrupt() -> None:
    """A SIGINT (Ctrl-C) that arrives while the compiled pass is in its C loop is raised as
    KeyboardInterrupt at the pass's next tick and leaves the pass (the command line then exits
    130), as in the Python pass."""
    problem = problem_from_game(Game.from_code(parse_code("SP4-S1C-AAAAAAB"), CLASSIC))
    problem.runs_to_win = 9  # never won: the pass would go on for millions of positions
    beam = BeamSolver(problem, compiled=True)
    sender = threading.Thread(target=os.kill, args=(os.getpid(), signal.SIGINT))
    calls = 0

    class Budget(_Budget):
        def grant(self, done: int, more: int = 1) -> int:
            nonlocal calls
            calls += 1
            if calls == 4:
                sender.start()  # the signal comes while the pass goes on
            assert calls < 10**4, "the interrupt was not noticed"
            return super().grant(done, more)

    interrupted = False
    # Python's own Ctrl-C handler, as in a terminal: where this process was started with SIGINT
    # ignored (a non-interactive shell's background job, a test runner's worker), it has none.
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        beam._beam(600, None, Budget(None, None, None, 1.0))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        sender.join()
        signal.signal(signal.SIGINT, before)
    assert interrupted
    assert calls >= 4


@pytest.mark.slow  # a long property run: make test-slow
@needs_compiled
def test_a_whole_search_is_the_same_on_both_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """The schedule and the polishing (narrow here, for the Python pass's sake) give the same
    line and count the same positions, compiled or not."""
    monkeypatch.setattr(spidercli.solver.beam, "POLISH", {2: (30, 12)})
    problem = problem_from_game(Game.from_code(parse_code("SP2-S1C-AAAAAAD"), CLASSIC))
    python = BeamSolver(problem, compiled=False).solve()
    compiled = BeamSolver(problem, compiled=True).solve()
    assert python.steps is not None
    assert compiled.steps == python.steps
    assert compiled.progress.states == python.progress.states
    assert (compiled.progress.best_runs, compiled.progress.best_down) == (
        python.progress.best_runs,
        python.progress.best_down,
    )


@needs_compiled
@pytest.mark.parametrize("ncols", [10, 11])
def test_problems_out_of_the_compiled_range_go_to_python(ncols: int) -> None:
    """More than 127 cards or 10 columns: the compiled pass refuses them (ValueError, never a
    crash) and the solver takes the Python pass."""
    from spidercli.solver import _beam

    cols = [bytes(range(13, 0, -1))[1:]] * ncols  # King..2 of spades, 12 cards a column
    cols = [*cols[:-1], cols[-1] + bytes((1,))]  # and one Ace
    stock = [bytes((2,)) * ncols]  # 10 columns: 131 cards in all
    problem = Problem(cols, [0] * ncols, stock, permissive=False, runs=0, runs_to_win=1)
    beam = BeamSolver(problem, compiled=True)
    assert not beam.compiled
    start = problem.start
    with pytest.raises(ValueError):
        _beam.beam(
            start.cols,
            start.down,
            problem.chunks,
            0,
            False,
            1,
            4,
            -1,
            100,
            spidercli.solver.beam._PLACE,
            _Budget(None, None, None, 1.0).grant,
            _Budget(None, None, None, 1.0).progress,
        )


def test_children_that_cannot_be_kept_are_met_once_the_level_is_done() -> None:
    """A child ranked no better than its bucket's ``width`` best is not looked up: its key goes
    to ``later`` (added to the keys met when the level is done) and it is no candidate; without
    ``later`` its key is added at once. Kept children are looked up as before."""
    problem = problem_from_game(Game.from_code(parse_code("SP2-S1C-AAAAAAD"), CLASSIC))
    beam = BeamSolver(problem, compiled=False)
    root = beam.level_entry(problem.start, -1, None)
    buckets = len(problem.chunks) + 1
    # Every bucket already holds one child better than any (negated ranks: -(-10**9)).
    full = [[10**9] for _ in range(buckets)]
    out: list[spidercli.solver.beam.Candidate] = []
    seen = {root.key}
    later: list[int] = []
    assert beam.expand(root, 0, out, seen, [list(h) for h in full], 1, later) == (False, None)
    moves = [step for step in beam.moves(problem.start) if step is not None]
    assert len(later) == len(moves) > 0
    assert all(c[3] is None for c in out)  # only the deal (no empty column) is a candidate
    assert not seen & set(later)
    seen_now = {root.key}
    assert beam.expand(root, 0, [], seen_now, [list(h) for h in full], 1) == (False, None)
    assert set(later) <= seen_now
    # With room in the buckets, the same children are looked up and kept as candidates.
    roomy: list[spidercli.solver.beam.Candidate] = []
    seen_roomy = {root.key}
    later_roomy: list[int] = []
    beam.expand(root, 0, roomy, seen_roomy, [[] for _ in range(buckets)], 1000, later_roomy)
    assert later_roomy == [] and len(roomy) == len(set(later)) + 1


def test_the_budget_grants_at_most_256_positions_and_exactly_up_to_max_states() -> None:
    """The compiled pass's count (``_Budget.grant``): at most 256 positions a call, exactly up to
    ``max_states``, then ``_Stop``; a last call without ``more`` only counts (a pass that ends
    after its last position is not stopped for it)."""
    budget = _Budget(None, 300, None, 1.0)
    assert budget.grant(0) == 256
    assert budget.grant(256) == 44
    with pytest.raises(_Stop):
        budget.grant(44)
    assert budget.progress.states == 300
    budget.grant(0, 0)
    assert budget.progress.states == 300
    unlimited = _Budget(None, None, None, 1.0)
    assert unlimited.grant(10**9) == 256
    assert unlimited.grant(7, 0) == 0 and unlimited.progress.states == 10**9 + 7


def test_a_deadline_passed_stops_the_pass_at_its_next_grant() -> None:
    budget = _Budget(0.0, None, None, 1.0)  # a deadline long past
    with pytest.raises(_Stop):
        budget.grant(0)
