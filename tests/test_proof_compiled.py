"""The compiled proof search (spidercli/solver/_proof.c) against the pure Python one (proof.py): the
same outcome, the same positions met, the same line when they win and the same progress, on every
position of the unwinnable corpus, on winnable and random small positions, on real deals in
progress; the budget's stops, the memory budget, and bad input refused with a clean error."""

from __future__ import annotations

import os
import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import spidercli.solver.proof
import spidercli.solver.search
from spidercli.game.codes import parse_code, seed_letters
from spidercli.game.engine import Game
from spidercli.game.rules import CLASSIC
from spidercli.solver.proof import (
    ProofSearch,
    compiled_fits,
    compiled_proof_available,
    compiled_proof_by_default,
    solver_pass,
)
from spidercli.solver.search import Problem, Progress, _Budget, _Stop, problem_from_game
from tests.helpers import Boom, budget_raising_at, fixture_problem
from tests.plainsearch import dealt_out, small_game
from tests.test_proofs import CORPUS, _game
from tests.tools.unwinnable_corpus import draw

needs_compiled = pytest.mark.skipif(
    not compiled_proof_available(), reason="the compiled proof search was not built"
)

Result = tuple[object, bool, int, int, int, int, str, str | None]


def _search(problem: Problem, compiled: bool, max_states: int | None = None) -> Result:
    """One search: its line, whether it is a proof, the states counted, the positions met, the
    best runs and deals, its phase at the end and the budget that made it give up."""
    search = ProofSearch(problem, compiled=compiled, locks=False)  # the searches, not locks
    assert search.compiled == compiled
    outcome = search.solve(max_states=max_states)
    pr = outcome.progress
    return (
        outcome.steps,
        outcome.exhaustive,
        pr.states,
        search.positions,
        pr.best_runs,
        pr.best_deals,
        pr.phase,
        pr.stop,
    )


def assert_same_search(problem: Problem, max_states: int | None = None) -> Result:
    python = _search(problem, False, max_states)
    compiled = _search(problem, True, max_states)
    assert compiled == python
    return python


def test_the_compiled_search_is_built_where_required() -> None:
    """``make test`` sets SPIDERCLI_REQUIRE_COMPILED: a build that left the compiled proof search
    out fails here."""
    if os.environ.get("SPIDERCLI_REQUIRE_COMPILED", "") in ("", "0"):
        pytest.skip("SPIDERCLI_REQUIRE_COMPILED is not set")
    assert compiled_proof_available()


@needs_compiled
def test_the_proof_search_is_compiled_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    problem = problem_from_game(_game(CORPUS[0]))
    monkeypatch.delenv("SPIDERCLI_PURE_PYTHON", raising=False)
    assert compiled_proof_by_default() and ProofSearch(problem).compiled
    monkeypatch.setenv("SPIDERCLI_PURE_PYTHON", "1")
    assert not compiled_proof_by_default() and not ProofSearch(problem).compiled
    assert ProofSearch(problem, compiled=True).compiled  # asked for: compiled all the same


def test_a_missing_compiled_search(monkeypatch: pytest.MonkeyPatch) -> None:
    problem = problem_from_game(_game(CORPUS[0]))
    monkeypatch.setattr(spidercli.solver.proof, "_compiled_proof", None)
    monkeypatch.delenv("SPIDERCLI_PURE_PYTHON", raising=False)
    assert not compiled_proof_by_default()
    assert not ProofSearch(problem).compiled  # the default falls back to Python
    with pytest.raises(RuntimeError, match="not built"):
        ProofSearch(problem, compiled=True)
    if spidercli.solver.beam.compiled_available():
        assert solver_pass() == (
            "solver: compiled pass (proofs in pure Python: their compiled search was not built)"
        )


