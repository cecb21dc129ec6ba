"""Proofs that no win exists (spidercli/solver/proof.py): a corpus of proven-unwinnable positions,
each checked again by a plain breadth-first search over the engine's every legal action
(tests/plainsearch.py, no equivalence, none of the solver's code); the proof and the plain
search agree on small positions; and ``solve`` says ``unwinnable`` only after a whole search."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spidercli.game.actions import Deal, Move
from spidercli.game.cards import parse_card
from spidercli.game.codes import parse_code
from spidercli.game.engine import Game
from spidercli.game.rules import CLASSIC
from spidercli.solver import proof
from spidercli.solver.beam import BeamSolver
from spidercli.solver.lines import search
from spidercli.solver.proof import ProofSearch, position_key
from spidercli.solver.search import Position, problem_from_game
from tests.helpers import run
from tests.plainsearch import plain_search, small_game
from tests.tools.unwinnable_corpus import draw

DATA = Path(__file__).resolve().parent / "data" / "unwinnable"
CORPUS = json.loads((DATA / "positions.json").read_text())


def _cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def _game(entry: dict[str, object]) -> Game:
    columns: list[list[int]] = []
    down: list[int] = []
    for spec in entry["columns"]:  # type: ignore[attr-defined]
        d, _, u = str(spec).rpartition("|")
        columns.append(_cards(d) + _cards(u))
        down.append(len(_cards(d)))
    return small_game(
        columns,
        down,
        _cards(str(entry["stock"])),
        suits=int(entry["suits"]),  # type: ignore[call-overload]
        runs=int(entry["runs"]),  # type: ignore[call-overload]
    )


@pytest.mark.parametrize("index", range(len(CORPUS)))
def test_the_corpus_is_unwinnable_by_both_searches(index: int) -> None:
    entry = CORPUS[index]
    game = _game(entry)
    outcome = ProofSearch(problem_from_game(game)).solve()
    assert outcome.exhaustive and outcome.steps is None
    assert outcome.progress.states == entry["positions"]
    plain = plain_search(game, limit=300_000)
    assert plain is not None and plain.shortest is None  # the whole space, and no win in it
    assert plain.positions >= entry["positions"]  # the equivalence only merges positions


def test_a_whole_deal_as_dealt_is_unwinnable_by_both_searches() -> None:
    """SD4-S1-FFJUZSM, a 4-suit Spiderette deal from its start, every card as the code deals it
    (one of four of 60 random deals a sweep proved unwinnable): the proof meets 56,403 positions
    and no win, and so does the plain search over the engine's own moves (5 s); ``solve`` says
    so, its states the beams' and the proof's."""
    game = Game.from_code(parse_code("SD4-S1-FFJUZSM"), CLASSIC)
    proof = ProofSearch(problem_from_game(game))
    outcome = proof.solve()
    assert outcome.exhaustive
    assert outcome.steps is None
    assert proof.positions == 56_403
    plain = plain_search(game, limit=100_000)
    assert plain is not None  # the whole space within the limit
    assert plain.shortest is None
    assert plain.positions >= 56_403
    record = json.loads(run("solve", "SD4-S1-FFJUZSM", "--json").stdout)
    assert record["result"] == "unwinnable"
    assert record["states"] > 56_403  # the beams' positions, then the proof's


def test_the_corpus_is_not_trivial() -> None:
    assert len(CORPUS) >= 20
    assert max(e["positions"] for e in CORPUS) >= 1000
    assert any(e["stock"] for e in CORPUS) and any(e["runs"] == 2 for e in CORPUS)


def _replays_to_a_win(game: Game, steps: list[tuple[int, int, int] | None]) -> bool:
    for step in steps:
        action = Deal() if step is None else Move(step[0] + 1, step[1] + 1, step[2])
        if game.play(action) is not None:
            return False
    return game.result == "won"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_the_proof_and_the_plain_search_agree(seed: int) -> None:
    game = draw(random.Random(seed))
    plain = plain_search(game, limit=5_000)
    if plain is None:
        return  # too large for the plain search: nothing to compare
    outcome = ProofSearch(problem_from_game(game), locks=False).solve()  # locks: test_lock.py
    if plain.shortest is None:
        assert outcome.exhaustive and outcome.steps is None
        assert outcome.progress.states <= plain.positions
    else:
        assert outcome.steps is not None and not outcome.exhaustive
        assert len(outcome.steps) >= plain.shortest
        assert _replays_to_a_win(_game_copy(game), outcome.steps)


def _game_copy(game: Game) -> Game:
    return Game(game.kind, game.rules, game.cols, game.stock, suits=game.suits, down=game.down)


def test_the_equivalence_is_column_order_once_the_stock_is_out() -> None:
    a = Position((b"\x0d\x0c", b"", b"\x05"), (1, 0, 0), 1, 0)
    b = Position((b"\x05", b"\x0d\x0c", b""), (0, 1, 0), 1, 0)
    assert position_key(a, 1) == position_key(b, 1)  # no deal left: the same position
    assert position_key(a._replace(dealt=0), 1) != position_key(b._replace(dealt=0), 1)
    flipped = Position((b"\x0d\x0c", b"", b"\x05"), (0, 0, 0), 1, 0)
    assert position_key(a, 1) != position_key(flipped, 1)  # face-down counts matter


def test_a_budget_ends_a_proof_without_claiming_one() -> None:
    entry = max(CORPUS, key=lambda e: e["positions"])
    outcome = ProofSearch(problem_from_game(_game(entry))).solve(max_states=100)
    assert not outcome.exhaustive and outcome.progress.states == 100
    assert outcome.progress.stop == "states"


def test_the_python_search_gives_up_past_its_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pure Python search's limit of positions (``MAX_POSITIONS``, its memory): gave up, the
    budget spent said to be memory."""
    monkeypatch.setattr(proof, "MAX_POSITIONS", 10)
    entry = max(CORPUS, key=lambda e: e["positions"])
    search = ProofSearch(problem_from_game(_game(entry)), compiled=False)
    outcome = search.solve()
    assert not outcome.exhaustive and outcome.steps is None
    assert (outcome.progress.stop, search.positions) == ("memory", 10)


