"""The kpat ruleset: KPat's Spider rules, scored the classic way; verify, tournament and duel take
kpat logs like any other."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spidercli.codes import Setup, parse_code
from spidercli.engine import Game
from spidercli.kpat import import_save
from spidercli.rules import CLASSIC, KPAT, RULESETS, SPIDERETTE, check_playable, ruleset_named
from tests.helpers import play, position, run
from tests.kpat_saves import KPAT_FIXTURES


def test_kpat_is_a_preset() -> None:
    assert RULESETS["kpat"] is KPAT
    assert ruleset_named(" KPat ") is KPAT
    with pytest.raises(ValueError, match="Spider only, not Spiderette"):
        check_playable(KPAT, SPIDERETTE, 1)
    for suits in (1, 2, 4):
        check_playable(KPAT, Setup.from_code(parse_code(f"KP{suits}-1")).game, suits)


def test_kpat_deals_while_a_column_is_empty() -> None:
    for rules, allowed in ((KPAT, True), (CLASSIC, False)):
        g = position("| 9S", "", rules=rules)
        refusal = play(g, "deal")
        assert (refusal is None) is allowed
        if allowed:
            assert [len(c) for c in g.cols[:2]] == [2, 1]
        else:
            assert refusal is not None and refusal.rule == "deal-empty-column"


def test_kpat_flips_automatically_and_removes_runs() -> None:
    g = position("5S | 9S", "| TD", rules=KPAT)
    assert play(g, "1>2") is None
    assert g.down[0] == 0 and g.cols[0] == [g.cols[0][0]]
    refusal = play(g, "flip 1")
    assert refusal is not None and refusal.rule == "flip-automatic"
    g = position("| KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H", "| AH", rules=KPAT)
    assert play(g, "2>1") is None
    assert g.runs == 1 and g.score == 500 - 1 + 100


def test_kpat_undo_is_unlimited() -> None:
    g = position("| 9S", "| TD", "| TC", rules=KPAT)
    assert play(g, "1>2") is None
    for _ in range(300):
        assert play(g, "2>3", "3>2") is None
    assert play(g, *["undo"] * 601) is None
    assert g.moves == 0
    refusal = play(g, "undo")
    assert refusal is not None and "no action has been played" in refusal.message


def test_kpat_scores_the_classic_way_with_its_floor() -> None:
    code = parse_code("KP2-17")
    a, b = Game.from_code(code, KPAT), Game.from_code(code, CLASSIC)
    for g in (a, b):
        assert play(g, "3>6:1", "deal") is None
    assert a.score == b.score == 498
    g = position("| 9S", "| TD", rules=KPAT)
    for _ in range(300):
        assert play(g, "1>2", "2>1") is None
    assert g.score == 0  # never below zero, as classic Spider


def test_report_says_kpat_keeps_no_score(tmp_path: Path) -> None:
    log = tmp_path / "g.yaml"
    log.write_text("game: KP2-17\nrules: kpat\nmoves: ['3>6:1', deal]\n")
    result = run("replay", str(log), "--show", "none")
    assert result.exit_code == 0
    assert "KPat keeps no score, so scored the classic way" in " ".join(result.stdout.split())
    report = json.loads(run("replay", str(log), "--json").stdout)
    assert report["rules"] == "kpat" and report["score"] == 498
    assert report["deal_id"] == Setup.from_code(parse_code("KP2-17")).deal_id


def test_kpat_rules_override_on_the_command_line(tmp_path: Path) -> None:
    log = tmp_path / "g.yaml"
    log.write_text("game: KP2-17\nmoves: [deal]\n")
    assert run("replay", str(log), "--rules", "kpat", "--json").exit_code == 0


def _imported(tmp_path: Path, name: str, player: str) -> Path:
    imported = import_save(KPAT_FIXTURES / name)
    path = tmp_path / f"{player}.yaml"
    path.write_text(imported.log_text.replace("game:", f"player: {player}\ngame:", 1))
    return path


def test_verify_takes_kpat_logs(tmp_path: Path) -> None:
    for suits in (1, 2, 4):
        _imported(tmp_path, f"spider-{suits}suit-demo-part.xml", f"p{suits}")
    result = run("verify", str(tmp_path), "-f", "json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert len(rows) == 3
    assert {r["rules"] for r in rows} == {"kpat"}
    assert {r["status"] for r in rows} == {"valid"}


def test_tournament_takes_kpat_logs(tmp_path: Path) -> None:
    alice = _imported(tmp_path, "spider-2suit-demo-part.xml", "alice")
    code = next(
        line.split()[1] for line in alice.read_text().splitlines() if line.startswith("game:")
    )
    (tmp_path / "bob.yaml").write_text(f"player: bob\ngame: {code}\nrules: kpat\nmoves: [deal]\n")
    (tmp_path / "carol.yaml").write_text(f"player: carol\ngame: {code}\nmoves: [deal]\n")
    (tmp_path / "m.yml").write_text(f"name: KPat cup\nrules: kpat\ndeals: [{code.lower()}]\n")
    result = run("tournament", str(tmp_path), "-m", str(tmp_path / "m.yml"), "-f", "json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert [s["player"] for s in out["standings"]] == ["bob", "alice"]
    reasons = {Path(r["file"]).name: r["reason"] for r in out["rejected"]}
    assert "played under classic rules; the tournament plays kpat" in reasons["carol.yaml"]


def test_duel_takes_kp_codes_but_judges_under_duel_rules(tmp_path: Path) -> None:
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text("game: KP2-17\nrules: duel\nmoves: ['3>6:1']\n")
    b.write_text("game: kp2-017\nmoves: [deal]\n")
    result = run("duel", str(a), str(b), "--json")
    assert result.exit_code in (0, 1), result.output
    assert json.loads(result.stdout)["rules"] == "duel"
    # A kpat log is refused like any log of another ruleset: a duel is judged under duel rules.
    b.write_text("game: KP2-17\nrules: kpat\nmoves: [deal]\n")
    result = run("duel", str(a), str(b))
    assert result.exit_code == 2
    assert "rules: kpat: a duel is judged under duel rules only" in result.stderr