def test_a_problem_the_compiled_search_does_not_take_is_searched_in_python() -> None:
    """A column whose top card is face down, or an empty column with a face-down count (no
    classic position has either): the Python search takes them, the compiled one does not."""
    assert compiled_fits(problem_from_game(_game(CORPUS[0])))
    for cols, down in (([b"\x0d", b"\x05"], [1, 0]), ([b"", b"\x05"], [1, 0])):
        odd = Problem(cols, down, [], permissive=False, runs=0, runs_to_win=1)
        assert not compiled_fits(odd)
        search = ProofSearch(odd)
        assert not search.compiled
        search.solve(max_states=100)


@needs_compiled
@pytest.mark.parametrize("index", range(len(CORPUS)))
def test_the_corpus_alike(index: int) -> None:
    entry = CORPUS[index]
    result = assert_same_search(problem_from_game(_game(entry)))
    assert result[:4] == (None, True, entry["positions"], entry["positions"])


@needs_compiled
def test_wins_alike_on_small_positions() -> None:
    """Small positions the search wins: the same line (depth first, so the line shows the order
    of the actions tried), the same positions met before it."""
    wins = 0
    for seed in range(60):
        result = assert_same_search(problem_from_game(draw(random.Random(seed))), 20_000)
        wins += result[0] is not None
    assert wins >= 10


@needs_compiled
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from([100_000, 1, 7, 300]))
def test_random_small_positions_alike(seed: int, max_states: int) -> None:
    """Most of these spaces end within a few thousand positions; a rare one is far larger (seed
    14460: a win after 2,171,019), past the pure Python search's ``MAX_POSITIONS``, so each
    search has a budget of positions both twins keep exactly."""
    assert_same_search(problem_from_game(draw(random.Random(seed))), max_states)


def _played(code: str, choices: list[int]) -> Game:
    game = Game.from_code(parse_code(code), CLASSIC)
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
    return game


@needs_compiled
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["SP1-S1C", "SP2-S1C", "SP2-S1P", "SP4-S1C", "SP4-S1P", "SD1-S1", "SD4-S1P"]),
    st.integers(0, 26**7 - 1),
    st.lists(st.integers(0, 10**6), max_size=60),
    st.booleans(),
)
def test_deals_in_progress_alike(prefix: str, seed: int, choices: list[int], near: bool) -> None:
    """A real deal after random legal play (deals included), its goal one run away or the whole
    game's: a budget of a few thousand positions (the same stop), or the same win."""
    problem = problem_from_game(_played(f"{prefix}-{seed_letters(seed)}", choices))
    if near:
        problem.runs_to_win = problem.start.runs + 1
    assert_same_search(problem, 3000)


@needs_compiled
def test_a_line_deeper_than_the_paths_first_allocation() -> None:
    """A win whose line is 1,371 actions deep: the compiled search's path (room for 1,024
    levels at first) grew, and the line is the Python search's."""
    problem = problem_from_game(Game.from_code(parse_code("SP1-S1C-AAAAAAB"), CLASSIC))
    problem.runs_to_win = 1
    line = assert_same_search(problem)[0]
    assert isinstance(line, list) and len(line) == 1371


# Two decks: the same card twice. A column with cards face down keeps its first face-up card
# (it moves only with every card on it, and then the card under it is turned), so two columns can
# hold the same cards under other cards moved about only when their face-down cards and first
# face-up card are the same cards: the Python key merges them, whichever column they are.
S9, S8, H8, S5, S4 = 0x09, 0x08, 0x18, 0x05, 0x04


@needs_compiled
@pytest.mark.parametrize(
    ("columns", "stock", "positions"),
    [
        ([[S5, S9], [S5, S9], [S8], [H8], []], [], 14),
        ([[S5, S9], [S5, S9], [S8], [H8], []], [0x01, 0x02, 0x03, 0x06, 0x07], 4767),
        ([[S5, S9], [S4, S9], [S8], [H8], []], [], 28),
        ([[S5, S9], [S4, S9], [S8], [H8], []], [0x01, 0x02, 0x03, 0x06, 0x07], 9475),
    ],
)
def test_the_same_cards_face_down_in_two_columns(
    columns: list[list[int]], stock: list[int], positions: int
) -> None:
    """8S and 8H on the two 9S, one way or the other: one position when the two columns have the
    same card face down (the compiled key names face-down cards by their column, and must not
    tell these apart), two when not (and must not merge these)."""
    game = small_game(columns, [1, 1, 0, 0, 0], stock, suits=2, runs=1)
    result = assert_same_search(problem_from_game(game))
    assert result[:4] == (None, True, positions, positions)


