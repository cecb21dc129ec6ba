"""Locks (``spidercli.solver.lock``): positions from which no run can ever be removed, proven
without a search. Each lock is checked against searches that know nothing of it: the proof search
with ``locks=False`` and the plain search of the tests (breadth first over the engine's own
moves)."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spidercli.game.actions import Flip, Move
from spidercli.game.codes import Setup, parse_code
from spidercli.game.engine import Game
from spidercli.game.rules import CLASSIC, DUEL, KPAT, PAVOUK, GameKind
from spidercli.solver.hints import find_hint
from spidercli.solver.lines import proves_under, search
from spidercli.solver.lock import lock
from spidercli.solver.proof import ProofSearch
from spidercli.solver.result import Solution, no_win_message
from spidercli.solver.search import Problem, problem_from_game
from spidercli.text import i18n
from tests.helpers import cards, run
from tests.plainsearch import plain_search, small_game


def _problem(code: str) -> Problem:
    return problem_from_game(Game.from_code(parse_code(code), CLASSIC))


def lock_draw(rng: random.Random) -> Game:
    """A small random game for locks: one or two suits and up to three more cards, of a third
    suit or copies of the first's (one run wins: a win is any run removed), 3 to 6 columns with
    some cards face down, up to four deals, and the permissive move rule three times in ten."""
    suits = rng.choice([1, 1, 2])
    pack = [s << 4 | r for s in range(suits) for r in range(1, 14)]
    extra = rng.choice([0x20, 0x20, 0])
    pack += [extra | r for r in rng.sample(range(1, 14), rng.randint(0, 3))]
    rng.shuffle(pack)
    ncols = rng.randint(3, 5) + (suits - 1)
    deals = rng.randint(0, min(4, len(pack) // ncols - 1))
    stock, rest = pack[: deals * ncols], pack[deals * ncols :]
    cuts = sorted(rng.sample(range(1, len(rest)), ncols - 1))
    columns = [rest[a:b] for a, b in zip([0, *cuts], [*cuts, len(rest)], strict=True)]
    down = [rng.randint(0, len(c) - 1) for c in columns]
    return small_game(
        columns,
        down,
        stock,
        suits=len({c >> 4 for c in pack}),
        permissive=rng.random() < 0.3,
        runs=1,
    )


def _no_win_by_searches(game: Game, *, whole: bool = True) -> None:
    """Neither the proof search (without locks) nor the plain search finds a win; ``whole``:
    both go over the whole space (the small games made by hand are small enough)."""
    outcome = ProofSearch(problem_from_game(game), locks=False).solve(max_states=200_000)
    assert outcome.steps is None
    plain = plain_search(game, limit=50_000)
    assert plain is None or plain.shortest is None
    if whole:
        assert outcome.exhaustive and plain is not None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_a_locked_position_is_won_by_no_search(seed: int) -> None:
    game = lock_draw(random.Random(seed))
    if lock(problem_from_game(game)) is not None:
        _no_win_by_searches(game, whole=False)


def test_the_random_games_lock_often_enough_to_test() -> None:
    """The property above is not empty: of 300 fixed draws, some are locked with deals still to
    come (the stages matter), some under the permissive rule, and the plain search goes over
    each locked one whole and finds no win; the searches win some that are not locked."""
    locked = with_deals = permissive = checked = won = 0
    for seed in range(300):
        game = lock_draw(random.Random(seed))
        problem = problem_from_game(game)
        if lock(problem) is None:
            won += ProofSearch(problem).solve(max_states=20_000).steps is not None
            continue
        locked += 1
        with_deals += bool(problem.chunks)
        permissive += problem.permissive
        plain = plain_search(game, limit=50_000)
        assert plain is not None and plain.shortest is None
        checked += 1
    assert locked >= 20 and with_deals >= 5 and permissive >= 3 and checked == locked
    assert won >= 50


def _game(columns: list[str], down: list[int], stock: str = "", *, runs: int = 1) -> Game:
    return small_game([cards(c) for c in columns], down, cards(stock), suits=2, runs=runs)


# One suit's 13 cards: the 3 face down under the King; the 2 (with the Ace on it) needs a 3 to
# move, and holds the column up. Nothing can make a run.
KING_OVER_THE_3 = ["3S KS", "QS JS TS 9S 8S 7S 6S 5S 4S 2S AS", "KH"]


def test_a_king_never_leaves_and_a_2_needs_a_3() -> None:
    game = _game(KING_OVER_THE_3, [1, 0, 0])
    found = lock(problem_from_game(game))
    assert found is not None
    assert found.hidden == ((0, 0),) and found.ranks == (3,)
    _no_win_by_searches(game)


def test_a_card_goes_on_one_rank_higher_of_any_suit() -> None:
    """With a 3 of another suit face up, the 2 and the Ace can move onto it, the Queen-to-4
    group onto the King, the King's group into the emptied column: not locked, and won."""
    game = _game([*KING_OVER_THE_3[:2], "3H"], [1, 0, 0])
    assert lock(problem_from_game(game)) is None
    plain = plain_search(game, limit=50_000)
    assert plain is not None and plain.shortest is not None