def test_search_proves_after_the_beams_fail() -> None:
    """``solution.search`` (what ``solve`` and ``hint`` run): the beams end without a win, then
    the whole space; unwinnable only after it, its positions counted in the states."""
    entry = max(CORPUS, key=lambda e: e["positions"])
    problem = problem_from_game(_game(entry))
    outcome = search(problem, timeout=60)
    assert outcome.exhaustive and outcome.steps is None
    assert outcome.progress.states > entry["positions"]
    cut = search(problem, timeout=60, max_states=entry["positions"])
    assert not cut.exhaustive and cut.progress.phase == "gave up"


def test_the_live_figures_count_on_when_the_proof_starts() -> None:
    """``report`` (the live line) is called with the states and seconds so far: when the proof
    follows the beams, its figures count on from theirs, never back to 0, and end at the
    outcome's."""
    problem = problem_from_game(Game.from_code(parse_code("SD4-S1-MVLDKUL"), CLASSIC))
    beams = BeamSolver(problem).solve()  # every beam fails: their states, then the proof's
    assert beams.steps is None and not beams.exhaustive and beams.progress.phase != "gave up"
    seen: list[tuple[int, float, str]] = []
    outcome = search(
        problem, timeout=60, report=lambda pr: seen.append((pr.states, pr.seconds, pr.phase))
    )
    assert outcome.exhaustive  # 437,503 positions of proof: about a second, reports every 0.25
    proof = [(n, t) for n, t, phase in seen if phase == "proof"]
    assert proof and proof[0][0] > beams.progress.states
    assert [n for n, _, _ in seen] == sorted(n for n, _, _ in seen)
    assert [t for _, t, _ in seen] == sorted(t for _, t, _ in seen)
    assert proof[-1][0] <= outcome.progress.states


def test_solve_says_unwinnable_for_a_blocked_deal() -> None:
    """A Spiderette deal in which no move is ever legal: every top card's rank, after each deal,
    is of one parity, so no card can go on another."""
    log = str(DATA / "blocked-spiderette.yaml")
    result = run("solve", log, "--json")
    assert result.exit_code == 1
    record = json.loads(result.stdout)
    assert record["result"] == "unwinnable" and record["moves"] is None and record["log"] is None
    assert "cannot be won: every line of play was searched" in result.stderr
    assert f"({record['states']} states in " in result.stderr
