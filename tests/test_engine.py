"""Every rule of the rule book, every refusal and its precedence, scoring and undo."""

from __future__ import annotations

import pytest

from spidercli.game.actions import DEAL, FINISH, UNDO, Flip, Move, Tap
from spidercli.game.cards import cards_str
from spidercli.game.codes import parse_code
from spidercli.game.engine import RULE_IDS, Game, IllegalActionError
from spidercli.game.rules import CLASSIC, DUEL, PAVOUK, SPIDERETTE
from tests.helpers import cards, play, position


def rule(game: Game, text: str) -> str | None:
    refusal = play(game, text)
    return None if refusal is None else refusal.rule


def up(game: Game, column: int) -> str:
    return cards_str(game.face_up(column - 1))


def down(game: Game, column: int) -> int:
    return game.down[column - 1]


# ----------------------------------------------------------------------------- building


def test_build_on_one_rank_higher_any_suit() -> None:
    g = position("| 9S", "| 8H")
    assert play(g, "2>1") is None
    assert up(g, 1) == "9S 8H"
    assert g.cols[1] == []
    assert g.moves == 1 and g.score == 499


def test_build_refused_names_the_cards() -> None:
    g = position("| 9S", "| 7H")
    refusal = play(g, "2>1:1")
    assert refusal is not None
    assert refusal.rule == "build-one-higher"
    assert refusal.message == "7H cannot go on 9S: it needs an 8"
    assert refusal.cards == tuple(cards("7H 9S"))


def test_nothing_goes_on_an_ace() -> None:
    g = position("| AS", "| 2H")
    refusal = play(g, "2>1:1")
    assert refusal is not None and refusal.rule == "build-one-higher"
    assert "nothing goes on an Ace" in refusal.message


def test_king_only_to_an_empty_column() -> None:
    g = position("| QS", "| KH", "")
    refusal = play(g, "2>1:1")
    assert refusal is not None and refusal.rule == "build-one-higher"
    assert "a King goes only to an empty column" in refusal.message
    assert play(g, "2>3") is None
    assert up(g, 3) == "KH"


def test_empty_column_takes_any_card_or_group() -> None:
    g = position("| 9S 8S 7S", "")
    assert play(g, "1>2:2") is None
    assert up(g, 2) == "8S 7S"
    assert up(g, 1) == "9S"


def test_refused_action_changes_nothing_and_costs_nothing() -> None:
    g = position("| 9S", "| 7H")
    before = g.key()
    assert rule(g, "2>1") == "build-one-higher"
    assert g.key() == before
    assert g.history == [] and g.undoable == 0


# ---------------------------------------------------------------------------------- groups


def test_classic_group_rules_precisely() -> None:
    g = position("| 9S 8H 7H", "| TD", "| 9C")
    assert rule(g, "1>2:3") == "group-mixed-suits"
    assert play(g, "1>3:2") is None
    assert up(g, 3) == "9C 8H 7H"
    assert up(g, 1) == "9S"


def test_permissive_moves_any_descending_group() -> None:
    g = position("| 9S 8H 7H", "| TD", permissive=True)
    assert play(g, "1>2:3") is None
    assert up(g, 2) == "TD 9S 8H 7H"


def test_one_suit_games_are_never_permissive_in_effect() -> None:
    g = position("| 9S 8S", "| TS", suits=1, permissive=True)
    assert not g.permissive
    assert play(g, "1>2:2") is None


def test_group_not_descending() -> None:
    g = position("| 9S 7S", "| TD")
    refusal = play(g, "1>2:2")
    assert refusal is not None and refusal.rule == "group-not-descending"
    assert "7S follows 9S" in refusal.message


def test_not_descending_comes_before_mixed_suits() -> None:
    g = position("| 9S 7H", "| TD")
    assert rule(g, "1>2:2") == "group-not-descending"


def test_no_limit_on_group_length() -> None:
    g = position("| KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H", "")
    assert play(g, "1>2:12") is None
    assert g.cols[0] == []
    assert len(g.face_up(1)) == 12