def test_a_card_dealt_later_counts_from_its_deal_on() -> None:
    """A 3 of hearts that only the second deal brings is face up from then on: the 2 of
    spades could then move, so the argument says nothing; without that deal it is locked."""
    columns = [*KING_OVER_THE_3[:2], "KH 9H"]
    assert lock(problem_from_game(_game(columns, [1, 0, 0]))) is not None
    assert lock(problem_from_game(_game(columns, [1, 0, 0], "QH JH 8H TH 9H 3H"))) is None
    assert lock(problem_from_game(_game(columns, [1, 0, 0], "QH JH 8H TH 9H 8H"))) is not None


def test_a_card_turned_up_before_a_deal_covers_its_column_counts() -> None:
    """The 3 of hearts is face down under the 6 of hearts, which can go onto the 7 of hearts
    before the deal puts a King on that column: the 3 can be turned up in time, so the
    argument says nothing, and the game is won (an argument that wanted every card ever dealt
    on the 3 gone would call it locked). When no 7 is face up before the deal (the 7 of spades
    face down, the 7 of hearts dealt with the King), the 3 of hearts stays under the King:
    locked."""
    spades = "QS JS TS 9S 8S 7S 6S 5S 4S 2S AS"
    early = _game(["3S KS", spades, "3H 6H", "KH 7H"], [1, 0, 1, 0], "9H 8H KH 4H")
    assert lock(problem_from_game(early)) is None
    plain = plain_search(early, limit=100_000)
    assert plain is not None and plain.shortest is not None
    late = _game(
        ["3S KS", "7S QS JS TS 9S 8S 6S 5S 4S 2S AS", "3H 6H", "KH 4H"],
        [1, 1, 1, 0],
        "9H 8H KH 7H",
    )
    assert lock(problem_from_game(late)) is not None
    _no_win_by_searches(late)


def test_no_lock_with_an_empty_column_or_a_won_game() -> None:
    """The argument starts before any column is empty or any run is removed."""
    columns = [bytes(cards(c)) for c in KING_OVER_THE_3]
    kept = Problem(columns, [1, 0, 0], [], permissive=False, runs=0, runs_to_win=1)
    assert lock(kept) is not None
    empty = Problem([*columns, b""], [1, 0, 0, 0], [], permissive=False, runs=0, runs_to_win=1)
    assert lock(empty) is None
    problem = problem_from_game(_game(KING_OVER_THE_3, [1, 0, 0], runs=0))
    assert lock(problem) is None


def test_a_column_that_could_be_emptied_unlocks() -> None:
    """The King's column can never empty, but the third column (a Queen on a 2 of hearts:
    the 2 needs a 3, and no 3 is ever up) cannot either; with a 4 of hearts instead of the 2,
    that column could be emptied (the 4 onto the 5 of spades), so the argument says nothing."""
    locked = _game(["3S KS", "QS JS TS 9S 8S 7S 6S 5S 4S 2S AS", "2H QH"], [1, 0, 0])
    assert lock(problem_from_game(locked)) is not None
    _no_win_by_searches(locked)
    loose = _game(["3S KS", "QS JS TS 9S 8S 7S 6S 5S 4S 2S AS", "4H QH"], [1, 0, 0])
    assert lock(problem_from_game(loose)) is None


def test_pysol_14934_no_3_is_ever_face_up() -> None:
    """PySol's 4-suit deal 14934: all eight 3s start face down, each under a King or under a 2,
    and a 2 needs a 3 face up to move (the argument of docs/solver.md, "Locks")."""
    found = lock(_problem("PS4-14934"))
    assert found is not None
    assert found.ranks == (3,)
    assert len(found.hidden) == 39  # of its 44 face-down cards, only 5 can ever turn up


def test_pysol_1748_no_6_is_ever_face_up() -> None:
    found = lock(_problem("PS4-1748"))
    assert found is not None and found.ranks == (6,)


def test_deals_that_are_won_are_not_locked() -> None:
    for code in ("PS4-1", "PS4-2", "KP4-1", "KP4-118", "SD4-S1-FFJUZSM"):
        assert lock(_problem(code)) is None, code


