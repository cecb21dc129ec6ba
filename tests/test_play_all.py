"""``Game.play_all`` (the verification loop: plainly legal moves checked and applied inline, undo
records kept only when asked) against ``Game.play`` called once per action: the same refusal at
the same index, the same position, score, counter, undo count and (when recorded) history. Over
random action sequences from random deals under every ruleset, and over the fixture games
played under every ruleset that can play them (runs removed, wins, floors, manual flips)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spidercli.game.actions import Action, Deal, Finish, Flip, Move, Tap, Undo
from spidercli.game.engine import Game, Refusal
from spidercli.game.rules import RULESETS, check_playable
from spidercli.logs.reader import load_log
from spidercli.play.replay import SKIP, STOP, ReplayVisitor, choose_rules, replay
from tests.helpers import CODES, FIXTURES, new_game, position, usable_corpus


def one_by_one(game: Game, actions: list[Action], start: int = 0) -> tuple[int, Refusal | None]:
    """What ``play_all`` must do: ``play`` each action in turn, up to the first refusal."""
    for i in range(start, len(actions)):
        refusal = game.play(actions[i])
        if refusal is not None:
            return i, refusal
    return len(actions), None


def state(game: Game, history: bool) -> tuple[object, ...]:
    return (
        game.key(),
        game.undoable,
        game.deals_done,
        list(game.down),
        tuple(game.history) if history else None,
    )


Stop = tuple[int, Refusal | None, tuple[object, ...]]


def both_ways(game_of: Callable[[], Game], actions: list[Action], record: bool) -> list[Stop]:
    """Play ``actions`` both ways from fresh games, resuming after each refusal (as replay's
    ``--on-illegal skip`` does): every stop, refusal and the state at each stop."""
    seen: dict[str, list[Stop]] = {}
    for way in ("one by one", "play_all"):
        game = game_of()
        stops: list[Stop] = []
        at = 0
        while True:
            if way == "one by one":
                stop, refusal = one_by_one(game, actions, at)
            else:
                stop, refusal = game.play_all(actions, at, record=record)
            stops.append((stop, refusal, state(game, record)))
            if refusal is None:
                break
            at = stop + 1
        seen[way] = stops
    assert seen["play_all"] == seen["one by one"]
    return seen["play_all"]


def random_actions(game: Game, choices: list[int], undo: bool) -> list[Action]:
    """A sequence played on ``game`` (which it changes): mostly legal actions (moves written with
    and without their count, taps), with drawn ones that may be refused, and undos if asked."""
    n = game.kind.columns
    actions: list[Action] = []
    for choice in choices:
        kind = choice % 10
        legal = game.legal_moves()
        if kind < 5 and legal:
            s, t, k = legal[(choice // 10) % len(legal)]
            action: Action = Move(s + 1, t + 1, None if choice % 3 else k)
        elif kind == 5:
            action = Move(choice % (n + 2), (choice // 7) % (n + 2), (choice // 50) % 15 or None)
        elif kind == 6:
            action = Deal()
        elif kind == 7:
            action = Undo() if undo else Tap((choice // 10) % n + 1, None)
        elif kind == 8:
            action = Flip((choice // 10) % n + 1)
        else:
            action = Finish() if choice % 97 == 0 else Tap((choice // 10) % n + 1, None)
        actions.append(action)
        game.play(action)
    return actions


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    CODES,
    st.sampled_from(sorted(RULESETS)),
    st.lists(st.integers(0, 10**6), min_size=1, max_size=80),
    st.booleans(),
    st.sampled_from([None, 0, 2]),
)
def test_play_all_is_play_one_by_one(
    code_text: str, rules_name: str, choices: list[int], undo: bool, score: int | None
) -> None:
    """``score``: the game's score at the start (None: the ruleset's), low to meet the floor."""

    def game_of() -> Game:
        game = new_game(code_text, rules_name)
        if score is not None:
            game.score = score
        return game

    actions = random_actions(game_of(), choices, undo)
    both_ways(game_of, actions, record=True)
    if not undo:
        both_ways(game_of, actions, record=False)


GAME_LOGS = sorted(p for p in FIXTURES.glob("*.yaml") if "moves:\n  -" in p.read_text())


@pytest.mark.parametrize("name", [p.name for p in GAME_LOGS])
def test_play_all_on_the_fixture_games_under_every_ruleset(name: str) -> None:
    log = load_log(FIXTURES / name)
    actions = [e.action for e in log.entries]
    undo = any(type(a) is Undo for a in actions)
    for rules in RULESETS.values():
        try:
            check_playable(rules, log.deal)
        except ValueError:
            continue
        start = partial(Game.from_setup, log.deal, rules)
        stops = both_ways(start, actions, record=True)
        if not undo:
            both_ways(start, actions, record=False)
        assert stops[0][0] > 0  # some of the game was played under each ruleset


def last_run(rules_name: str) -> Game:
    """Seven runs removed; moving the Ace of spades onto column 1 completes the eighth."""
    game = position(
        "| KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
        "5H | AS",
        "| 4C",
        rules=RULESETS[rules_name],
        suits=1,
    )
    game.removed.extend([0] * 7)
    game.score = 0  # the floor, where the ruleset has one, meets the move's -1
    return game


@pytest.mark.parametrize("rules_name", sorted(RULESETS))
@pytest.mark.parametrize("move", [Move(2, 1, None), Move(2, 1, 1)])
def test_the_winning_run_removed_inline(rules_name: str, move: Move) -> None:
    """The last run removed by a move in the loop: the flip under it, the run and win scores,
    and a move after the win refused (game-over), though the board would take it."""
    actions: list[Action] = [move, Move(3, 2, None)]
    stops = both_ways(lambda: last_run(rules_name), actions, record=True)
    assert [(stop, refusal and refusal.rule) for stop, refusal, _ in stops] == [
        (1, "game-over"),
        (2, None),
    ]
    game = last_run(rules_name)
    game.play_all(actions[:1], record=False)
    assert game.over == "won"


def last_deal(rules_name: str) -> Game:
    """Seven runs removed, the last deal left: it puts the Ace of spades on column 1's King to
    2 of spades (the eighth run), a 4 of clubs on column 2 and a 3 of hearts on column 3."""
    game = position(
        "| KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
        stock="AC " * 40 + "AS 4C 3H",
        rules=RULESETS[rules_name],
        suits=4,
    )
    game.removed.extend([0] * 7)
    game.deals_done = 4
    return game


@pytest.mark.parametrize("rules_name", sorted(RULESETS))
def test_a_deal_that_wins_ends_the_game_inline(rules_name: str) -> None:
    """The loop's deal completes the last run: a move the board would take is then refused."""
    actions: list[Action] = [Deal(), Move(3, 2, None)]
    stops = both_ways(lambda: last_deal(rules_name), actions, record=True)
    assert [(stop, refusal and refusal.rule) for stop, refusal, _ in stops] == [
        (1, "game-over"),
        (2, None),
    ]


