"""`spidercli verify`, `tournament`, `record` and `schema`: batches mixing every status in every
format, standings with ties, duplicates and off-manifest logs, and record round trips."""

from __future__ import annotations

import csv
import io
import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
from syrupy.assertion import SnapshotAssertion

from spidercli.batch import find_logs, run_batch
from spidercli.record import rewrite
from spidercli.schema import log_schema
from tests.test_cli import FIXTURES, ROOT, run

BATCH = "fixtures/batch"
ORDER = [
    "fixtures/batch/a-valid.yaml",
    "fixtures/batch/b-illegal.yaml",
    "fixtures/batch/c-expect-failed.yaml",
    "fixtures/batch/d-unusable.yaml",
    "fixtures/batch/nested/e-valid.yml",
]
STATUSES = ["valid", "illegal", "expect-failed", "invalid-input", "valid"]

# ------------------------------------------------------------------------ verify


def test_find_logs_sorts_directories_and_keeps_the_given_order() -> None:
    import os

    os.chdir(ROOT)
    assert list(find_logs([BATCH])) == ORDER
    given = ["fixtures/batch/c-expect-failed.yaml", BATCH + "/a-*.yaml", "no/such.yaml"]
    assert list(find_logs(["fixtures/bat*"])) == ORDER  # a glob matching a directory walks it
    assert list(find_logs(given)) == [
        "fixtures/batch/c-expect-failed.yaml",
        "fixtures/batch/a-valid.yaml",
        "no/such.yaml",
    ]


def _untimed(text: str) -> str:
    """JUnit's ``time`` attributes (seconds, which vary) as ``T``."""
    import re

    return re.sub(r'time="[0-9.]+"', 'time="T"', text)


@pytest.mark.parametrize("fmt", ["table", "json", "jsonl", "csv", "junit", "github", "concise"])
def test_verify_every_format(fmt: str, snapshot: SnapshotAssertion) -> None:
    result = run("verify", BATCH, "--format", fmt, "--jobs", "1")
    assert result.exit_code == 2  # one log is unusable
    assert "Traceback" not in result.output
    assert _untimed(result.stdout) == snapshot
    parallel = run("verify", BATCH, "--format", fmt, "--jobs", "2")
    assert _untimed(parallel.stdout) == _untimed(result.stdout)  # same order, whatever the workers


def test_verify_json_records() -> None:
    records = json.loads(run("verify", BATCH, "--format", "json").stdout)
    assert [r["file"] for r in records] == ORDER
    assert [r["status"] for r in records] == STATUSES
    valid = records[0]
    replayed = json.loads(run("replay", ORDER[0], "--json").stdout)
    assert {k: v for k, v in valid.items() if k not in ("file", "status")} == replayed
    assert records[3]["error"] == {
        "message": "fixtures/batch/d-unusable.yaml:3: not valid YAML: did not find "
        "expected ',' or ']'",
        "line": 3,
    }
    assert set(records[3]) == {"file", "status", "error"}
    lines = run("verify", BATCH, "--format", "jsonl").stdout.splitlines()
    assert [json.loads(line) for line in lines] == records


def test_verify_csv_and_junit_parse() -> None:
    rows = list(csv.DictReader(io.StringIO(run("verify", BATCH, "-f", "csv").stdout)))
    assert [r["status"] for r in rows] == STATUSES
    assert rows[1]["rule"] == "same-column" and rows[1]["line"] == "5"
    suite = ET.fromstring(run("verify", BATCH, "-f", "junit").stdout)
    assert {k: suite.attrib[k] for k in ("tests", "failures", "errors")} == {
        "tests": "5",
        "failures": "2",
        "errors": "1",
    }
    assert float(suite.attrib["time"]) >= 0
    cases = suite.findall("./testsuite/testcase")
    assert [c.attrib["name"] for c in cases] == ORDER
    assert [c.attrib["file"] for c in cases] == ORDER
    assert all(float(c.attrib["time"]) >= 0 for c in cases)
    assert cases[1].find("failure") is not None and cases[3].find("error") is not None


