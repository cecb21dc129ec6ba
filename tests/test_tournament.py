"""`spidercli tournament`: standings with ties, duplicates and off-manifest logs; manifest
errors; rules and deal IDs."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

from tests.helpers import FIXTURES, run


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


def test_tournament_standings(
    submissions: Path, snapshot: SnapshotAssertion, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(submissions)  # relative paths in the output, so the snapshot is stable
    result = run("tournament", ".", "-m", "manifest.yml", "-f", "json")
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


# ------------------------------------------------------------ text that fits, said once


@pytest.mark.parametrize("lang", ["en", "cs", "fi"])
def test_without_a_manifest_the_report_says_how_it_counted(
    lang: str, snapshot: SnapshotAssertion
) -> None:
    """Run without a manifest, the text report says in one line (wrapped to the width) how
    standings were built, so the organiser learns that a manifest exists; the JSON and CSV say
    nothing of it, and a manifest's report has no such line."""
    text = run("tournament", "fixtures/batch", "--lang", lang)
    assert text.exit_code == 0
    first = text.stdout.split("\n\n")[0]
    assert "--manifest" in first and first.count("\n") <= 1
    assert text.stdout == snapshot
    for fmt in ("json", "csv"):
        assert "manifest" not in run("tournament", "fixtures/batch", "-f", fmt).stdout


def test_a_manifest_report_has_no_such_line(submissions: Path) -> None:
    result = run("tournament", str(submissions), "-m", str(submissions / "manifest.yml"))
    assert result.exit_code == 0
    assert "--manifest" not in result.stdout


@pytest.mark.parametrize("columns", ["100", "80", ""])
def test_not_counted_lines_fit_the_width(columns: str, tmp_path: Path) -> None:
    """Long reasons and long paths wrap to COLUMNS (80 when it is not set), under a hanging
    indent; a path longer than a line stays whole."""
    from typer.testing import CliRunner

    from spidercli.cli.app import app

    deep = tmp_path / ("a-rather-long-folder-name-" * 3) / "submissions"
    deep.mkdir(parents=True)
    for name in ("b-illegal.yaml", "c-expect-failed.yaml", "d-unusable.yaml"):
        shutil.copyfile(FIXTURES / "batch" / name, deep / name)
    env = {"COLUMNS": columns or None, "NO_COLOR": "1"}
    result = CliRunner(env=env).invoke(app, ["tournament", str(deep)])
    assert result.exit_code == 0
    width = int(columns or 80)
    rejected = result.stdout.split("\n\n")[-1].splitlines()[1:]
    assert len(rejected) > 3  # wrapped
    for line in rejected:
        assert len(line) <= width or str(deep) in line, line
        assert line.startswith(("  " + str(deep), "    ")), line


def test_an_unusable_log_is_named_once() -> None:
    result = run("tournament", "fixtures/batch/d-unusable.yaml")
    assert result.exit_code == 0
    line = result.stdout.split("Not counted\n")[1]
    assert line.count("d-unusable.yaml") == 1
    assert line.startswith("  fixtures/batch/d-unusable.yaml: unusable (line 3): not valid YAML")
    data = json.loads(run("tournament", "fixtures/batch/d-unusable.yaml", "-f", "json").stdout)
    (rejected,) = data["rejected"]  # the JSON keeps its reason as it was
    assert rejected["reason"].startswith("unusable: fixtures/batch/d-unusable.yaml:3: ")


def test_max_log_bytes_sets_the_limit_the_reason_names(tmp_path: Path) -> None:
    """A log over the size limit is not counted, and its reason says that --max-log-bytes
    raises the limit: tournament takes that option, with verify's meaning (and the API's
    ``standings`` its ``max_bytes``)."""
    from spidercli import api

    (tmp_path / "small.yaml").write_text("player: ann\ngame: SD1-S1-AAAABIW\nmoves: [deal]\n")
    _player_log(FIXTURES / "example-spiderette-53.yaml", tmp_path / "big.yaml", "bob")
    size = (tmp_path / "big.yaml").stat().st_size
    limited = run("tournament", str(tmp_path), "--max-log-bytes", "100", "-f", "json")
    assert limited.exit_code == 0, limited.output
    out = json.loads(limited.stdout)
    assert [s["player"] for s in out["standings"]] == ["ann"]
    (reason,) = [r["reason"] for r in out["rejected"]]
    assert "than the limit of 100 bytes for one log; --max-log-bytes raises it" in reason
    raised = run("tournament", str(tmp_path), "--max-log-bytes", str(size), "-f", "json")
    assert [s["player"] for s in json.loads(raised.stdout)["standings"]] == ["bob", "ann"]
    assert json.loads(raised.stdout) == json.loads(
        run("tournament", str(tmp_path), "-f", "json").stdout
    )
    assert run("tournament", str(tmp_path), "--max-log-bytes", "0").exit_code == 2
    assert [s.player for s in api.standings(tmp_path, max_bytes=100).standings] == ["ann"]
    with pytest.raises(ValueError, match="max_bytes"):
        api.standings(tmp_path, max_bytes=0)
