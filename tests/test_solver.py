"""The solver, `spidercli solve` and `spidercli hint`: wins that replay, proofs, pruning that
stays inside the rules, determinism, and the worked examples."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from syrupy.assertion import SnapshotAssertion

import spidercli.solver.beam
from spidercli.game.codes import Setup, parse_code, seed_letters
from spidercli.game.engine import Game
from spidercli.game.rules import CLASSIC, DUEL, PAVOUK
from spidercli.logs.reader import load_log, parse_log
from spidercli.play.replay import replay
from spidercli.solver.beam import BeamSolver, Candidate, Level, compiled_available
from spidercli.solver.hints import find_hint
from spidercli.solver.lines import actions_for, search, solve_setup
from spidercli.solver.search import (
    Position,
    Problem,
    Solver,
    Step,
    _Budget,
    problem_from_game,
    shorten,
)
from tests.helpers import FIXTURES, position, run

# Whole searches with the pure Python pass are long runs where the compiled pass is there
# (tests/test_beam_compiled.py shows the two passes the same): make test-slow runs them.
_PURE_MARKS = [pytest.mark.slow] if compiled_available() else []


@pytest.fixture(params=["compiled", pytest.param("python", marks=_PURE_MARKS)])
def beam_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the test with the beam's compiled pass, then with its pure Python pass (polishing
    with narrow beams: the Python pass is 25-35 times slower, and the two passes are shown
    to be the same in tests/test_beam_compiled.py)."""
    if request.param == "compiled":
        if not compiled_available():
            pytest.skip("the compiled beam pass was not built")
        monkeypatch.delenv("SPIDERCLI_PURE_PYTHON", raising=False)
    else:
        monkeypatch.setenv("SPIDERCLI_PURE_PYTHON", "1")
        monkeypatch.setattr(spidercli.solver.beam, "POLISH", {1: (100,), 2: (80,), 4: (60,)})
    return str(request.param)


# ------------------------------------------------------------------------ the search


@pytest.mark.parametrize(
    ("code", "rules"),
    [
        ("SP1-S1C-AAAAAAB", CLASSIC),
        ("SP1-S1C-AAAAAAB", DUEL),
        ("SP1-S1C-AAAAAAB", PAVOUK),
        ("SP2-S1C-AAAAAAC", CLASSIC),
        ("SP2-S1P-AAAAAAC", CLASSIC),
        ("SD1-S1-AAAAAAC", CLASSIC),
        ("SD2-S1P-AAAAAAE", CLASSIC),
    ],
)
def test_solutions_replay_as_wins(code: str, rules: object, beam_path: str) -> None:
    setup = Setup.from_code(parse_code(code))
    solved = solve_setup(setup, rules, timeout=60)  # type: ignore[arg-type]
    assert solved.actions is not None
    game = Game.from_setup(setup, rules)  # type: ignore[arg-type]
    for action in solved.actions:
        assert game.play(action) is None
    assert game.result == "won"
    assert game.score == solved.game.score and game.moves == solved.game.moves


def test_duel_solutions_flip_by_hand() -> None:
    solved = solve_setup(Setup.from_code(parse_code("SP1-S1C-AAAAAAB")), DUEL, timeout=60)
    assert solved.actions is not None
    assert any(str(a).startswith("flip ") for a in solved.actions)


def test_the_search_is_deterministic(beam_path: str) -> None:
    setup = Setup.from_code(parse_code("SP2-S1C-AAAAAAD"))
    first = solve_setup(setup, CLASSIC, timeout=60)
    second = solve_setup(setup, CLASSIC, timeout=60)
    assert first.actions is not None and first.actions == second.actions


def test_an_unwinnable_position_is_proven_so() -> None:
    # Five loose cards and two empty columns; one run is wanted and no suit is complete.
    cols = [b"\x01", b"\x12", bytes([0x03, 0x2D]), b"", b"", b"\x35", b"\x14"]
    problem = Problem(cols, [0, 0, 1, 0, 0, 0, 0], [], permissive=False, runs=0, runs_to_win=1)
    assert BeamSolver(problem).solve().exhaustive is False  # a beam proves nothing
    outcome = Solver(problem).solve()
    assert outcome.steps is None and outcome.exhaustive
    assert outcome.progress.states > 1000  # it really went through the positions