def test_verify_exit_status() -> None:
    assert run("verify", ORDER[0], ORDER[4]).exit_code == 0
    assert run("verify", ORDER[0], ORDER[1]).exit_code == 1
    assert run("verify", ORDER[0], ORDER[2]).exit_code == 1
    assert run("verify", ORDER[1], ORDER[3]).exit_code == 2
    assert run("verify", "fixtures/no-such-dir/x.yaml").exit_code == 2


def test_verify_summary_goes_to_stderr_for_machine_formats() -> None:
    result = run("verify", BATCH, "-f", "jsonl")
    assert "5 logs: 2 valid, 1 illegal, 1 expect-failed, 1 invalid-input" in result.stderr


def test_verify_every_fixture_agrees_with_replay() -> None:
    """The batch verdict of each fixture is the one `replay` gives it."""
    paths = sorted(str(p.relative_to(ROOT)) for p in FIXTURES.rglob("*.yaml"))
    out = io.StringIO()
    tally = run_batch(paths, out, fmt="jsonl", jobs=1)
    assert tally.total == len(paths)
    for line in out.getvalue().splitlines():
        record = json.loads(line)
        code = run("replay", record["file"], "--json").exit_code
        want = {"valid": 0, "illegal": 1, "expect-failed": 1, "invalid-input": 2}
        assert want[record["status"]] == code, record["file"]


# ------------------------------------------------------------------------ tournament


def _player_log(src: Path, dest: Path, player: str) -> None:
    text = src.read_text()
    dest.write_text(text.replace("game:", f"player: {player}\ngame:", 1))


@pytest.fixture
def submissions(tmp_path: Path) -> Path:
    ex53 = FIXTURES / "example-spiderette-53.yaml"
    ex117 = FIXTURES / "example-spider-1suit-117.yaml"
    for player in ("alice", "bob", "carol"):
        _player_log(ex53, tmp_path / f"{player}-sd.yaml", player)
    _player_log(ex117, tmp_path / "alice-sp.yaml", "alice")
    # bob sends two logs of the Spider deal: a resigned one, then alice's win (a full tie)
    (tmp_path / "bob-sp-1.yaml").write_text("game: SP1-S1C-AAAAABD\nplayer: bob\nmoves: [finish]\n")
    _player_log(ex117, tmp_path / "bob-sp-2.yaml", "bob")
    _player_log(FIXTURES / "spiderette-1suit-win.yaml", tmp_path / "bob-other.yaml", "bob")
    _player_log(FIXTURES / "illegal" / "stock-empty.yaml", tmp_path / "dave.yaml", "dave")
    shutil.copyfile(FIXTURES / "example-spiderette-53.yaml", tmp_path / "nobody.yaml")
    (tmp_path / "manifest.yml").write_text(
        "name: Test cup\nrules: classic\ndeals:\n  - SD1-S1-AAAABIW\n  - sp1-s1c-aaaaabd\n"
    )
    return tmp_path


def test_tournament_standings(submissions: Path, snapshot: SnapshotAssertion) -> None:
    import os

    from spidercli.cli import app
    from tests.test_cli import runner

    os.chdir(submissions)  # relative paths in the output, so the snapshot is stable
    try:
        result = runner.invoke(app, ["tournament", ".", "-m", "manifest.yml", "-f", "json"])
    finally:
        os.chdir(ROOT)
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    ranks = [(s["rank"], s["player"], s["score"], s["wins"]) for s in out["standings"]]
    # bob's win replaces his resigned log; alice and bob tie on score, wins and moves
    assert ranks == [(1, "alice", 2030, 2), (1, "bob", 2030, 2), (3, "carol", 847, 1)]
    assert [s["file"] for s in out["superseded"]] == ["./bob-sp-1.yaml"]
    reasons = {r["file"]: r["reason"] for r in out["rejected"]}
    assert set(reasons) == {"./bob-other.yaml", "./dave.yaml", "./nobody.yaml"}
    assert "not one of the tournament's deals" in reasons["./bob-other.yaml"]
    assert reasons["./dave.yaml"].startswith("illegal (line 397): stock-empty")
    assert reasons["./nobody.yaml"].startswith("no player")
    assert out == snapshot