def test_face_down_card_refused() -> None:
    g = position("5S | 9S 8S", "| TD")
    refusal = play(g, "1>2:3")
    assert refusal is not None and refusal.rule == "face-down-card"
    assert "2 face-up cards" in refusal.message


def test_zero_cards_is_face_down_card() -> None:
    g = position("| 9S", "| TD")
    assert rule(g, "1>2:0") == "face-down-card"


def test_huge_count() -> None:
    g = position("| 9S", "| TD")
    assert rule(g, "1>2:99999999999999999999999") == "face-down-card"


# ----------------------------------------------------------------------------------- flips


def test_automatic_flip_after_the_last_face_up_card_leaves() -> None:
    g = position("5S 3H | 9S", "| TD")
    assert play(g, "1>2") is None
    assert up(g, 1) == "3H" and down(g, 1) == 1
    assert g.score == 499  # classic: flips score nothing


def test_flip_is_refused_where_flips_are_automatic() -> None:
    g = position("5S | 9S")
    assert rule(g, "flip 1") == "flip-automatic"
    assert rule(g, "flip 11") == "no-such-column"  # the column check comes first


# ----------------------------------------------------------------------------------- deals


def test_deal_puts_one_card_on_each_column() -> None:
    g = position(stock=" ".join(["2D"] * 10 + ["3D"] * 10))
    assert play(g, "deal") is None
    assert all(c[-1] == cards("2D")[0] for c in g.cols)
    assert g.deals_left == 4 and g.moves == 1 and g.score == 499
    assert len(g.stock_left) == 40


def test_deal_refused_while_a_column_is_empty() -> None:
    g = position("| 9S", "")
    refusal = play(g, "deal")
    assert refusal is not None and refusal.rule == "deal-empty-column"
    assert "column 2 is empty" in refusal.message


def test_stock_empty_comes_before_deal_empty_column() -> None:
    g = position("| 9S", "")
    g.deals_done = 5
    assert rule(g, "deal") == "stock-empty"


def test_five_deals_then_stock_empty() -> None:
    g = position()
    assert play(g, *["deal"] * 5) is None
    assert g.deals_left == 0 and g.stock_left == []
    assert rule(g, "deal") == "stock-empty"


def test_spiderette_deals_7_7_7_then_3() -> None:
    g = Game.from_code(parse_code("SD1-S1-AAAAABD"), CLASSIC)
    lengths = [len(c) for c in g.cols]
    assert play(g, "deal") is None
    assert [len(c) for c in g.cols] == [n + 1 for n in lengths]
    assert cards_str([c[-1] for c in g.cols]) == "8S 4S 3S 4S 5S JS 9S"
    assert play(g, "deal", "deal") is None
    before = [len(c) for c in g.cols]
    assert play(g, "deal") is None
    assert [len(c) for c in g.cols] == [n + (i < 3) for i, n in enumerate(before)]
    assert g.deals_left == 0
    assert rule(g, "deal") == "stock-empty"


def test_spiderette_deal_refused_with_an_empty_column() -> None:
    g = position("| 9S", "", game=SPIDERETTE)
    assert rule(g, "deal") == "deal-empty-column"


# ------------------------------------------------------------------------------------ runs

RUN_H = "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H"


def test_completed_run_is_removed_after_the_move() -> None:
    g = position(f"5S | {RUN_H}", "| AH")
    assert play(g, "2>1") is None
    assert g.removed == [1]
    assert up(g, 1) == "5S"  # the card under it flips
    assert g.score == 500 - 1 + 100
    assert g.runs == 1


def test_mixed_suit_king_to_ace_is_never_removed() -> None:
    g = position("| KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H", "| AS")
    assert play(g, "2>1") is None
    assert g.removed == []
    assert len(g.face_up(0)) == 13


def test_permissive_also_removes_only_one_suit_runs() -> None:
    g = position("| KS QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H", "| AH", permissive=True)
    assert play(g, "2>1") is None
    assert g.removed == []


