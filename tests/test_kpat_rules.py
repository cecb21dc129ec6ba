"""The kpat ruleset: KPat's Spider rules, scored the classic way; verify, tournament and duel take
kpat logs like any other."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from spidercli.game.codes import Setup, parse_code
from spidercli.game.engine import Game
from spidercli.game.rules import CLASSIC, KPAT, RULESETS, SPIDERETTE, check_playable, ruleset_named
from spidercli.kpat.match import import_save
from spidercli.logs.writer import deal_lines
from tests.helpers import play, position, run
from tests.kpat_saves import KPAT_FIXTURES


def test_kpat_is_a_preset() -> None:
    assert RULESETS["kpat"] is KPAT
    assert ruleset_named(" KPat ") is KPAT
    assert SPIDERETTE.name not in KPAT.games
    with pytest.raises(ValueError, match="Spider only, not Spiderette"):
        check_playable(KPAT, Setup.from_code(parse_code("SD1-S1-AAAAAAA")))
    for suits in (1, 2, 4):
        check_playable(KPAT, Setup.from_code(parse_code(f"KP{suits}-1")))


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


# ------------------------------------------------ one move rule: KPat's (classic) under kpat

PERMISSIVE = "SP2-S1P-TIXLZWX"  # 7>2:1 then 2>9:2 moves a mixed-suit group under the P rule
REFUSAL = (
    "ruleset 'kpat' plays the classic move rule only (a group moves only when it is one suit; "
    "to play the same cards under it, use the game code SP2-S1C-TIXLZWX), not the permissive "
    f"one ({PERMISSIVE})"
)


def test_the_engine_plays_no_permissive_kpat_game() -> None:
    assert "permissive" not in KPAT.move_rules
    assert all("permissive" in r.move_rules for r in RULESETS.values() if r is not KPAT)
    with pytest.raises(ValueError, match="classic move rule only"):
        Game.from_code(parse_code(PERMISSIVE), KPAT)
    with pytest.raises(ValueError, match=re.escape(REFUSAL.split(" (SP2-S1P")[0])):
        check_playable(KPAT, Setup.from_code(parse_code(PERMISSIVE)))
    # With one suit both move rules are one game; a C code plays.
    for code in ("SP1-S1P-TIXLZWX", "SP2-S1C-TIXLZWX", "KP4-17"):
        check_playable(KPAT, Setup.from_code(parse_code(code)))
        Game.from_code(parse_code(code), KPAT)


def _permissive_log(tmp_path: Path, rules: str | None = "kpat", name: str = "p.yaml") -> Path:
    path = tmp_path / name
    head = f"game: {PERMISSIVE}\n" + (f"rules: {rules}\n" if rules else "")
    path.write_text("player: p\n" + head + "moves: ['7>2:1', '2>9:2']\n")
    return path


@pytest.mark.parametrize("spelled", ["kpat", "KPat", "' kpat '", "!!str kpat"])
def test_a_permissive_game_under_kpat_is_refused_as_input(tmp_path: Path, spelled: str) -> None:
    """In the log (the rules: line named) or on the command line (the game: line named), by
    every command that reads a log, with one message and exit status 2."""
    path = _permissive_log(tmp_path, spelled)
    bare = _permissive_log(tmp_path, None, "bare.yaml")
    assert run("replay", str(path), "--rules", "classic").exit_code == 0  # the moves are legal
    for args, log, line in (
        (("replay", str(path)), path, 3),
        (("hint", str(path)), path, 3),
        (("solve", str(path), "--max-states", "10"), path, 3),
        (("record", str(path)), path, 3),
        (("replay", str(bare), "--rules", "kpat"), bare, 2),
        (("hint", str(bare), "--rules", "KPAT"), bare, 2),
        (("solve", str(bare), "--rules", "kpat", "--max-states", "10"), bare, 2),
        (("replay", str(path), "--rules", "kpat"), path, 2),
    ):
        result = run(*args)
        assert result.exit_code == 2, (args, result.output)
        assert result.stderr == f"spidercli: error: {log}:{line}: {REFUSAL}\n", args
    result = run("replay", str(path), "--json")
    assert json.loads(result.stdout)["error"] == {"message": f"{path}:3: {REFUSAL}", "line": 3}
    result = run("verify", str(path), "-f", "jsonl")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"]["message"] == f"{path}:3: {REFUSAL}"
    assert run("record", str(path)).exit_code == 2
    assert "expect" not in path.read_text()  # record left it alone


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "; to play the same cards under it, use the game code SP2-S1C-TIXLZWX)"),
        ("cs", "; chcete-li hrát tytéž karty s tímto pravidlem, použijte kód hry SP2-S1C-TIXLZWX)"),
        ("fi", "; pelaa samat kortit tällä säännöllä pelikoodilla SP2-S1C-TIXLZWX)"),
    ],
)
def test_the_refusal_says_how_to_play_the_same_cards(lang: str, words: str, tmp_path: Path) -> None:
    """The cards are said as cards, and the classic code as the way to play them (the refusal
    read "these cards under it are SP2-S1C-...", as if cards were a code), in every language."""
    result = run("replay", str(_permissive_log(tmp_path)), "--lang", lang)
    assert result.exit_code == 2
    assert words in result.stderr
    assert not re.search(r"\b(are|jsou|ovat) SP2-S1C", result.stderr)


def test_a_permissive_explicit_deal_under_kpat_is_refused(tmp_path: Path) -> None:
    deal = "\n".join(deal_lines(Setup.from_code(parse_code(PERMISSIVE))))
    for rule in ("permissive", "PERMISSIVE", "' Permissive '", "!!str permissive"):
        path = tmp_path / "d.yaml"
        text = deal.replace("rule: permissive", f"rule: {rule}")
        assert f"rule: {rule}" in text
        path.write_text(f"rules: kpat\n{text}\nmoves: ['7>2:1', '2>9:2']\n")
        result = run("replay", str(path))
        assert result.exit_code == 2, result.output
        assert "ruleset 'kpat' plays the classic move rule only" in result.stderr
        assert f"{path}:1: " in result.stderr  # the rules: line
        assert "to play the same cards under it, write 'rule: classic' in the deal)" in (
            result.stderr
        )
        path.write_text(text.replace(f"rule: {rule}", "rule: classic") + "\nmoves: [deal]\n")
        assert run("replay", str(path), "--rules", "kpat").exit_code == 0


def test_solve_a_permissive_code_under_kpat(tmp_path: Path) -> None:
    result = run("solve", PERMISSIVE, "--rules", "kpat")
    assert result.exit_code == 2
    assert result.stderr == f"spidercli: error: {REFUSAL}\n"


def test_verify_and_tournament_refuse_it_too(tmp_path: Path) -> None:
    path = _permissive_log(tmp_path, None)
    result = run("verify", str(path), "--rules", "kpat", "-f", "jsonl")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"]["message"] == f"{path}:2: {REFUSAL}"
    # A manifest whose ruleset cannot play one of its deals: no log could ever count.
    manifest = tmp_path / "m.yml"
    manifest.write_text(f"rules: kpat\ndeals:\n  - KP2-17\n  - {PERMISSIVE.lower()}\n")
    result = run("tournament", str(path), "-m", str(manifest))
    assert result.exit_code == 2
    assert result.stderr == f"spidercli: error: {manifest}:4: {REFUSAL}\n"
    # Under a manifest with no ruleset, the kpat log is refused as unusable.
    _permissive_log(tmp_path, "kpat")
    manifest.write_text(f"deals: [{PERMISSIVE}]\n")
    out = json.loads(run("tournament", str(path), "-m", str(manifest), "-f", "json").stdout)
    assert [r["reason"] for r in out["rejected"]] == [f"unusable: {path}:3: {REFUSAL}"]


def test_duel_refuses_a_kpat_log_before_its_move_rule(tmp_path: Path) -> None:
    a = _permissive_log(tmp_path, "kpat")
    b = tmp_path / "b.yaml"
    b.write_text(f"game: {PERMISSIVE}\nmoves: [deal]\n")
    result = run("duel", str(a), str(b))
    assert result.exit_code == 2
    assert f"{a}:3: rules: kpat: a duel is judged under duel rules only" in result.stderr