def test_a_budget_gives_up_without_claiming_a_proof(beam_path: str) -> None:
    game = Game.from_code(parse_code("SP4-S1C-AAAAAAB"), CLASSIC)
    outcome = search(problem_from_game(game), timeout=None, max_states=300)
    assert outcome.steps is None and not outcome.exhaustive
    assert outcome.progress.phase == "gave up" and outcome.progress.stop == "states"
    assert outcome.progress.states == 300  # exactly the budget, not the next multiple of 256
    timed = search(problem_from_game(game), timeout=1e-9)
    assert timed.steps is None and not timed.exhaustive and timed.progress.stop == "time"


@pytest.mark.parametrize("limit", [1, 100, 255, 257])
def test_a_position_budget_stops_exactly_at_it(limit: int) -> None:
    cols = [b"\x01", b"\x12", bytes([0x03, 0x2D]), b"", b"", b"\x35", b"\x14"]
    problem = Problem(cols, [0, 0, 1, 0, 0, 0, 0], [], permissive=False, runs=0, runs_to_win=1)
    outcome = Solver(problem).solve(max_states=limit)  # a proof takes thousands of positions
    assert not outcome.exhaustive and outcome.progress.states == limit


class _PolishOnce(BeamSolver):
    """A beam that polishes with one width of 12, or runs out of budget when it polishes."""

    stop_polishing = False

    def polish_widths(self) -> tuple[int, ...]:
        return (12,)

    def _beam(self, width: int, cap: int | None, budget: _Budget) -> list[Step] | None:
        if self.stop_polishing and width == 12:
            raise budget.stop("time")  # as the deadline would
        return super()._beam(width, cap, budget)


class _NoPolish(BeamSolver):
    def polish_widths(self) -> tuple[int, ...]:
        return ()


def test_polishing_never_lengthens_and_keeps_the_line_when_the_budget_ends(beam_path: str) -> None:
    problem = problem_from_game(Game.from_code(parse_code("SP2-S1C-AAAAAAD"), CLASSIC))
    first = _NoPolish(problem).solve().steps
    polished = _PolishOnce(problem).solve().steps
    assert first is not None and polished is not None
    assert len(polished) <= len(first)
    cut_short = _PolishOnce(problem)
    cut_short.stop_polishing = True
    outcome = cut_short.solve()
    assert outcome.steps == first and outcome.progress.phase != "gave up"
    assert outcome.progress.stop is None  # a win: the budget that ended polishing stopped nothing
    for steps in (first, polished):
        game = Game.from_code(parse_code("SP2-S1C-AAAAAAD"), CLASSIC)
        actions_for(game, steps)
        assert game.result == "won"


def test_a_beam_with_its_memory_bounds_reached_still_wins(
    monkeypatch: pytest.MonkeyPatch, beam_path: str
) -> None:
    import spidercli.solver.beam

    problem = problem_from_game(Game.from_code(parse_code("SP2-S1C-AAAAAAD"), CLASSIC))
    free = _NoPolish(problem)
    assert free.solve().steps is not None
    monkeypatch.setattr(spidercli.solver.beam, "SEEN_LIMIT", 500)
    monkeypatch.setattr(spidercli.solver.beam, "MEMO_LIMIT", 300)
    bounded = _NoPolish(problem)
    steps = bounded.solve().steps
    assert steps is not None
    if beam_path == "python":  # the compiled pass keeps no memo
        assert len(bounded._info) < len(free._info)  # the memo was emptied on the way
    game = Game.from_code(parse_code("SP2-S1C-AAAAAAD"), CLASSIC)
    actions_for(game, steps)
    assert game.result == "won"