def test_a_deal_can_complete_runs_in_several_columns() -> None:
    g = position(
        f"9C | {RUN_H}",
        "",
        f"| {RUN_H.replace('H', 'S')}",
        stock="AH 5D AS 5D 5D 5D 5D 5D 5D 5D",
        rules=DUEL,
        suits=2,
    )
    assert play(g, "deal") is None
    assert g.removed == [1, 0]  # column 1's hearts, then column 3's spades
    assert down(g, 1) == 1 and g.face_up(0) == []  # duel: no automatic flip
    assert g.cols[2] == []
    assert g.score == -1 + 26 + 26


def test_undo_restores_a_removed_run_and_its_flip() -> None:
    g = position(f"5S | {RUN_H}", "| AH")
    before = g.key()
    assert play(g, "2>1", "undo") is None
    assert g.key() == before


def test_win_when_every_run_is_removed() -> None:
    g = position(f"| {RUN_H}", "| AH", game=SPIDERETTE, suits=4)
    g.removed = [0, 2, 3]
    assert play(g, "2>1") is None
    assert g.over == "won" and g.result == "won"
    assert g.score == 500 - 1 + 100
    assert rule(g, "undo") == "game-over"
    assert rule(g, "deal") == "game-over"


# --------------------------------------------------------------------------------- scoring


def test_worked_examples_arithmetic() -> None:
    assert CLASSIC.start_score - 117 + 8 * CLASSIC.run_score == 1183
    assert CLASSIC.start_score - 53 + 4 * CLASSIC.run_score == 847


def test_spider_floor_applies_change_by_change() -> None:
    g = position(f"| {RUN_H}", "| AH")
    g.score = 0
    assert play(g, "2>1") is None
    assert g.score == 100  # 0 - 1 -> raised to 0, then + 100


def test_spider_score_never_below_zero() -> None:
    g = position("| 9S", "| 8H")
    g.score = 0
    assert play(g, "2>1") is None
    assert g.score == 0


def test_spiderette_has_no_floor() -> None:
    g = position("| 9S", "| 8H", game=SPIDERETTE)
    g.score = 0
    assert play(g, "2>1") is None
    assert g.score == -1


def test_move_counter_counts_moves_and_deals_only() -> None:
    g = position("5S | 9S", "| TD")
    assert play(g, "1>2", "deal") is None
    assert g.moves == 2
    assert play(g, "undo") is None
    assert g.moves == 1


# ------------------------------------------------------------------------------------ undo


def test_undo_reverses_the_whole_action() -> None:
    g = position("5S 3H | 9S", "| TD")
    before = g.key()
    assert play(g, "1>2") is None
    assert play(g, "undo") is None
    assert g.key() == before


def test_undo_with_nothing_played() -> None:
    g = position()
    refusal = play(g, "undo")
    assert refusal is not None and refusal.rule == "nothing-to-undo"


def test_classic_undo_reaches_back_100_actions() -> None:
    g = position("| 9S", "| TD", "| TC")
    assert play(g, "1>2") is None
    for _ in range(60):
        assert play(g, "2>3", "3>2") is None  # 121 moves, back and forth
    assert play(g, *["undo"] * 100) is None
    assert g.moves == 21
    refusal = play(g, "undo")
    assert refusal is not None and refusal.rule == "nothing-to-undo"
    assert "at most the last 100 actions" in refusal.message


def test_pavouk_undo_reaches_back_400_actions() -> None:
    g = position("| 9S", "| TD", "| TC", rules=PAVOUK)
    assert play(g, "1>2") is None
    for _ in range(250):
        assert play(g, "2>3", "3>2") is None
    assert play(g, *["undo"] * 400) is None
    assert rule(g, "undo") == "nothing-to-undo"


def test_undo_is_not_a_move() -> None:
    g = position("| 9S", "| TD")
    assert play(g, "1>2", "undo") is None
    assert g.moves == 0 and g.score == 500