def test_a_locked_spiderette_deal_is_proven_by_the_search_too() -> None:
    """SD4-S1-AWSVGWA, a locked 4-suit Spiderette deal: the proof search without locks goes
    over its whole space (355,183 positions) and finds no win either."""
    problem = _problem("SD4-S1-AWSVGWA")
    found = lock(problem)
    assert found is not None and found.ranks == (2,)
    proof = ProofSearch(problem, locks=False)
    outcome = proof.solve()
    assert outcome.exhaustive and outcome.steps is None and outcome.locked is None
    assert proof.positions == 355_183
    locked = ProofSearch(problem).solve()
    assert locked.exhaustive and locked.steps is None and locked.locked == (2,)
    assert locked.progress.states == 1


def test_search_goes_to_the_proof_at_once_when_locked() -> None:
    outcome = search(_problem("PS4-14934"), timeout=60)
    assert outcome.exhaustive and outcome.steps is None and outcome.locked == (3,)
    assert outcome.progress.states == 1  # no beam ran


def test_solve_says_why_a_locked_deal_cannot_be_won() -> None:
    result = run("solve", "PS4-14934", "--json")
    assert result.exit_code == 1
    record = json.loads(result.stdout)
    assert record["result"] == "unwinnable" and record["states"] == 1
    assert record["moves"] is None and record["log"] is None
    assert (
        "PS4-14934 cannot be won: no card of rank 3 can ever be face up, so no run can ever be "
        "removed (1 state in " in result.stderr
    )
    czech = run("solve", "PS4-14934", "--lang", "cs")
    assert "žádná karta hodnoty 3" in czech.stderr


def test_hint_says_no_run_can_ever_be_removed() -> None:
    game = Game.from_code(parse_code("PS4-14934"), CLASSIC)
    found = find_hint(game, timeout=5.0)
    assert found.action is None
    assert [str(r) for r in found.reasons] == [
        "no win exists from here: no run can ever be removed"
    ]


def _duel_game() -> Game:
    """Under ``duel`` a column of only face-down cards takes any card: the King of hearts can
    leave for one, and the 3 of spades can be turned up (a win in 6 actions), though the classic
    rules' moves, which the search plays, are locked."""
    kind = GameKind(
        name="small",
        title="Small",
        prefix="SM",
        cards=13,
        column_sizes=(2, 11, 2, 2),
        deal_sizes=(),
    )
    columns = ["3S KS", "QS JS TS 9S 8S 7S 6S 5S 4S 2S AS", "KH 4H", "KH 5H"]
    return Game(kind, DUEL, [cards(c) for c in columns], [], suits=2, down=[1, 0, 1, 0])


def test_rules_that_allow_more_than_the_search_get_no_lock_and_no_proof() -> None:
    # kpat deals while a column is empty, duel also puts any card on a face-down column
    assert [proves_under(r) for r in (CLASSIC, PAVOUK, KPAT, DUEL)] == [True, True, False, False]
    game = _duel_game()
    problem = problem_from_game(game)
    assert lock(problem) is not None  # locked for the classic rules' moves
    outcome = search(problem, timeout=30, proves=False)
    assert outcome.steps is None and not outcome.exhaustive and outcome.locked is None
    assert outcome.progress.stop == "rules" and outcome.progress.phase == "gave up"
    found = find_hint(game, timeout=5.0)
    assert "no win exists" not in " ".join(str(r) for r in found.reasons)
    line: list[Move | Flip] = [Move(3, 4, 1), Move(1, 3, 1), Flip(1), Move(2, 1, 2), Move(2, 3, 9)]
    for action in line:
        assert game.play(action) is None
    assert game.play(Move(1, 3, 3)) is None and game.result == "won"  # duel wins it


def _solution(**fields: object) -> Solution:
    base: dict[str, object] = dict(
        game="SP2-S1C-AAAAAAA",
        deal_id="0",
        rules="classic",
        result="unwinnable",
        moves=None,
        lower_bound=0,
        states=1,
        seconds=0.0,
        log_text=None,
    )
    return Solution(**{**base, **fields})  # type: ignore[arg-type]


def test_the_messages_name_the_ranks_and_the_rules() -> None:
    setup = Setup.from_code(parse_code("SP2-S1C-AAAAAAA"))
    one = no_win_message(setup, _solution(locked=(3,)))
    assert "no card of rank 3 can ever be face up" in one and "(1 state in 0.00 s)" in one
    many = no_win_message(setup, _solution(locked=(3, 10, 13)))
    assert "no card of the ranks 3, 10, King can ever be face up" in many
    assert "whatever is played" in no_win_message(setup, _solution(locked=()))
    duel = no_win_message(
        setup, _solution(rules="duel", result="gave-up", stopped_by="rules", states=40)
    )
    assert "the duel rules allow more, so finding none proves nothing" in duel
    i18n.use("fi")  # conftest.py sets English again after each test
    assert "arvojen 3, 10, kuningas" in no_win_message(setup, _solution(locked=(3, 10, 13)))
