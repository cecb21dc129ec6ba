"""The fair hint (``spidercli/solver/fair.py``, docs/fair.md): what the player sees, a choice
that never depends on the unseen cards, the player who follows it, and the grades."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import replace

import pytest

from spidercli.game.actions import Action, Deal, Finish, Flip, Undo
from spidercli.game.codes import Layout, Setup, parse_code
from spidercli.game.engine import Game
from spidercli.game.rules import CLASSIC, RULESETS, Ruleset
from spidercli.logs.reader import parse_log
from spidercli.logs.writer import format_log
from spidercli.solver.fair import DEFAULT_BUDGET, FairBudget, fair_hint, play
from spidercli.solver.fair_view import Sight, view_of
from tests.helpers import run

# A small budget for the many positions of the fairness test (the choice is made the same way
# at every budget); the default budget is tried on some of them too.
SMALL = FairBudget(samples=3, width=3, depth=6)

CODES = ("PS1-3", "PS2-5", "PS4-7", "SD1-S1-AAAAABD", "SD2-S1-AAAAAAC", "SD4-S1-AAAAAAE")


def _offsets(game: Game) -> list[int]:
    out = [0]
    for size in game.kind.deal_sizes:
        out.append(out[-1] + size)
    return out


def _walk(code: str, seed: int, steps: int) -> list[Action]:
    """A log of ``steps`` actions from ``code``'s deal: the fair player's choices (small
    budget) and random legal actions, with an undo now and then (so that cards are turned up
    and put back, and rows dealt and taken back: cards seen before)."""
    rng = random.Random(seed)
    setup = Setup.from_code(parse_code(code))
    game = Game.from_setup(setup, CLASSIC)
    sight = Sight(game)
    actions: list[Action] = []
    while len(actions) < steps and game.over is None:
        roll = rng.random()
        action: Action | None
        if roll < 0.2 and game.check_undo() is None:
            action = Undo()
        elif roll < 0.55:
            action = fair_hint(view_of(game, sight), SMALL).action
        else:
            legal = game.legal_actions()
            action = rng.choice(legal) if legal else None
        if action is None:
            break
        assert game.play(action) is None
        sight.saw(game)
        actions.append(action)
    return actions


def _replayed(setup: Setup, actions: list[Action], rules: Ruleset = CLASSIC) -> tuple[Game, Sight]:
    game = Game.from_setup(setup, rules)
    sight = Sight(game)
    for action in actions:
        assert game.play(action) is None, action
        sight.saw(game)
    return game, sight


def _rearranged(setup: Setup, game: Game, sight: Sight, rng: random.Random) -> Setup | None:
    """``setup`` with the cards never seen by the log's end (face down or in the stock)
    shuffled among their slots; None when fewer than two differ."""
    layout = setup.layout
    slots: list[tuple[int, int]] = []  # (column, index), or (-1, stock index)
    for c, low in enumerate(sight.low):
        slots.extend((c, i) for i in range(min(low, game.down[c])))
    first = _offsets(game)[sight.dealt]
    slots.extend((-1, j) for j in range(first, len(layout.stock)))
    cols = [list(col) for col in layout.columns]
    stock = list(layout.stock)

    def card(slot: tuple[int, int]) -> int:
        return stock[slot[1]] if slot[0] < 0 else cols[slot[0]][slot[1]]

    cards = [card(s) for s in slots]
    if len(set(cards)) < 2:
        return None
    shuffled = cards[:]
    while shuffled == cards:
        rng.shuffle(shuffled)
    for (c, i), x in zip(slots, shuffled, strict=True):
        if c < 0:
            stock[i] = x
        else:
            cols[c][i] = x
    new = Layout(layout.game, tuple(tuple(col) for col in cols), tuple(stock))
    return Setup(new, setup.suits, setup.permissive)


def _positions() -> Iterator[tuple[str, int, list[Action]]]:
    for n, code in enumerate(CODES):
        for seed in range(2):
            actions = _walk(code, 100 * n + seed, 60 + 25 * seed)
            for cut in (0, len(actions) // 3, 2 * len(actions) // 3, len(actions)):
                yield code, seed, actions[:cut]


POSITIONS = list(_positions())


def test_the_positions_have_cards_seen_before() -> None:
    """The logs turn cards up and put them back (undo), so some views hold cards seen before."""
    seen_down = seen_stock = 0
    for code, _seed, actions in POSITIONS:
        view = view_of(*_replayed(Setup.from_code(parse_code(code)), actions))
        seen_down += any(view.seen_down)
        seen_stock += bool(view.seen_stock)
    assert seen_down >= 5
    assert seen_stock >= 1


@pytest.mark.parametrize(("code", "seed", "actions"), POSITIONS)
def test_the_hint_never_depends_on_the_unseen_cards(
    code: str, seed: int, actions: list[Action]
) -> None:
    """Rearranging the cards nobody has seen (still face down or in the stock, never turned up,
    in the position as the log reached it) gives the same view and the same hint."""
    setup = Setup.from_code(parse_code(code))
    game, sight = _replayed(setup, actions)
    view = view_of(game, sight)
    hints = [str(fair_hint(view, SMALL).action)]
    if len(actions) % 3 == 0:
        hints.append(str(fair_hint(view, DEFAULT_BUDGET).action))
    rng = random.Random(len(actions) * 7 + seed)
    changed = 0
    for _ in range(3):
        other = _rearranged(setup, game, sight, rng)
        if other is None:
            continue
        other_game, other_sight = _replayed(other, actions)
        hidden_before = [game.face_down(c) for c in range(game.kind.columns)]
        hidden_after = [other_game.face_down(c) for c in range(game.kind.columns)]
        changed += hidden_before != hidden_after or game.stock_left != other_game.stock_left
        other_view = view_of(other_game, other_sight)
        assert other_view == view
        again = [str(fair_hint(other_view, SMALL).action)]
        if len(hints) > 1:
            again.append(str(fair_hint(other_view, DEFAULT_BUDGET).action))
        assert again == hints
    if game.over is None and sum(game.down) + len(game.stock_left) > 1:
        assert changed  # the test did rearrange something


def test_the_view_is_what_the_player_saw() -> None:
    """A card turned up then put back by undo, and a row dealt then taken back, are seen."""
    setup = Setup.from_code(parse_code("PS4-7"))
    game = Game.from_setup(setup, CLASSIC)
    sight = Sight(game)
    start = view_of(game, sight)
    assert start.hidden == tuple(len(c) - 1 for c in setup.layout.columns)
    assert start.seen_down == (b"",) * 10 and start.seen_stock == b""
    assert len(start.unseen()) == 104 - 10
    assert start.stock == 50
    game.play(Deal())
    sight.saw(game)
    game.play(Undo())
    sight.saw(game)
    after = view_of(game, sight)
    assert after.seen_stock == bytes(setup.layout.stock[:10])
    assert len(after.unseen()) == 104 - 20
    s, t, k = next(m for m in game.legal_moves() if game.down[m[0]] == len(game.cols[m[0]]) - m[2])
    turned = game.cols[s][game.down[s] - 1]
    game.move(s, t, k)
    sight.saw(game)
    game.undo()
    sight.saw(game)
    view = view_of(game, sight)
    assert view.seen_down[s] == bytes([turned])
    assert view.hidden[s] == game.down[s] - 1
    assert len(view.unseen()) == 104 - 21
    assert view.down == tuple(game.down)


def test_a_view_with_cards_not_in_the_deck_is_refused() -> None:
    view = view_of(Game.from_setup(Setup.from_code(parse_code("PS1-1")), CLASSIC))
    bad = replace(view, seen_stock=bytes([0x21]))  # a heart in a one-suit game
    with pytest.raises(ValueError, match="not part of the deck"):
        bad.unseen()


@pytest.mark.parametrize(("code", "seed", "actions"), POSITIONS[::3])
def test_the_hint_changes_nothing_and_never_undoes(
    code: str, seed: int, actions: list[Action]
) -> None:
    game, sight = _replayed(Setup.from_code(parse_code(code)), actions)
    key, view = game.key(), view_of(game, sight)
    found = fair_hint(view, SMALL)
    assert game.key() == key and view_of(game, sight) == view
    assert not isinstance(found.action, Undo | Finish)
    if found.action is None:
        assert game.over is not None or not game.legal_actions()
    else:
        assert game.play(found.action) is None  # legal


def test_a_flip_first_and_nothing_when_over() -> None:
    duel = RULESETS["duel"]
    setup = Setup.from_code(parse_code("SP1-S1C-AAAAAAD"))
    game = Game.from_setup(setup, duel)
    # empty a column's face-up card under duel rules (no automatic flip): a flip is due
    for s, t, k in game.legal_moves():
        if k == len(game.face_up(s)):
            game.move(s, t, k)
            break
    assert game.flippable()
    assert fair_hint(view_of(game), SMALL).action == Flip(game.flippable()[0] + 1)
    won = play(Setup.from_code(parse_code("SD1-S1-AAAAABD")), budget=SMALL)
    end, _sight = _replayed(Setup.from_code(parse_code("SD1-S1-AAAAABD")), list(won.actions))
    if end.over is not None:
        assert fair_hint(view_of(end), SMALL).action is None


def test_the_same_view_gives_the_same_samples() -> None:
    view = view_of(Game.from_setup(Setup.from_code(parse_code("PS4-7")), CLASSIC))
    assert (
        view.digest()
        == view_of(Game.from_setup(Setup.from_code(parse_code("PS4-7")), CLASSIC)).digest()
    )
    assert view.digest(1) != view.digest()
    first = view.fill(random.Random(view.digest()))
    assert first == view.fill(random.Random(view.digest()))


def test_the_player_plays_to_the_end_without_undo() -> None:
    setup = Setup.from_code(parse_code("SD1-S1-AAAAABD"))
    game = play(setup, budget=SMALL)
    assert not any(isinstance(a, Undo) for a in game.actions)
    end, _sight = _replayed(setup, list(game.actions))
    assert end.moves == game.moves
    assert (end.over == "won") == game.won
    assert game.result == end.result or game.result == "open"
    assert play(setup, budget=SMALL) == game  # the same on every run


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"samples": 0}, "samples must be"),
        ({"width": -1}, "width must be"),
        ({"depth": 1.5}, "depth must be"),
        ({"samples": True}, "samples must be"),
        ({"first": -1}, "first must be"),
        ({"keep": 0}, "keep must be"),
        ({"worth": "votes"}, "worth must be one of auto, levels, best, progress"),
    ],
)
def test_a_bad_budget_is_refused(fields: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        FairBudget(**fields)  # type: ignore[arg-type]


# ------------------------------------------------------------------------ the command line


def _log(tmp_path: object, code: str, actions: list[Action]) -> str:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    path = tmp_path / "game.yaml"
    path.write_text(format_log(code, [str(a) for a in actions]), encoding="utf-8")
    return str(path)


def test_hint_fair_text_and_json(tmp_path: object) -> None:
    actions = _walk("PS4-7", 5, 30)
    log = _log(tmp_path, "PS4-7", actions)
    text = run("hint", log, "--fair")
    assert text.exit_code == 0
    assert text.stdout.startswith("Fair hint: ")
    assert "Chosen from what a player sees" in text.stdout
    found = run("hint", log, "--fair", "--json")
    assert found.exit_code == 0
    record = json.loads(found.stdout)
    assert list(record) == ["action", "reasons", "wins_in", "deal_next", "fair"]
    assert record["fair"] is True and record["wins_in"] is None
    setup = Setup.from_code(parse_code("PS4-7"))
    expected = fair_hint(view_of(*_replayed(setup, actions)))
    assert record["action"] == str(expected.action)
    assert record["deal_next"] == isinstance(expected.action, Deal)
    assert f"Fair hint: {expected.action}  (" in text.stdout


def test_hint_fair_in_every_language(tmp_path: object) -> None:
    log = _log(tmp_path, "PS2-5", _walk("PS2-5", 3, 12))
    cs = run("hint", log, "--fair", "--lang", "cs")
    fi = run("hint", log, "--fair", "--lang", "fi")
    assert cs.exit_code == fi.exit_code == 0
    assert "Fair hint" not in cs.stdout and "Fair hint" not in fi.stdout
    assert cs.stdout != fi.stdout


def test_hint_fair_bad_values(tmp_path: object) -> None:
    log = _log(tmp_path, "PS4-7", [])
    both = run("hint", log, "--fair", "--timeout", "3")
    assert both.exit_code == 2
    assert "--timeout and --fair" in both.stderr
    both_json = run("hint", log, "--fair", "--timeout", "3", "--json")
    assert both_json.exit_code == 2
    assert "--timeout and --fair" in json.loads(both_json.stdout)["error"]["message"]
    value = run("hint", log, "--fair=yes")
    assert value.exit_code == 2
    refused = run("hint", "fixtures/illegal/build-one-higher.yaml", "--fair")
    assert refused.exit_code == 1
    missing = run("hint", str(log) + ".missing", "--fair")
    assert missing.exit_code == 2


def test_api_hint_fair(tmp_path: object) -> None:
    import spidercli

    actions = _walk("SD2-S1-AAAAAAC", 9, 20)
    log = spidercli.read_log(_log(tmp_path, "SD2-S1-AAAAAAC", actions))
    found = spidercli.hint(log, fair=True)
    assert found.to_json()["fair"] is True
    setup = Setup.from_code(parse_code("SD2-S1-AAAAAAC"))
    assert str(found.action) == str(fair_hint(view_of(*_replayed(setup, actions))).action)
    with pytest.raises(TypeError, match="fair must be a bool"):
        spidercli.hint(log, fair="yes")  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="max_states is not used with fair=True"):
        spidercli.hint(log, fair=True, max_states=10)
    with pytest.raises(spidercli.IllegalLogError):
        spidercli.hint(spidercli.read_log("fixtures/illegal/build-one-higher.yaml"), fair=True)


def test_api_hint_fair_on_a_written_out_deal_ignores_the_unseen_cards(tmp_path: object) -> None:
    """Through the log, as ``hint LOG --fair`` reads it: a deal written out, then the same deal
    with its unseen cards rearranged, give the same hint."""
    import spidercli

    setup = Setup.from_code(parse_code("PS4-7"))
    actions = _walk("PS4-7", 21, 40)
    game, sight = _replayed(setup, actions)
    other = _rearranged(setup, game, sight, random.Random(5))
    assert other is not None
    texts = [
        format_log(s, [str(a) for a in actions]) for s in (Setup(setup.layout, 4, False), other)
    ]
    assert texts[0] != texts[1]
    hints = [spidercli.hint(parse_log(t, "game.yaml"), fair=True).to_json() for t in texts]
    assert hints[0] == hints[1]


def test_a_grade_is_the_players_win_rate_over_playouts() -> None:
    from spidercli.solver.fair import grade
    from spidercli.solver.grades import EASY, MEDIUM, Grade, bucket_of

    found = grade("SD1-S1-AAAAABD", playouts=3, budget=SMALL)
    setup = Setup.from_code(parse_code("SD1-S1-AAAAABD"))
    wins = sum(play(setup, budget=SMALL, salt=salt).won for salt in (1, 2, 3))
    assert found == Grade(wins, 3) and found.bucket == bucket_of(wins / 3)
    assert grade("SD1-S1-AAAAABD", playouts=3, budget=SMALL) == found  # the same every time
    assert found.to_json() == {"bucket": found.bucket, "wins": wins, "playouts": 3}
    assert [bucket_of(r) for r in (1.0, EASY, MEDIUM, 0.0)] == ["easy", "easy", "medium", "hard"]
    # hard: none of 8 won; medium: one; easy: two or more (docs/fair.md)
    assert [Grade(w, 8).bucket for w in range(9)] == ["hard", "medium"] + ["easy"] * 7
    for bad in ((9, 8), (-1, 8), (0, 0), (True, 8)):
        with pytest.raises(ValueError, match="not a count of playouts won"):
            Grade(*bad)
    with pytest.raises(ValueError, match="playouts must be"):
        grade("SD1-S1-AAAAABD", playouts=0)
    with pytest.raises(ValueError):
        grade("XX9-1")


def test_the_salt_changes_the_samples_only() -> None:
    view = view_of(Game.from_setup(Setup.from_code(parse_code("PS2-5")), CLASSIC))
    a, b = view.fill(random.Random(view.digest(1))), view.fill(random.Random(view.digest(2)))
    assert a != b
    assert sorted(b"".join(a[0]) + bytes(a[2])) == sorted(b"".join(b[0]) + bytes(b[2]))


def test_the_cpu_guard_stops_sampling(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past ``CPU_GUARD`` seconds of CPU a hint keeps the samples done (at least one)."""
    import spidercli.solver.fair as fair

    view = view_of(Game.from_setup(Setup.from_code(parse_code("PS4-7")), CLASSIC))
    full = fair_hint(view, FairBudget(samples=4, width=3, depth=6))
    assert (full.samples, full.guarded) == (4, False)
    monkeypatch.setattr(fair, "CPU_GUARD", -1.0)
    cut = fair_hint(view, FairBudget(samples=4, width=3, depth=6))
    assert (cut.samples, cut.guarded) == (1, True)
    assert cut.action is not None