def test_an_undo_without_records_is_refused_by_the_caller() -> None:
    game = new_game("SP1-S1C-AAAAABD", "classic")
    s, t, k = game.legal_moves()[0]
    with pytest.raises(ValueError, match="record=False"):
        game.play_all([Move(s + 1, t + 1, k), Undo()], record=False)


@pytest.mark.parametrize("on_illegal", [STOP, SKIP])
def test_replay_without_a_visitor_is_the_replay_entry_by_entry(on_illegal: str) -> None:
    """``replay`` without a visitor (``play_all``) and with one (``play``, entry by entry) give
    the same report, over every usable log of the test corpus."""
    used = 0
    for path, log, rules in usable_corpus():
        fast = replay(log, rules=rules, on_illegal=on_illegal)
        general = replay(log, rules=rules, on_illegal=on_illegal, visitor=ReplayVisitor())
        assert (fast.to_json(), fast.status, fast.actions, fast.halted, fast.illegal) == (
            general.to_json(),
            general.status,
            general.actions,
            general.halted,
            general.illegal,
        ), path
        used += 1
    assert used > 30


def attempt(game: Game, move: Move, way: str) -> tuple[object, ...]:
    """Play ``move`` one way (``play_all`` of it alone, or ``play``), note the outcome and the
    position, and take it back."""
    before, undoable = game.key(), game.undoable
    if way == "play_all":
        stop, result = game.play_all([move])
        assert stop == (0 if result else 1)
    else:
        result = game.play(move)
    after = (result, game.key(), game.undoable, game.history[-1] if game.history else None)
    if result is None:
        game.undo()
        game.undoable = undoable
    assert game.key() == before
    return after


def every_move(game: Game) -> list[Move]:
    """Every move of the board, each count and none (and one column past each end)."""
    n = game.kind.columns
    return [Move(a, b, c) for a in range(n + 2) for b in range(n + 2) for c in (None, *range(15))]


def check_every_move(game: Game) -> None:
    for move in every_move(game):
        assert attempt(game, move, "play_all") == attempt(game, move, "play"), move


@pytest.mark.slow  # a long property run: make test-slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    CODES,
    st.sampled_from(sorted(RULESETS)),
    st.lists(st.integers(0, 10**6), min_size=1, max_size=12),
)
def test_every_move_from_random_positions_is_plays(
    code_text: str, rules_name: str, choices: list[int]
) -> None:
    """Each move and count, legal or not, from positions of random play under every ruleset."""
    game = new_game(code_text, rules_name)
    for choice in choices:
        check_every_move(game)
        actions = game.legal_actions()
        if not actions or game.over:
            break
        game.play(actions[choice % len(actions)])


@pytest.mark.parametrize("name", [p.name for p in GAME_LOGS])
def test_every_move_along_the_fixture_games_is_plays(name: str) -> None:
    """Each move and count from every 12th position of the fixture games (empty columns, long
    runs, the permissive rule, manual flips)."""
    log = load_log(FIXTURES / name)
    game = Game.from_setup(log.deal, choose_rules(log))
    for i, action in enumerate(log.actions):
        if i % 12 == 0:
            check_every_move(game)
        if game.play(action) is not None:
            break
    check_every_move(game)
