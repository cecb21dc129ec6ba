"""The log reader: line numbers, types, and every kind of input error."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spidercli.game.actions import (
    DEAL,
    FINISH,
    UNDO,
    ActionSyntaxError,
    Flip,
    Move,
    Tap,
    parse_action,
)
from spidercli.logs.reader import parse_log
from spidercli.logs.yamlreader import LogError

# Every test runs with libyaml's loader and with the pure-Python one (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("yaml_loader")


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("3>7", Move(3, 7)),
        ("10>4:3", Move(10, 4, 3)),
        (" 3 > 7 : 2 ", Move(3, 7, 2)),
        ("03>7", Move(3, 7)),
        ("DEAL", DEAL),
        ("Undo", UNDO),
        ("finish", FINISH),
        ("tap 3", Tap(3)),
        ("TAP 3 : 2", Tap(3, 2)),
        ("flip 4", Flip(4)),
        ("1>2:0", Move(1, 2, 0)),
    ],
)
def test_actions(text: str, action: object) -> None:
    assert parse_action(text) == action


@pytest.mark.parametrize(
    "text", ["", "3>", ">7", "3>7:", "3-7", "tap", "tap3", "flip", "deal 2", "3>7:-1", "٣>7", "x"]
)
def test_not_actions(text: str) -> None:
    with pytest.raises(ActionSyntaxError, match="is not an action"):
        parse_action(text)


def test_entries_keep_their_lines() -> None:
    log = parse_log(
        "# a comment\ngame: SP1-S1C-AAAAAAD\nmoves:\n  - 5>1\n\n  - deal\n  - 'tap 3'\n", "x.yaml"
    )
    assert [(e.index, e.line, e.text) for e in log.entries] == [
        (1, 4, "5>1"),
        (2, 6, "deal"),
        (3, 7, "tap 3"),
    ]
    assert log.deal.name == "SP1-S1C-AAAAAAD"
    assert log.game_line == 2


def test_flow_list_and_optional_keys() -> None:
    log = parse_log(
        "game: sd1-s1-aaaaabd\nrules: Duel\nplayer: 42\nexpect: {result: won, moves: 53, "
        "score: 847, runs: 4}\nmoves: [deal, undo]\n"
    )
    assert log.rules == "duel"
    assert log.player == "42"
    assert log.expect is not None
    assert log.expect.items() == [("result", "won"), ("moves", 53), ("score", 847), ("runs", 4)]
    assert [e.line for e in log.entries] == [5, 5]


def test_empty_moves_is_an_unplayed_game() -> None:
    assert parse_log("game: SP1-S1C-AAAAAAD\nmoves: []\n").entries == ()


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("game: SP1-S1C-AAAAAAD\n", 1, "no 'moves' key"),
        ("moves: []\n", 1, "no 'game' key"),
        ("- deal\n", 1, "must be a mapping"),
        ("just text\n", 1, "must be a mapping"),
        ("game: 5\nmoves: []\n", 1, "game must be text"),
        ("game: SP1-S1C-AAAAAAD\nmoves:\n", 2, "not nothing"),
        ("game: SP1-S1C-AAAAAAD\nmoves:\n  - [deal]\n", 3, "not a list"),
        ("game: SP1-S1C-AAAAAAD\nmoves:\n  - yes\n", 3, "not a boolean"),
        ("game: SP1-S1C-AAAAAAD\nmoves: []\nexpect: {moves: many}\n", 3, "whole number"),
        ("game: SP1-S1C-AAAAAAD\nmoves: []\nexpect: {moves: 1, moves: 2}\n", 3, "duplicate"),
        ("game: SP1-S1C-AAAAAAD\nmoves: []\nexpect: {time: 3}\n", 3, "unknown key 'time'"),
        ("game: SP1-S1C-AAAAAAD\nmoves: []\nexpect: {score: 1e400}\n", 3, "whole number"),
        ("game: SP1-S1C-AAAAAAD\nmoves: []\nexpect: {score: " + "9" * 50 + "}\n", 3, "range"),
        ("game: SP1-S1C-AAAAAAD\nmoves: []\nplayer: ~\n", 3, "player must be text"),
        ("game: SP1-S1C-AAAAAAD\nmoves: []\n? [a]\n: b\n", 3, "keys must be plain words"),
        ("base: &b {game: SP1-S1C-AAAAAAD}\n<<: *b\nmoves: []\n", 2, "merge keys"),
        ("game: SP1-S1C-AAAAAAD\nmoves: !!python/object:os.system []\n", 2, "custom YAML tags"),
        ("game: SP1-S1C-AAAAAAD\nmoves: []\n---\ngame: x\n", 3, "not valid YAML"),
        ("\tgame: x\n", 1, "not valid YAML"),
    ],
)
def test_errors_name_the_line(text: str, line: int, words: str) -> None:
    with pytest.raises(LogError) as info:
        parse_log(text, "t.yaml")
    assert info.value.line == line
    assert words in info.value.message
    assert str(info.value).startswith(f"t.yaml:{line}: ")


def test_deep_nesting_is_an_input_error() -> None:
    with pytest.raises(LogError):
        parse_log("game: " + "[" * 20000 + "]" * 20000 + "\nmoves: []\n")


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(),
        st.text(alphabet="gamesrulpyxct:-[]{}&*!<>\n #'\"0123456789SPD"),
        st.lists(
            st.sampled_from(
                [
                    "game: SP1-S1C-AAAAAAD\n",
                    "moves:\n",
                    "  - 3>7\n",
                    "- deal\n",
                    "expect: {moves: 1}\n",
                    "rules: duel\n",
                    "  - &a x\n",
                    "*a\n",
                    "time: 1\n",
                    "? x\n",
                    "  - [\n",
                    "player: ~\n",
                ]
            )
        ).map("".join),
    )
)
def test_any_text_is_a_log_or_a_log_error(text: str) -> None:
    """Whatever the input, the reader answers with a log or a LogError: never anything else."""
    try:
        parse_log(text, "fuzz.yaml")
    except LogError as err:
        assert err.message