# ------------------------------------------------------------------------------ precedence


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        ("0>1", "no-such-column"),
        ("1>11", "no-such-column"),
        ("11>11", "no-such-column"),
        ("3>3", "same-column"),
        ("3>3:0", "same-column"),
        ("2>1", "empty-source"),
        ("2>1:5", "empty-source"),
        ("1>4:2", "face-down-card"),
        ("1>4:0", "face-down-card"),
        ("3>4:2", "group-not-descending"),
        ("5>4:2", "group-mixed-suits"),
        ("6>4:1", "build-one-higher"),
        ("tap 2", "empty-source"),
        ("tap 12", "no-such-column"),
        ("tap 1:2", "face-down-card"),
        ("tap 3:2", "group-not-descending"),
        ("tap 5:2", "group-mixed-suits"),
    ],
)
def test_refusal_precedence(action: str, expected: str) -> None:
    g = position(
        "5S | 9S",  # 1: one face-up card
        "",  # 2: empty
        "| 9H 7H",  # 3: not descending
        "| KD",  # 4
        "| 6H 5S",  # 5: mixed suits
        "| 4C",  # 6
        "| 2C",
        "| 2C",
        "| 2C",
        "| 2C",
    )
    assert rule(g, action) == expected


def test_game_over_comes_first() -> None:
    g = position("| 9S")
    assert play(g, "finish") is None
    for action in ("0>1", "deal", "undo", "flip 99", "tap 1", "finish"):
        assert rule(g, action) == "game-over"
    assert g.result == "resigned"


def test_every_rule_id_is_known() -> None:
    assert len(RULE_IDS) == 16 and len(set(RULE_IDS)) == 16


# ------------------------------------------------------------------------ inferred K (S>T)


def test_infer_count_finds_the_card_one_lower_than_the_target() -> None:
    g = position("| 9S 8S 7S 6S", "| 8D")
    assert play(g, "1>2") is None
    assert up(g, 2) == "8D 7S 6S"


def test_infer_count_ignores_suits_then_checks_the_group() -> None:
    g = position("| 9H 8S 7S", "| TD")
    assert rule(g, "1>2") == "group-mixed-suits"
    g = position("| 9H 8S 7S", "| TD", permissive=True)
    assert play(g, "1>2") is None
    assert up(g, 2) == "TD 9H 8S 7S"


def test_infer_count_none_found_is_build_one_higher() -> None:
    g = position("| 9S 8S", "| 4D")
    refusal = play(g, "1>2")
    assert refusal is not None and refusal.rule == "build-one-higher"
    assert "needs a 3" in refusal.message


def test_infer_count_onto_empty_column_takes_the_longest_movable_group() -> None:
    g = position("| 9H 8S 7S", "")
    assert play(g, "1>2") is None
    assert up(g, 2) == "8S 7S"


def test_infer_count_stops_at_face_down_cards() -> None:
    g = position("6S | 5S", "| 7D")
    assert rule(g, "1>2") == "build-one-higher"


# --------------------------------------------------------------------------------- tapping


def test_tap_prefers_same_suit() -> None:
    g = position("| 8H 7H", "| 9S", "| 9H", "")
    assert play(g, "tap 1") is None
    assert up(g, 3) == "9H 8H 7H"


def test_tap_then_any_suit_leftmost() -> None:
    g = position("| 8H 7H", "| 9S", "| 9C", "")
    assert play(g, "tap 1") is None
    assert up(g, 2) == "9S 8H 7H"


def test_tap_then_empty_column() -> None:
    g = position("| 8H 7H", "| 3S", "", "")
    assert play(g, "tap 1") is None
    assert up(g, 3) == "8H 7H"


def test_tap_with_count() -> None:
    g = position("| 8H 7H", "| 8S")
    assert play(g, "tap 1:1") is None
    assert up(g, 2) == "8S 7H"


def test_tap_no_target() -> None:
    g = position("| 8H 7H")
    refusal = play(g, "tap 1")
    assert refusal is not None and refusal.rule == "no-target"
    assert "8H 7H" in refusal.message


# ---------------------------------------------------------------------------------- finish


def test_finish_resigns_an_open_game() -> None:
    g = position("| 9S", "| TD")
    assert play(g, "finish") is None
    assert g.result == "resigned"


def test_blocked_when_no_move_or_deal_is_legal() -> None:
    g = position(*["| 5S"] * 10)
    g.deals_done = 5
    assert g.result == "blocked"
    g = position(*["| 5S"] * 9, "| 6S")
    g.deals_done = 5
    assert g.result == "open"


def test_open_while_a_deal_is_possible() -> None:
    g = position(*["| 5S"] * 10)
    assert g.result == "open"