def _spied_passes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int | None, bool, int]]:
    """Each beam pass run from now on, as it ends: its width, cap, whether it won, and the
    positions it expanded."""
    passes: list[tuple[int, int | None, bool, int]] = []
    beam = BeamSolver._beam

    def spy(self: BeamSolver, width: int, cap: int | None, budget: _Budget) -> list[Step] | None:
        before = budget.progress.states
        line = beam(self, width, cap, budget)
        passes.append((width, cap, line is not None, budget.progress.states - before))
        return line

    monkeypatch.setattr(BeamSolver, "_beam", spy)
    return passes


def test_a_deal_every_narrower_pass_misses_is_won_by_a_wide_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """PySol's 4-suit deal 10604: the 60 s sweep gave up on it (every pass to the uncapped 600
    failed, then the proof search spent its memory); the 30000-wide pass wins it (about 6 s)."""
    passes = _spied_passes(monkeypatch)
    setup = Setup.from_code(parse_code("PS4-10604"))
    solved = solve_setup(setup, CLASSIC, timeout=None, max_states=150_000_000)
    assert solved.result == "won" and solved.actions is not None
    first_win = next(i for i, (_, _, won, _) in enumerate(passes) if won)
    wide = BeamSolver.SCHEDULE.index((30000, 500))
    tried = [(w, c) for w, c, _, _ in passes[: first_win + 1]]
    assert tried == list(BeamSolver.SCHEDULE[: wide + 1])
    game = Game.from_setup(setup, CLASSIC)
    for action in solved.actions:
        assert game.play(action) is None
    assert game.result == "won"


@pytest.mark.slow
def test_the_long_line_pass_ends_and_the_wide_passes_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """PySol's 4-suit deal 3670: uncapped, the 600-wide pass for long lines never ended on it
    (375,000,000 positions, and the passes after it never ran); capped at 5000 moves it ends in
    a few million, and a wide pass wins. About a minute: make test-slow."""
    passes = _spied_passes(monkeypatch)
    setup = Setup.from_code(parse_code("PS4-3670"))
    solved = solve_setup(setup, CLASSIC, timeout=None, max_states=300_000_000)
    assert solved.result == "won" and solved.actions is not None
    long_line = next(p for p in passes if p[:2] == (600, 5000))
    assert not long_line[2] and long_line[3] < 20_000_000
    assert next(w for w, _, won, _ in passes if won) >= 30000
    game = Game.from_setup(setup, CLASSIC)
    for action in solved.actions:
        assert game.play(action) is None
    assert game.result == "won"


def test_a_won_position_needs_no_steps(beam_path: str) -> None:
    log = load_log(FIXTURES / "spiderette-1suit-win.yaml")
    game = replay(log).game
    assert game.result == "won"
    assert BeamSolver(problem_from_game(game)).solve().steps == []


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(
    st.sampled_from(["SP1-S1C", "SP2-S1C", "SP2-S1P", "SP4-S1C", "SD4-S1", "SD2-S1P"]),
    st.integers(0, 26**7 - 1),
    st.lists(st.integers(0, 10**6), max_size=80),
)
def test_generator_matches_the_engine(prefix: str, seed: int, choices: list[int]) -> None:
    """With ``complete``, the solver's moves are exactly the engine's legal moves (and the deal
    when legal); pruned moves are a subset; the solver's effects match the engine's."""
    game = Game.from_code(parse_code(f"{prefix}-{seed_letters(seed)}"), CLASSIC)
    for choice in choices:
        solver = Solver(problem_from_game(game))
        node = solver.p.start
        complete = solver.moves(node, True)
        legal = set(game.legal_moves())
        assert {m for m in complete if m is not None} == legal
        assert (None in complete) == (game.check_deal() is None)
        assert set(solver.moves(node, False)) <= set(complete)
        beam = BeamSolver(solver.p)
        assert set(beam.moves(node)) <= set(complete)
        assert_children_match(beam, node)
        if not complete:
            break
        step = complete[choice % len(complete)]
        child = solver.after_deal(node) if step is None else solver.after_move(node, *step)
        if step is None:
            game.deal()
        else:
            game.move(*step)
        mirror = problem_from_game(game).start
        assert child[:2] == mirror[:2] and child[3] == mirror[3]