def test_tournament_ties_share_a_rank(submissions: Path) -> None:
    for name in ("alice-sp.yaml", "bob-sp-1.yaml", "bob-sp-2.yaml", "manifest.yml"):
        (submissions / name).unlink()
    result = run("tournament", str(submissions), "-f", "csv")
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [(r["rank"], r["player"]) for r in rows] == [
        ("1", "bob"),
        ("2", "alice"),
        ("2", "carol"),
    ]
    assert rows[0]["score"] == str(847 + 782)


def test_tournament_text_and_manifest_errors(
    submissions: Path, snapshot: SnapshotAssertion
) -> None:
    text = run("tournament", str(submissions / "alice-sd.yaml"), str(submissions / "bob-sd.yaml"))
    assert text.exit_code == 0
    assert text.stdout.replace(str(submissions), "<dir>") == snapshot
    bad = submissions / "bad.yml"
    bad.write_text("deals:\n  - SP1-S1C-AAAAAAA\n  - SX1-S1C-AAAAAAA\n")
    result = run("tournament", str(submissions), "-m", str(bad))
    assert result.exit_code == 2
    assert "bad.yml:3: " in result.stderr and "neither a game code nor a deal ID" in result.stderr
    bad.write_text("rules: duel\n")
    assert "no 'deals' key" in run("tournament", ".", "-m", str(bad)).stderr


def test_tournament_rules_and_deal_ids(submissions: Path) -> None:
    deal_id = json.loads(run("replay", "fixtures/example-spiderette-53.yaml", "--json").stdout)[
        "deal_id"
    ]
    (submissions / "manifest.yml").write_text(f"rules: pavouk\ndeals: [{deal_id}]\n")
    out = json.loads(
        run(
            "tournament", str(submissions), "-m", str(submissions / "manifest.yml"), "-f", "json"
        ).stdout
    )
    assert out["standings"] == []
    assert any("the tournament plays pavouk" in r["reason"] for r in out["rejected"])


# ------------------------------------------------------------------------ record

COMMENTED = """\
# A game in progress; keep this comment.
game: SD1-S1-AAAABIW   # the deal
player: alice

# the actions, in order
moves:
  - 7>1     # first
  - deal
"""


def test_record_adds_and_refreshes_the_expect_block(tmp_path: Path) -> None:
    log = tmp_path / "game.yaml"
    log.write_text(COMMENTED)
    result = run("record", str(log))
    assert result.exit_code == 0 and result.stdout.startswith("recorded")
    text = log.read_text()
    assert text == COMMENTED.replace(
        "# the actions",
        "expect:\n  result: open\n  moves: 2\n  score: 498\n  runs: 0\n# the actions",
    )
    assert run("replay", str(log)).exit_code == 0
    again = run("record", str(log))
    assert again.stdout.startswith("unchanged") and log.read_text() == text
    log.write_text(
        text.replace("score: 498", "score: 1000").replace("  - deal\n", "  - deal\n  - 5>3\n")
    )
    run("record", str(log))
    assert "  moves: 3\n  score: 497\n" in log.read_text()
    assert log.read_text().count("expect:") == 1 and "# first" in log.read_text()


def test_record_keeps_crlf_and_a_flow_expect(tmp_path: Path) -> None:
    log = tmp_path / "crlf.yaml"
    log.write_bytes(b"game: SD1-S1-AAAABIW\r\nexpect: {result: won}  # old\r\nmoves: [7>1]\r\n")
    assert run("record", str(log)).exit_code == 0
    assert log.read_bytes() == (
        b"game: SD1-S1-AAAABIW\r\nexpect:\r\n  result: open\r\n  moves: 1\r\n  score: 499\r\n"
        b"  runs: 0\r\nmoves: [7>1]\r\n"
    )


