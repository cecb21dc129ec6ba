"""The command line through Typer's runner: exit codes, stdout, stderr, and snapshots of whole
replays (text and JSON) pinned to the fixtures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

from spidercli.game.engine import RULE_IDS
from tests.helpers import BAD, FIXTURES, GAMES, ILLEGAL, ROOT, run

__all__ = ["FIXTURES", "run"]  # still imported from here by older test modules


# ------------------------------------------------------------------------ legal games


def test_fixture_set_is_complete() -> None:
    assert len(GAMES) >= 5
    assert sorted(ILLEGAL) == sorted(RULE_IDS)


@pytest.mark.parametrize("name", GAMES)
def test_replay_text(name: str, snapshot: SnapshotAssertion) -> None:
    result = run("replay", f"fixtures/{name}", "--show", "0,final")
    assert result.exit_code == 0, result.output
    assert "VALID" in result.stdout
    assert result.stdout == snapshot


@pytest.mark.parametrize("name", GAMES)
def test_replay_json(name: str, snapshot: SnapshotAssertion) -> None:
    result = run("replay", f"fixtures/{name}", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert list(report) == [
        "game",
        "deal_id",
        "rules",
        "result",
        "moves",
        "score",
        "runs",
        "deals_left",
        "actions",
        "illegal",
        "expect",
        "state",
    ]
    assert report["expect"] == {"ok": True, "mismatches": []}
    assert report["illegal"] == []
    assert report == snapshot


def test_won_games_leave_no_cards() -> None:
    for name in ("spider-1suit-win.yaml", "spiderette-1suit-win.yaml"):
        report = json.loads(run("replay", f"fixtures/{name}", "--json").stdout)
        assert report["result"] == "won"
        assert report["state"]["stock"] == []
        assert all(c == {"down": [], "up": []} for c in report["state"]["columns"])
        assert report["score"] == 500 - report["moves"] + 100 * report["runs"]


def test_show_every_prints_a_board_per_action() -> None:
    result = run("replay", "fixtures/spiderette-2suit-permissive.yaml", "--show", "every")
    assert result.exit_code == 0
    assert result.stdout.count("Stock ") == 36 + 1


def test_show_none() -> None:
    result = run("replay", "fixtures/spiderette-2suit-permissive.yaml", "--show", "none")
    assert "Stock " not in result.stdout
    assert "VALID" in result.stdout


def test_show_bad_value_is_an_input_error() -> None:
    result = run("replay", "fixtures/spiderette-2suit-permissive.yaml", "--show", "sometimes")
    assert result.exit_code == 2
    assert "--show" in result.stderr


def test_unicode_board() -> None:
    result = run("deal", "SP4-S1C-AAAAAAA", "--unicode")
    assert result.exit_code == 0
    assert "♦" in result.stdout and "░░" in result.stdout


def test_no_colour_codes_when_not_a_terminal() -> None:
    result = run("replay", "fixtures/spider-2suit-open.yaml")
    assert "\x1b[" not in result.stdout


def test_colour_on_request() -> None:
    result = run("deal", "SP4-S1C-AAAAAAA", "--color")
    assert "\x1b[31m" in result.stdout


# ---------------------------------------------------------------------- illegal logs


@pytest.mark.parametrize("rule", ILLEGAL)
def test_illegal_text(rule: str, snapshot: SnapshotAssertion) -> None:
    result = run("replay", f"fixtures/illegal/{rule}.yaml")
    assert result.exit_code == 1
    assert f"is refused: {rule}\n" in result.stdout
    assert "Board before entry" in result.stdout
    assert result.stdout == snapshot


@pytest.mark.parametrize("rule", ILLEGAL)
def test_illegal_json(rule: str, snapshot: SnapshotAssertion) -> None:
    result = run("replay", f"fixtures/illegal/{rule}.yaml", "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    (illegal,) = report["illegal"]  # the default stops at the first refusal
    assert illegal["rule"] == rule
    n = illegal["index"]
    assert report["actions"] == n - 1
    text = (FIXTURES / "illegal" / f"{rule}.yaml").read_text().splitlines()
    assert text[illegal["line"] - 1].strip() in (
        f"- {illegal['action']}",
        f"- '{illegal['action']}'",
    )
    assert report == snapshot


def test_skip_goes_on_after_a_refusal() -> None:
    result = run(
        "replay", "fixtures/illegal/build-one-higher.yaml", "--on-illegal", "skip", "--json"
    )
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert [i["rule"] for i in report["illegal"]] == ["build-one-higher"]
    assert report["actions"] == 1  # the deal after it was played
    assert report["moves"] == 1


def test_unmet_expectation_is_exit_1() -> None:
    text = (FIXTURES / "spider-2suit-open.yaml").read_text().replace("score: 417", "score: 418")
    path = ROOT / ".pytest_cache" / "expect-fail.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    result = run("replay", str(path), "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["illegal"] == []
    assert report["expect"] == {
        "ok": False,
        "mismatches": [{"key": "score", "expected": 418, "actual": 417}],
    }
    text_result = run("replay", str(path), "--show", "none")
    assert "Expect   score: expected 418, got 417" in text_result.stdout


def test_rules_option_overrides_the_log(tmp_path: Path) -> None:
    log = tmp_path / "l.yaml"
    log.write_text("game: SP1-S1C-AAAAAAD\nrules: classic\nmoves: [5>1, deal]\n")
    report = json.loads(run("replay", str(log), "--rules", "pavouk", "--json").stdout)
    assert report["rules"] == "pavouk"
    assert report["score"] == 5  # the flip under the moved 5S; moves and deals are free
    result = run("replay", str(log), "--rules", "nope", "--json")
    assert result.exit_code == 2
    assert "unknown ruleset" in json.loads(result.stdout)["error"]["message"]


# ------------------------------------------------------------------------ bad input


@pytest.mark.parametrize("name", BAD)
def test_bad_input(name: str, snapshot: SnapshotAssertion) -> None:
    path = f"fixtures/bad/{name}"
    result = run("replay", path)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert path in result.stderr
    assert result.stderr.count("\n") == 1  # one paragraph
    assert result.stderr == snapshot
    as_json = run("replay", path, "--json")
    assert as_json.exit_code == 2
    error = json.loads(as_json.stdout)["error"]
    assert set(error) == {"message", "line"}


@pytest.mark.parametrize(
    ("name", "line"),
    [
        ("unknown-key.yaml", 3),
        ("duplicate-key.yaml", 4),
        ("alias.yaml", 4),
        ("custom-tag.yaml", 3),
        ("bad-code.yaml", 2),
        ("bad-action.yaml", 4),
        ("wrong-type.yaml", 4),
        ("moves-not-a-list.yaml", 2),
        ("bad-yaml.yaml", 5),
        ("unknown-rules.yaml", 2),
        ("rules-not-for-game.yaml", 3),
        ("rules-kpat-permissive.yaml", 3),
        ("bad-expect.yaml", 3),
        ("deal-and-game.yaml", 2),
        ("deal-bad-card.yaml", 4),
        ("deal-column-size.yaml", 4),
        ("deal-duplicate-card.yaml", 15),
        ("deal-unknown-game.yaml", 2),
        ("deal-wrong-suit.yaml", 5),
    ],
)
def test_bad_input_names_the_line(name: str, line: int) -> None:
    result = run("replay", f"fixtures/bad/{name}", "--json")
    assert json.loads(result.stdout)["error"]["line"] == line
    assert f"fixtures/bad/{name}:{line}: " in result.stderr


def test_missing_file_and_directory() -> None:
    for path in ("fixtures/no-such-log.yaml", "fixtures"):
        result = run("replay", path)
        assert result.exit_code == 2
        assert path in result.stderr and "Traceback" not in result.stderr


def test_deal_text_and_json(snapshot: SnapshotAssertion) -> None:
    text = run("deal", "sd1-s1-aaaaabd")
    assert text.exit_code == 0
    assert text.stdout == snapshot
    state = json.loads(run("deal", "SD1-S1-AAAAABD", "--json").stdout)
    assert list(state) == ["game", "deal_id", "columns", "stock", "removed"]
    assert state["game"] == "SD1-S1-AAAAABD" and len(state["deal_id"]) == 16
    assert state["columns"][0] == {"down": [], "up": ["JS"]}
    assert state["columns"][1] == {"down": ["QS"], "up": ["KS"]}
    assert state["stock"][:7] == ["8S", "4S", "3S", "4S", "5S", "JS", "9S"]
    assert state["removed"] == []


def test_deal_bad_code() -> None:
    result = run("deal", "SP3-S1C-AAAAAAA", "--json")
    assert result.exit_code == 2
    assert "not a game code" in json.loads(result.stdout)["error"]["message"]


def test_python_dash_m() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "spidercli", "deal", "SD1-S1-AAAAABD", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0
    assert json.loads(out.stdout)["columns"][0]["up"] == ["JS"]


def test_console_script_never_shows_a_traceback(tmp_path: Path) -> None:
    weird = tmp_path / "weird.yaml"
    weird.write_bytes(b"game: [" * 5000)
    exe = Path(sys.executable).parent / "spidercli"
    for args in (["replay", str(weird)], ["replay", str(tmp_path)], ["deal", "x"]):
        out = subprocess.run([str(exe), *args], capture_output=True, text=True, check=False)
        assert out.returncode == 2, out.stderr
        assert "Traceback" not in out.stderr


def test_no_command_prints_help_and_version() -> None:
    result = run()
    assert result.exit_code == 0
    assert "replay" in result.stdout and "deal" in result.stdout
    version = run("--version")
    assert version.exit_code == 0 and version.stdout.startswith("spidercli ")