def assert_children_match(beam: BeamSolver, node: Position) -> None:
    """The beam's candidates (computed from the two columns a move changes) agree with the
    positions the moves reach, with their rank and key computed whole, and no key repeats."""
    entry = beam.level_entry(node, -1, None)
    out: list[Candidate] = []
    seen = {entry.key}
    won, _ = beam.expand(entry, 0, out, seen)
    if won:
        return
    children: dict[Position, Step] = {}
    for step in beam.moves(node):
        child = beam.after_deal(node) if step is None else beam.after_move(node, *step)
        children.setdefault(child, step)  # the first step to reach each new position
    assert [c[3] for c in out] == list(children.values())
    assert len(seen) == len(out) + 1
    for rank, _, _, step, change in out:
        if step is None:
            child = beam.after_deal(node)
            assert isinstance(change, Level) and change.node == child
            sums, key = change.sums, change.key
        else:
            assert not isinstance(change, Level)
            child = beam.after_move(node, *step)
            s, t, _ = step
            new_s, ds, new_t, dt, removed, sums, _, _, key = change
            assert (new_s, ds, new_t, dt) == (
                child.cols[s],
                child.down[s],
                child.cols[t],
                child.down[t],
            )
            assert removed == child[3] - node[3]
        whole = beam.level_entry(child, -1, None)
        assert (sums, key) == (whole.sums, whole.key)
        assert rank == beam.rank(child)
    # With a bound of ``width`` per bucket, the candidates left out are never among the best
    # ``width`` of their bucket, and every key is still remembered as met.
    for width in (1, 2, 3):
        bests: list[list[int]] = [[] for _ in range(len(beam.p.chunks) + 1)]
        bounded: list[Candidate] = []
        seen_b = {entry.key}
        beam.expand(entry, 0, bounded, seen_b, bests, width)
        assert seen_b == seen

        def kept(cands: list[Candidate], width: int = width) -> list[Step]:
            counts: dict[bool, int] = {}
            steps = []
            for c in sorted(cands):
                deal = c[3] is None
                if counts.get(deal, 0) < width:
                    counts[deal] = counts.get(deal, 0) + 1
                    steps.append(c[3])
            return steps

        assert kept(bounded) == kept(out)
        assert len(bounded) <= len(out)


def test_shorten_cuts_a_detour() -> None:
    game = Game.from_code(parse_code("SP1-S1C-AAAAAAA"), CLASSIC)
    solver = BeamSolver(problem_from_game(game))
    steps = solver.solve().steps
    assert steps is not None
    # A detour: some move and straight back, inserted before the line.
    first = next(s for s in steps if s is not None)
    s, t, k = first
    detour = [first, (t, s, k)] if game.down[s] < len(game.cols[s]) - k else []
    longer = detour + steps
    short = shorten(Solver(solver.p), longer)
    assert len(short) <= len(steps)
    assert actions_for(Game.from_code(parse_code("SP1-S1C-AAAAAAA"), CLASSIC), short)


# ------------------------------------------------------------------------ the commands


def test_solve_prints_a_log_that_replays(tmp_path: Path) -> None:
    result = run("solve", "SP1-S1C-AAAAAAB")
    assert result.exit_code == 0, result.output
    log = parse_log(result.stdout, "solved.yaml")
    report = replay(log)
    assert report.ok and report.result == "won"
    assert log.expect is not None and log.expect.moves == report.game.moves
    out = tmp_path / "s.yaml"
    again = run("solve", "sp1-s1c-aaaaaab", "-o", str(out))
    assert again.exit_code == 0
    assert out.read_text() == result.stdout  # deterministic, and -o writes the same text
    checked = run("replay", str(out), "--json")
    assert checked.exit_code == 0 and json.loads(checked.stdout)["result"] == "won"