def _doubled(rng: random.Random) -> Game:
    """A small position from two decks of a few ranks (one or two suits): every card twice. (They
    seldom hold the case above: the tests above are the ones that fail when the compiled key
    tells face-down cards by their column alone, or merges them whatever they are.)"""
    suits = rng.choice([1, 2])
    ranks = rng.sample(range(1, 14), rng.randint(4, 6))
    cards = [s << 4 | r for s in range(suits) for r in ranks] * 2
    rng.shuffle(cards)
    columns, down, stock = dealt_out(rng, cards, rng.randint(3, 4))
    return small_game(columns, down, stock, suits=suits, runs=1)


@needs_compiled
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_random_positions_from_two_decks_alike(seed: int) -> None:
    assert_same_search(problem_from_game(_doubled(random.Random(seed))), 3000)


@needs_compiled
def test_the_fixture_game_alike_up_to_a_budget() -> None:
    """fixtures/spider-2suit-open.yaml (438,090 positions in all): the first 20,000 alike."""
    assert_same_search(fixture_problem("spider-2suit-open.yaml"), 20_000)


@pytest.mark.slow  # the Python search takes about a minute
@needs_compiled
def test_the_fixture_game_alike_in_full() -> None:
    result = assert_same_search(fixture_problem("spider-2suit-open.yaml"))
    assert result[:4] == (None, True, 438_090, 438_090)


# ------------------------------------------------------------------ budgets


@needs_compiled
@pytest.mark.parametrize("max_states", [0, 1, 2, 255, 256, 257, 700])
def test_a_position_budget_stops_both_alike(max_states: int) -> None:
    entry = max(CORPUS, key=lambda e: e["positions"])
    result = assert_same_search(problem_from_game(_game(entry)), max_states)
    assert result[1:3] == (False, max_states) and result[6] == "gave up"


@needs_compiled
@pytest.mark.parametrize("limit", [1, 2, 100, 1000])
def test_the_positions_cap_is_the_python_searchs(
    monkeypatch: pytest.MonkeyPatch, limit: int
) -> None:
    """The compiled search's max_positions stops where the Python search's MAX_POSITIONS does
    (ProofSearch gives the compiled search none: its memory budget stands for it)."""
    from spidercli.solver import _proof

    entry = max(CORPUS, key=lambda e: e["positions"])
    problem = problem_from_game(_game(entry))
    monkeypatch.setattr(spidercli.solver.proof, "MAX_POSITIONS", limit)
    python = _search(problem, False)
    budget = _Budget(None, None, None, 1.0)
    counts = ProofSearch(problem)
    start = problem.start
    line, exhaustive = _proof.search(
        start.cols,
        start.down,
        problem.chunks,
        start.runs,
        problem.permissive,
        problem.runs_to_win,
        limit,
        1 << 30,
        budget.grant,
        budget.progress,
        counts,
    )
    assert (line, exhaustive) == (None, False)
    pr = budget.progress
    assert (pr.states, counts.positions, pr.best_runs, pr.best_deals) == python[2:6]
    assert python[2] == limit