# -------------------------------------------------------------------------------- duel


def test_duel_flip_is_manual_costs_no_move_and_scores_2() -> None:
    g = position("5S 3H | 9S", "| TD", rules=DUEL, suits=2)
    assert play(g, "1>2") is None
    assert g.face_up(0) == [] and down(g, 1) == 2
    assert g.score == -1 and g.moves == 1
    assert play(g, "flip 1") is None
    assert up(g, 1) == "3H"
    assert g.score == 1 and g.moves == 1


def test_duel_nothing_to_flip() -> None:
    g = position("5S | 9S", "", rules=DUEL, suits=2)
    assert rule(g, "flip 1") == "nothing-to-flip"
    assert rule(g, "flip 2") == "nothing-to-flip"
    assert rule(g, "flip 11") == "no-such-column"


def test_duel_face_down_column_counts_as_empty() -> None:
    g = position("5S 3H |", "| KD 9S", rules=DUEL, suits=2)
    assert play(g, "2>1") is None
    assert up(g, 1) == "9S" and down(g, 1) == 2


def test_duel_face_down_column_is_no_source() -> None:
    g = position("5S 3H |", "| TD", rules=DUEL, suits=2)
    assert rule(g, "1>2") == "empty-source"


def test_duel_same_suit_bonus_per_card() -> None:
    g = position("| 9H 8H", "| TH", "| TS", rules=DUEL, suits=2)
    assert play(g, "1>2") is None
    assert g.score == -1 + 2 * 2
    assert play(g, "2>3:2") is None  # 9H onto TS: not the same suit
    assert g.score == 3 - 1


def test_duel_deal_allowed_with_an_empty_column() -> None:
    g = position("| 9S", "", rules=DUEL, suits=2)
    assert play(g, "deal") is None
    assert len(g.cols[1]) == 1


def test_duel_undo_only_the_last_action() -> None:
    g = position("| 9S", "| TD", "| TC", rules=DUEL, suits=2)
    assert play(g, "1>2", "2>3:1") is None
    assert play(g, "undo") is None
    assert rule(g, "undo") == "nothing-to-undo"


def test_duel_no_undo_after_flip_or_deal() -> None:
    g = position("5S | 9S", "| TD", rules=DUEL, suits=2)
    assert play(g, "1>2", "flip 1") is None
    assert rule(g, "undo") == "undo-after-flip"
    assert play(g, "deal") is None
    assert rule(g, "undo") == "undo-after-deal"


def test_duel_win_bonus() -> None:
    g = position(f"| {RUN_H}", "| AH", rules=DUEL, suits=2)
    g.removed = [0] * 7
    assert play(g, "2>1") is None
    assert g.over == "won"
    assert g.score == -1 + 2 + 26 + 100  # AH on 2H is same-suit: +2


def test_duel_tap_to_face_down_column() -> None:
    g = position("| 8H", "| 3S", "4C |", rules=DUEL, suits=2)
    assert play(g, "tap 1") is None
    assert up(g, 3) == "8H"


# -------------------------------------------------------------------------------- pavouk


def test_pavouk_flip_scores_5_and_moves_are_free() -> None:
    g = position("5S 3H | 9S", "| TD", rules=PAVOUK)
    assert play(g, "1>2", "deal") is None
    assert g.score == 5 and g.moves == 2


def test_pavouk_run_removal_flip_scores_too() -> None:
    g = position(f"5S | {RUN_H}", "| AH", rules=PAVOUK)
    assert play(g, "2>1") is None
    assert g.score == 100 + 5


# ---------------------------------------------------------------------------------- API


def test_apply_raises_with_the_refusal() -> None:
    g = position("| 9S", "| 7H")
    with pytest.raises(IllegalActionError) as info:
        g.apply(Move(2, 1, 1))
    assert info.value.refusal.rule == "build-one-higher"


def test_actions_as_values() -> None:
    assert str(Move(3, 7, 2)) == "3>7:2"
    assert str(Tap(3)) == "tap 3"
    assert str(Flip(2)) == "flip 2"
    assert [str(a) for a in (DEAL, UNDO, FINISH)] == ["deal", "undo", "finish"]