def test_record_refuses_illegal_and_unusable_logs(tmp_path: Path) -> None:
    illegal = tmp_path / "illegal.yaml"
    shutil.copyfile(FIXTURES / "batch" / "b-illegal.yaml", illegal)
    before = illegal.read_text()
    result = run("record", str(illegal))
    assert result.exit_code == 1 and "same-column" in result.stderr
    assert illegal.read_text() == before
    bad = tmp_path / "bad.yaml"
    shutil.copyfile(FIXTURES / "batch" / "d-unusable.yaml", bad)
    result = run("record", str(bad), str(tmp_path / "missing.yaml"))
    assert (
        result.exit_code == 2
        and "bad.yaml:3: " in result.stderr
        and "no such file" in result.stderr
    )
    assert list(tmp_path.glob(".*.tmp")) == []  # no temporary file left behind


def test_record_refuses_a_flow_style_log(tmp_path: Path) -> None:
    log = tmp_path / "flow.yaml"
    log.write_text("{game: SD1-S1-AAAABIW, moves: [7>1]}\n")
    result = run("record", str(log))
    assert result.exit_code == 2 and "flow style" in result.stderr
    assert log.read_text() == "{game: SD1-S1-AAAABIW, moves: [7>1]}\n"


def test_rewrite_only_touches_the_expect_lines() -> None:
    text = "game: SD1-S1-AAAAAAA\nexpect:\n  result: won\n  moves: 4\n# after\nmoves: []\n"
    out = rewrite(text, {"result": "open", "moves": 0}).new
    assert out == "game: SD1-S1-AAAAAAA\nexpect:\n  result: open\n  moves: 0\n# after\nmoves: []\n"


# ------------------------------------------------------------------------ schema


def test_schema_accepts_good_logs_and_refuses_broken_ones() -> None:
    import yaml

    result = run("schema")
    schema = json.loads(result.stdout)
    assert schema == log_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    good = [*FIXTURES.glob("*.yaml"), *(FIXTURES / "illegal").glob("*.yaml")]
    for path in good:
        data = yaml.safe_load(path.read_text())
        errors = list(validator.iter_errors(data))
        assert not errors, (path, errors[0].message)
    for name in (
        "unknown-key",
        "bad-action",
        "bad-code",
        "moves-not-a-list",
        "wrong-type",
        "bad-expect",
        "unknown-rules",
        "deal-and-game",
        "deal-bad-card",
        "deal-unknown-game",
    ):
        data = yaml.safe_load((FIXTURES / "bad" / f"{name}.yaml").read_text())
        assert not validator.is_valid(data), name


def test_verify_rules_override() -> None:
    log = "fixtures/duel-1suit-win.yaml"
    assert run("verify", log).exit_code == 0
    classic = run("verify", log, "--rules", "classic", "-f", "jsonl")
    record = json.loads(classic.stdout)
    assert record["status"] == "illegal" and record["illegal"][0]["rule"] == "flip-automatic"
    bad = run("verify", log, "--rules", "freecell")
    assert bad.exit_code == 2 and "unknown ruleset" in bad.stderr


def test_record_keeps_a_byte_order_mark(tmp_path: Path) -> None:
    log = tmp_path / "bom.yaml"
    log.write_bytes(b"\xef\xbb\xbfgame: SD1-S1-AAAABIW\nmoves: [7>1]\n")
    assert run("record", str(log)).exit_code == 0
    data = log.read_bytes()
    assert data.startswith(b"\xef\xbb\xbfgame: SD1-S1-AAAABIW\nexpect:\n  result: open\n")
    assert run("replay", str(log)).exit_code == 0