@needs_compiled
def test_a_memory_budget_gives_up() -> None:
    """A budget of bytes too small for the whole space: gave up, no proof, the memory held never
    past it (but for the first table and path, 40 KB, held from the start); the same search with
    room enough proves."""
    entry = max(CORPUS, key=lambda e: e["positions"])
    problem = problem_from_game(_game(entry))
    for memory, most in ((0, 40_960), (1, 40_960), (40_000, 40_960), (60_000, 60_000)):
        search = ProofSearch(problem, compiled=True, memory=memory)
        outcome = search.solve()
        assert not outcome.exhaustive and outcome.steps is None
        assert outcome.progress.phase == "gave up" and outcome.progress.stop == "memory"
        assert outcome.progress.states == search.positions < entry["positions"]
        assert 40_960 <= search.memory <= most
        assert (search.positions > 0) == (memory > 40_960)
    whole = ProofSearch(problem, compiled=True, memory=1 << 20)
    assert whole.solve().exhaustive and whole.positions == entry["positions"]
    assert 0 < whole.memory <= 1 << 20
    huge = ProofSearch(problem, compiled=True, memory=1 << 80)  # past a C long long: no limit
    assert huge.solve().exhaustive


def test_the_default_memory_is_a_quarter_of_the_machine_at_most(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """8 GiB, or a quarter of the machine's memory when that is less; 8 GiB where its size is
    not known; what a search takes when given no budget. (No cgroup or RLIMIT_AS limits it here:
    tests/test_memory_limits.py tries those.)"""
    proof = spidercli.solver.proof
    monkeypatch.setattr(proof, "cgroup_room", lambda: None)
    monkeypatch.setattr(proof, "address_room", lambda: None)
    sizes = {"SC_PAGE_SIZE": 4096, "SC_PHYS_PAGES": (8 << 30) // 4096}  # an 8 GiB laptop
    monkeypatch.setattr(os, "sysconf", lambda name: sizes[name])
    assert proof.default_memory() == 2 << 30
    sizes["SC_PHYS_PAGES"] = (256 << 30) // 4096
    assert proof.default_memory() == proof.MEMORY == 8 << 30
    sizes["SC_PHYS_PAGES"] = -1  # sysconf's "not known"
    assert proof.default_memory() == 8 << 30

    def unknown(name: str) -> int:
        raise ValueError(name)

    monkeypatch.setattr(os, "sysconf", unknown)
    assert proof.default_memory() == 8 << 30
    monkeypatch.setattr(proof, "default_memory", lambda: 12_345)
    problem = problem_from_game(_game(CORPUS[0]))
    assert ProofSearch(problem).max_bytes == 12_345
    assert ProofSearch(problem, memory=99).max_bytes == 99


@needs_compiled
def test_a_grant_that_raises_stops_the_compiled_search_cleanly() -> None:
    problem = problem_from_game(Game.from_code(parse_code("SP2-S1C-AAAAAAB"), CLASSIC))
    search = ProofSearch(problem, compiled=True)
    budget = budget_raising_at(5)
    with pytest.raises(Boom):
        search._run(budget)
    assert budget.calls == 5
    assert budget.progress.states == 4 * 256  # every grant spent in full, none counted twice
    assert search.positions == 4 * 256  # told before the fifth grant


@needs_compiled
def test_a_deadline_stops_the_compiled_search() -> None:
    problem = problem_from_game(Game.from_code(parse_code("PS4-14934"), CLASSIC))
    search = ProofSearch(problem, compiled=True, locks=False)  # searched, though locked
    outcome = search.solve(deadline=0.0)  # long past: the first grant stops it
    assert outcome.progress.phase == "gave up" and not outcome.exhaustive
    assert outcome.progress.states <= 256 and search.positions == 1


@needs_compiled
def test_the_compiled_search_reports_its_path_and_memory() -> None:
    """PS4-14934 (4 suits): 20,000 positions, all deals done, the path hundreds of actions deep;
    the counts told as it goes match the Python search's positions."""
    problem = problem_from_game(Game.from_code(parse_code("PS4-14934"), CLASSIC))
    search = ProofSearch(problem, compiled=True, locks=False)  # searched, though locked
    seen: list[tuple[int, int, int]] = []

    def report(pr: Progress) -> None:
        seen.append((search.positions, search.depth, search.memory))

    outcome = search.solve(max_states=20_000, report=report, report_every=0.0)
    assert outcome.progress.states == search.positions == 20_000
    assert search.dealt == 5 and outcome.progress.best_deals == 5
    assert search.depth > 100 and 0 < search.memory < 200 * 20_000
    assert seen and all(p <= 20_000 for p, _, _ in seen)
    assert [p for p, _, _ in seen] == sorted(p for p, _, _ in seen)


# ------------------------------------------------------------------ bad input


def _args(**changes: object) -> list[object]:
    budget = _Budget(None, None, None, 1.0)
    args: dict[str, object] = {
        "cols": (b"\x0d\x0c", b"\x05"),
        "down": (1, 0),
        "chunks": (b"\x01\x02",),
        "runs": 0,
        "permissive": False,
        "runs_to_win": 1,
        "max_positions": -1,
        "max_bytes": 1 << 20,
        "grant": budget.grant,
        "progress": budget.progress,
        "counts": ProofSearch(problem_from_game(_game(CORPUS[0])), compiled=False),
    }
    args.update(changes)
    return list(args.values())


def _call(*args: object) -> object:
    """``_proof.search`` with any arguments (the types it declares are what it checks)."""
    from spidercli.solver import _proof

    search: Callable[..., object] = _proof.search
    return search(*args)


@needs_compiled
def test_good_arguments_search() -> None:
    assert _call(*_args()) == (None, True)


@needs_compiled
@pytest.mark.parametrize(
    ("changes", "error", "match"),
    [
        ({"cols": [b"\x0d"]}, TypeError, "tuple"),
        ({"cols": ("ab", b"\x05")}, TypeError, "column: bytes expected"),
        ({"chunks": ("ab",)}, TypeError, "deal: bytes expected"),
        ({"down": (1,)}, ValueError, "each with its face-down count"),
        ({"cols": (), "down": ()}, ValueError, "1 to 10 columns"),
        ({"cols": (b"\x05",) * 11, "down": (0,) * 11}, ValueError, "1 to 10 columns"),
        ({"down": ("1", 0)}, TypeError, None),
        ({"down": (2, 0)}, ValueError, "below its column's length"),
        ({"down": (-1, 0)}, ValueError, "face-down count"),
        ({"down": (2**70, 0)}, OverflowError, None),
        ({"cols": (b"", b"\x05"), "down": (1, 0)}, ValueError, "below its column's length"),
        ({"cols": (b"\x0d\x00", b"\x05")}, ValueError, "not a card: 0"),
        ({"cols": (b"\x0d\x0e", b"\x05")}, ValueError, "not a card: 14"),
        ({"cols": (b"\x0d\x41", b"\x05")}, ValueError, "not a card: 65"),
        ({"cols": (b"\x01" * 128, b"\x05")}, ValueError, "column: too many cards"),
        ({"cols": (b"\x01" * 120, b"\x05" * 7)}, ValueError, "too many cards"),
        ({"chunks": (b"\x01\x02\x03",)}, ValueError, "deal: too many cards"),
        ({"chunks": (b"\x01\x02",) * 64}, ValueError, "at most 63 deals"),
        ({"runs": -1}, ValueError, "runs 0 to 2"),
        ({"runs_to_win": 2**21}, ValueError, "runs 0 to 2"),
        ({"runs": 2**40}, OverflowError, None),
        ({"max_bytes": 2**64}, OverflowError, None),
        ({"grant": None}, TypeError, "grant: a callable expected"),
        ({"grant": lambda done, more: 0}, ValueError, "grant: a positive count expected"),
        ({"grant": lambda done, more: "many"}, TypeError, None),
        ({"progress": object()}, AttributeError, "best_runs"),
    ],
)
def test_bad_arguments_are_clean_errors(
    changes: dict[str, object], error: type[Exception], match: str | None
) -> None:
    with pytest.raises(error, match=match):
        _call(*_args(**changes))


@needs_compiled
def test_a_counts_object_that_refuses_attributes() -> None:
    with pytest.raises(AttributeError):
        _call(*_args(counts=object()))


@needs_compiled
def test_a_stop_from_grant_propagates() -> None:
    def grant(done: int, more: int) -> int:
        raise _Stop

    with pytest.raises(_Stop):
        _call(*_args(grant=grant))