def test_solve_under_duel_writes_a_duel_log() -> None:
    result = run("solve", "SP1-S1C-AAAAAAB", "--rules", "duel")
    assert result.exit_code == 0
    assert "rules: duel" in result.stdout and "flip " in result.stdout
    assert replay(parse_log(result.stdout)).ok


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["SP3-S1C-AAAAAAA"], "not a game code"),
        (["SP4-S1C-AAAAAAA", "--rules", "duel"], "1 or 2 suits"),
        (["SD1-S1-AAAAAAA", "--rules", "pavouk"], "Spider only"),
        (["SP1-S1C-AAAAAAA", "--rules", "nope"], "unknown ruleset"),
    ],
)
def test_solve_bad_input(args: list[str], words: str) -> None:
    result = run("solve", *args)
    assert result.exit_code == 2
    assert words in result.stderr and "Traceback" not in result.stderr


def test_solve_says_when_the_proofs_memory_ended_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The proof search's memory spent: a longer --timeout would not help, and ``solve`` says
    so (the API's ``Solution.stopped_by`` is ``"memory"``); the record is the usual gave-up."""
    import spidercli
    from spidercli.solver import proof

    monkeypatch.setattr(proof, "default_memory", lambda: 1)  # the compiled search: 40 KB at once
    monkeypatch.setattr(proof, "MAX_POSITIONS", 1)  # the pure Python search: one position
    result = run("solve", "SD4-S1-FFJUZSM")  # every beam fails: the proof decides
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.splitlines()[-1].startswith(
        "spidercli: no win found for SD4-S1-FFJUZSM before the search's memory was spent ("
    )
    assert result.stderr.endswith(
        "): the search gave up, which proves nothing, and a longer --timeout would not help\n"
    )
    solution = spidercli.solve("SD4-S1-FFJUZSM")
    assert (solution.result, solution.stopped_by) == ("gave-up", "memory")
    record = solution.to_json()
    assert "stopped_by" not in record and record["result"] == "gave-up"
    counted = spidercli.solve("SD4-S1-FFJUZSM", max_states=1000)
    assert (counted.result, counted.stopped_by) == ("gave-up", "states")
    monkeypatch.undo()
    proven = spidercli.solve("SD4-S1-FFJUZSM")
    won = spidercli.solve("SD1-S1-AAAAAAC", max_states=1_000_000)  # polishing may end at it
    assert [(s.result, s.stopped_by) for s in (proven, won)] == [
        ("unwinnable", None),
        ("won", None),
    ]


def test_solve_gives_up_with_status_1() -> None:
    result = run("solve", "SP4-S1C-AAAAAAB", "--max-states", "100")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "within the budget" in result.stderr and "gave up, which proves nothing" in result.stderr
    assert "(100 states in " in result.stderr  # within the limit (it said 256)
    record = json.loads(run("solve", "SP4-S1C-AAAAAAB", "--max-states", "100", "--json").stdout)
    assert (record["result"], record["states"], record["moves"], record["log"]) == (
        "gave-up",
        100,
        None,
        None,
    )


def _halfway(tmp_path: Path) -> Path:
    """The 2-suit worked example cut after 60 entries: a position known to be winnable."""
    lines = (FIXTURES / "example-spider-2suit.yaml").read_text().splitlines()
    start = lines.index("moves:")
    kept = [line for line in lines[:start] if line.startswith("game:")]
    path = tmp_path / "halfway.yaml"
    path.write_text("\n".join(kept + lines[start : start + 61]) + "\n")
    return path


def test_hint_names_a_legal_move_with_reasons(tmp_path: Path) -> None:
    path = _halfway(tmp_path)
    result = run("hint", str(path), "--json", "--timeout", "30")
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert found["action"] is not None and found["action"] != "deal"
    assert found["reasons"][-1].startswith("a win follows in ")
    assert found["wins_in"] is not None
    game = replay(load_log(path)).game
    action = parse_log(f"game: SP1-S1C-AAAAAAA\nmoves: ['{found['action']}']").entries[0].action
    assert game.play(action) is None
    text = run("hint", str(path), "--timeout", "30")
    assert text.stdout.startswith(f"Hint: {found['action']}  (")


def test_hint_on_an_unwinnable_position_says_so() -> None:
    # A deal in which no move is ever legal: proven in well under a second (a real 2-suit
    # position, fixtures/spider-2suit-open.yaml, is proven in 438,090 positions: a minute).
    blocked = "tests/data/unwinnable/blocked-spiderette.yaml"
    result = run("hint", blocked, "--json", "--timeout", "600")
    assert result.exit_code == 0
    found = json.loads(result.stdout)
    assert found["action"] is None
    assert found["reasons"] == ["no win exists from here: every line of play was searched"]


def test_hint_on_a_finished_or_invalid_log() -> None:
    done = run("hint", "fixtures/spiderette-1suit-win.yaml")
    assert done.exit_code == 0 and "the game is over (won)" in done.stdout
    bad = run("hint", "fixtures/illegal/build-one-higher.yaml")
    assert bad.exit_code == 1 and "build-one-higher" in bad.stderr
    missing = run("hint", "fixtures/no-such.yaml", "--json")
    assert missing.exit_code == 2 and "error" in json.loads(missing.stdout)


def test_hint_never_deals() -> None:
    # Nothing to move, a deal would help: the hint says no move helps.
    game = position(
        "| 9S", "| 9S", "| 9S", "| 9S", "| 9S", "| 9S", "| 9S", "| 9S", "| 9S", "| 9S", suits=1
    )
    found = find_hint(game, timeout=2)
    assert found.action is None
    assert found.reasons


def test_hint_under_duel_turns_a_card_first() -> None:
    game = position("5S 3H |", "| 9H 8H", rules=DUEL, suits=2)
    found = find_hint(game, timeout=1)
    assert str(found.action) == "flip 1"


# ------------------------------------------------------------------------ worked examples

EXAMPLES = [
    ("example-spider-1suit-117.yaml", 117, 1183, "0,60,final"),
    ("example-spiderette-53.yaml", 53, 847, "0,25,final"),
    ("example-spider-2suit.yaml", None, None, "0,90,final"),
    ("example-spider-4suit.yaml", None, None, "0,120,final"),
]


@pytest.mark.parametrize(("name", "moves", "score", "show"), EXAMPLES)
def test_worked_examples(
    name: str, moves: int | None, score: int | None, show: str, snapshot: SnapshotAssertion
) -> None:
    text = run("replay", f"fixtures/{name}", "--show", show)
    assert text.exit_code == 0, text.output
    assert text.stdout == snapshot
    report = json.loads(run("replay", f"fixtures/{name}", "--json").stdout)
    assert report["result"] == "won" and report["expect"]["ok"]
    if moves is not None:
        assert (report["moves"], report["score"]) == (moves, score)
        assert report["score"] == 500 - moves + 100 * report["runs"]
    # no back-and-forth padding: the line never comes back to a position it has been in
    log = load_log(FIXTURES / name)
    game = Game.from_setup(log.deal, CLASSIC)
    seen = set()
    for entry in log.entries:
        key = game.key()[:3]
        assert key not in seen, f"entry {entry.index} returns to an earlier position"
        seen.add(key)
        assert game.play(entry.action) is None
    assert report == snapshot


def test_solve_an_explicit_deal_from_its_log() -> None:
    result = run("solve", "fixtures/spiderette-1suit-win-explicit.yaml")
    assert result.exit_code == 0, result.output
    assert "deal:\n  game: spiderette\n" in result.stdout and "game: SD" not in result.stdout
    log = parse_log(result.stdout, "solved.yaml")
    assert log.code is None
    assert log.deal.deal_id == load_log(FIXTURES / "spiderette-1suit-win.yaml").deal.deal_id
    assert replay(log).ok
    missing = run("solve", "no-such-log.yaml")
    assert missing.exit_code == 2 and "nor is it a log file" in missing.stderr


# ------------------------------------------------------------------ which pass runs, said


def test_version_names_the_solvers_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SPIDERCLI_PURE_PYTHON", raising=False)
    if compiled_available():
        assert run("--version").stdout.splitlines()[1] == "solver: compiled pass"
    monkeypatch.setenv("SPIDERCLI_PURE_PYTHON", "1")
    assert run("--version").stdout.splitlines()[1] == (
        "solver: pure Python pass (SPIDERCLI_PURE_PYTHON is set)"
    )
    monkeypatch.setattr(spidercli.solver.beam, "_compiled", None)  # as where it was never built
    monkeypatch.delenv("SPIDERCLI_PURE_PYTHON")
    assert run("-V").stdout.splitlines()[1] == (
        "solver: pure Python pass (the compiled pass was not built)"
    )


def test_hint_notes_the_pure_python_pass_only_when_it_searches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A finished game, a card to turn up and a refused entry are answered without a search:
    no note on the solver's pass then. The API's ``on_search`` is called before a search only."""
    from spidercli import api

    monkeypatch.setenv("SPIDERCLI_PURE_PYTHON", "1")
    won = run("hint", "fixtures/spider-1suit-win.yaml")
    assert won.exit_code == 0 and won.stderr == ""
    assert "the game is over (won)" in won.stdout
    refused = run("hint", "fixtures/illegal/build-one-higher.yaml")
    assert refused.exit_code == 1
    assert refused.stderr.startswith("spidercli: fixtures/illegal/build-one-higher.yaml:5: ")
    assert refused.stderr.count("\n") == 1  # that line alone, no note before it
    calls: list[str] = []

    def hinted(text: str) -> str:
        found = api.hint(api.parse_log(text), timeout=0.1, on_search=lambda: calls.append(text))
        return str(found.action)

    flip = "game: SP1-S1C-AAAAAAD\nrules: duel\nmoves: ['4>6']\n"  # duel rules: flip by hand
    assert hinted(flip) == "flip 4" and calls == []
    assert hinted((FIXTURES / "spider-1suit-win.yaml").read_text()) == "None" and calls == []
    open_game = (FIXTURES / "spider-2suit-open.yaml").read_text()
    hinted(open_game)
    assert calls == [open_game]
    searched = run("hint", "fixtures/spider-2suit-open.yaml", "--timeout", "0.1")
    assert searched.stderr.startswith("spidercli: note: the solver runs its pure Python pass (")


def test_solve_and_hint_note_the_pure_python_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    note = "spidercli: note: the solver runs its pure Python pass ("
    log = "fixtures/spider-2suit-open.yaml"
    monkeypatch.delenv("SPIDERCLI_PURE_PYTHON", raising=False)
    if compiled_available():
        assert note not in run("solve", "SD1-S1-AAAAAAC", "--max-states", "50").stderr
        assert note not in run("hint", log, "--timeout", "0.1").stderr
    monkeypatch.setenv("SPIDERCLI_PURE_PYTHON", "1")
    solved = run("solve", "SD1-S1-AAAAAAC", "--max-states", "50", "--json")
    assert solved.stderr.startswith(note + "SPIDERCLI_PURE_PYTHON is set): 25-35 times slower")
    assert json.loads(solved.stdout)["result"] == "gave-up"  # stdout stays the record alone
    hinted = run("hint", log, "--timeout", "0.1", "--json")
    assert hinted.stderr.startswith(note) and "reasons" in json.loads(hinted.stdout)
    swept = run("sweep", "SD1-S1-AAAAAAC", "--max-states", "50", "-j", "1")
    assert swept.stderr.startswith(note + "SPIDERCLI_PURE_PYTHON is set)")
    assert json.loads(swept.stdout)["result"] == "gave-up"  # stdout stays the records alone
    monkeypatch.setattr(spidercli.solver.beam, "_compiled", None)
    monkeypatch.delenv("SPIDERCLI_PURE_PYTHON")
    cs = run("solve", "SD1-S1-AAAAAAC", "--max-states", "50", "--lang", "cs")
    assert cs.stderr.startswith(
        "spidercli: poznámka: řešitel běží v čistém Pythonu (zkompilovaná část nebyla sestavena)"
    )
