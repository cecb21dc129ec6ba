"""`spidercli duel`: judging two players' logs of one deal under duel rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

from spidercli.judging.duel import DuelError, judge
from spidercli.logs.reader import parse_log
from spidercli.play.logtypes import MoveLog
from tests.helpers import run

HEAD = "game: SP1-S1C-AAAAAAD\nrules: duel\n"


def log(moves: str, extra: str = "", path: str = "x.yaml") -> MoveLog:
    return parse_log(f"{HEAD}{extra}moves: [{moves}]\n", path)


def test_higher_score_wins() -> None:
    # 5>1 puts 5S on 6S (-1 +2 same suit) and exposes a card; flip 5 gives +2
    verdict = judge(log("5>1, flip 5"), log("5>1"))
    assert verdict.winner == 0
    assert verdict.reason == "higher score (3 to 1)"
    assert verdict.exit_code == 0


def test_tie_broken_by_shorter_time_then_fewer_moves() -> None:
    a = log("5>1", "time: 30\n")
    b = log("5>7", "time: 20.5\n")
    verdict = judge(a, b)
    assert verdict.winner == 1
    assert verdict.reason == "equal scores (1); shorter time (20.5 s to 30 s)"


def test_fewer_moves_when_time_is_missing() -> None:
    verdict = judge(log("deal, deal"), log("deal, deal, deal, undo"))
    # undo is refused after a deal, so B fails verification
    assert verdict.winner == 0 and "fails verification" in verdict.reason
    verdict = judge(log("finish"), log(""))
    assert verdict.winner is None and verdict.reason.startswith("a draw")


def test_equal_scores_fewer_moves() -> None:
    # A: 5S onto 6S (-1 + 2). B: the same, TS onto JS (-1 + 2), and a deal (-1): also 1 point.
    a = log("5>1", "time: 10\n")
    b = log("5>1, 8>4, deal")
    verdict = judge(a, b)
    assert verdict.winner == 0
    assert verdict.reason == "equal scores (1); fewer moves (1 to 3)"


def test_a_failing_log_loses_and_both_failing_is_no_win() -> None:
    bad = log("4>1")
    verdict = judge(log("5>1"), bad)
    assert verdict.winner == 0 and verdict.exit_code == 1
    verdict = judge(bad, bad)
    assert verdict.winner is None and "both logs fail" in verdict.reason


def test_different_deals_or_rules_cannot_be_judged() -> None:
    other = parse_log("game: SP1-S1C-AAAAAAB\nmoves: []\n", "o.yaml")
    with pytest.raises(DuelError, match="same cards"):
        judge(log(""), other)
    classic = parse_log("game: SP1-S1C-AAAAAAD\nrules: classic\nmoves: []\n", "c.yaml")
    with pytest.raises(DuelError, match="duel rules only"):
        judge(log(""), classic)
    four = parse_log("game: SP4-S1C-AAAAAAD\nmoves: []\n", "f.yaml")
    with pytest.raises(DuelError, match="1 or 2 suits"):
        judge(four, four)


def test_cli_text_and_json(snapshot: SnapshotAssertion) -> None:
    result = run("duel", "fixtures/duel-1suit-win.yaml", "fixtures/duel-finish.yaml")
    assert result.exit_code == 0
    assert result.stdout == snapshot
    data = json.loads(
        run(
            "duel", "fixtures/duel-finish.yaml", "fixtures/illegal/undo-after-flip.yaml", "--json"
        ).stdout
    )
    assert data["winner"] == "A"
    assert [p["valid"] for p in data["players"]] == [True, False]
    assert data["players"][1]["report"]["illegal"][0]["rule"] == "undo-after-flip"


def test_cli_bad_input(tmp_path: Path) -> None:
    result = run("duel", "fixtures/duel-finish.yaml", str(tmp_path / "missing.yaml"), "--json")
    assert result.exit_code == 2
    assert "no such file" in json.loads(result.stdout)["error"]["message"]
    result = run("duel", "fixtures/duel-finish.yaml", "fixtures/spider-2suit-open.yaml")
    assert result.exit_code == 2 and "same cards" in result.stderr
