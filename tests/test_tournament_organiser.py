"""The organiser's path: a tournament over a manifest of many deals (picked from the settled
table, or swept) lists the deals played and sums up the rest in one line, carries its name, its
deals' grades and its ranking (the summed score, or wins then the fewest moves), in every
language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

import spidercli
from spidercli.judging.tournament import load_manifest, standings_text
from tests.helpers import run


@pytest.fixture(autouse=True)
def _quick_grades(quick_grades: list[str]) -> None:
    """Picks grade each deal drawn: quickly here (conftest.quick_grades)."""


# Deals of the table's 4-suit set that it holds won (their certificates are the players' logs).
CODES = ["PS4-1", "PS4-2", "PS4-3", "PS4-4", "PS4-5", "PS4-6", "PS4-7", "PS4-8", "PS4-9",
         "PS4-10", "PS4-11", "PS4-12"]  # fmt: skip


def certificate(code: str) -> str:
    text = spidercli.settled(code).log()
    assert text is not None
    return text


def player_log(code: str, player: str, *, keep: int | None = None) -> str:
    """``code``'s certificate played by ``player``: whole (a win), or its first ``keep`` moves
    only (an open game, no expect block)."""
    text = certificate(code).replace("game:", f"player: {player}\ngame:", 1)
    if keep is None:
        return text
    head, _, moves = text.partition("moves:\n")
    head = head.split("expect:\n")[0]
    return head + "moves:\n" + "".join(moves.splitlines(keepends=True)[:keep])


@pytest.fixture
def cup(tmp_path: Path) -> Path:
    """Twelve deals, three played: alice wins PS4-1 (135 moves) and leaves PS4-2 open near its
    end (a high classic score, no win); bob wins PS4-3 (128 moves) alone."""
    grades = {"PS4-1": "easy", "PS4-3": "hard"}
    lines = ["name: December cup", "rules: classic", "deals:"]
    for code in CODES:
        grade = grades.get(code)
        lines.append(f"  - {{game: {code}, grade: {grade}}}" if grade else f"  - {code}")
    (tmp_path / "cup.yaml").write_text("\n".join(lines) + "\n")
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "alice-1.yaml").write_text(player_log("PS4-1", "alice"))
    (logs / "alice-2.yaml").write_text(player_log("PS4-2", "alice", keep=140))
    (logs / "bob-3.yaml").write_text(player_log("PS4-3", "bob"))
    return tmp_path


def test_the_report_lists_the_deals_played_and_sums_up_the_rest(
    cup: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion
) -> None:
    monkeypatch.chdir(cup)
    result = run("tournament", "logs", "-m", "cup.yaml")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert text.startswith("Tournament  December cup (classic rules)\n")
    assert "  PS4-1 (easy)\n" in text and "  PS4-3 (hard)\n" in text and "  PS4-2\n" in text
    assert "    -" not in text  # no line for a player who did not play a deal
    unplayed = [line for line in text.splitlines() if "not played" in line]
    assert len(unplayed) == 1 and unplayed[0].startswith("  not played: 9 of the 12 deals: ")
    assert "PS4-4, PS4-5" in unplayed[0]
    assert not any(line.startswith("   ") and "PS4-1" in line for line in text.splitlines())
    assert text == snapshot


def test_the_unplayed_deals_line_never_wraps_it_counts_what_it_cannot_name(tmp_path: Path) -> None:
    codes = [f"PS4-{n}" for n in range(100, 140)]
    (tmp_path / "m.yaml").write_text("deals: [" + ", ".join(["PS4-1", *codes]) + "]\n")
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "a.yaml").write_text(player_log("PS4-1", "ann"))
    out = spidercli.standings([str(tmp_path / "logs")], manifest=str(tmp_path / "m.yaml"))
    text = standings_text(out, wrap=80)
    (line,) = [line for line in text.splitlines() if "not played" in line]
    assert len(line) <= 80 and line.endswith(" more")
    assert "40 of the 41 deals: PS4-100, PS4-101" in line


def test_by_score_an_open_game_counts_by_wins_it_does_not(cup: Path) -> None:
    """The issue's case: one win each, and alice's open game's classic score puts her first by
    the summed score; by wins, bob's shorter win does."""
    by_score = spidercli.standings([str(cup / "logs")], manifest=str(cup / "cup.yaml"))
    assert [(s.player, s.wins) for s in by_score.standings] == [("alice", 1), ("bob", 1)]
    text = (cup / "cup.yaml").read_text().replace("rules: classic", "rules: classic\nranking: wins")
    (cup / "cup.yaml").write_text(text)
    by_wins = spidercli.standings([str(cup / "logs")], manifest=str(cup / "cup.yaml"))
    assert by_wins.ranking == "wins"
    assert [(s.rank, s.player, s.won_moves) for s in by_wins.standings] == [
        (1, "bob", 128),
        (2, "alice", 135),
    ]


def test_by_wins_the_fewest_moves_in_the_wins_break_a_tie(tmp_path: Path) -> None:
    """Two players of one win each: the shorter win ranks first, whatever else they played."""
    (tmp_path / "m.yaml").write_text("ranking: wins\ndeals: [PS4-1, PS4-2]\n")
    short, long_ = sorted(("PS4-1", "PS4-2"), key=lambda c: spidercli.settled(c).moves or 0)
    (tmp_path / "a.yaml").write_text(player_log(long_, "ann"))
    (tmp_path / "a2.yaml").write_text(player_log(short, "ann", keep=40))
    (tmp_path / "b.yaml").write_text(player_log(short, "ben"))
    out = spidercli.standings([str(tmp_path)], manifest=str(tmp_path / "m.yaml"))
    assert [(s.rank, s.player) for s in out.standings] == [(1, "ben"), (2, "ann")]
    again = (tmp_path / "m.yaml").read_text().replace("ranking: wins\n", "")
    (tmp_path / "m.yaml").write_text(again)
    by_score = spidercli.standings([str(tmp_path)], manifest=str(tmp_path / "m.yaml"))
    assert [s.player for s in by_score.standings] == ["ann", "ben"]


def test_the_json_names_the_ranking_each_deals_grade_and_whether_it_was_played(
    cup: Path,
) -> None:
    result = run("tournament", str(cup / "logs"), "-m", str(cup / "cup.yaml"), "-f", "json")
    assert result.exit_code == 0
    out = json.loads(result.stdout)
    assert out["ranking"] == "score"
    deals = {d["deal"]: d for d in out["deals"]}
    assert deals["PS4-1"]["grade"] == "easy" and deals["PS4-1"]["played"] is True
    assert deals["PS4-4"]["grade"] is None and deals["PS4-4"]["played"] is False
    assert all("won_moves" in s for s in out["standings"])


@pytest.mark.parametrize("lang", ["cs", "fi"])
def test_the_organisers_report_in_czech_and_finnish(
    cup: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion, lang: str
) -> None:
    monkeypatch.chdir(cup)
    text = (cup / "cup.yaml").read_text().replace("rules: classic", "rules: classic\nranking: wins")
    (cup / "cup.yaml").write_text(text)
    result = run("tournament", "logs", "-m", "cup.yaml", "--lang", lang)
    assert result.exit_code == 0, result.output
    assert "not played" not in result.stdout and "easy" not in result.stdout
    assert result.stdout == snapshot


def test_a_manifest_without_a_name_is_titled_by_its_file(cup: Path) -> None:
    text = (cup / "cup.yaml").read_text().replace("name: December cup\n", "")
    (cup / "unnamed.yaml").write_text(text)
    result = run("tournament", str(cup / "logs"), "-m", str(cup / "unnamed.yaml"))
    assert result.stdout.splitlines()[0].startswith("Tournament  ")
    assert "unnamed.yaml (classic rules)" in result.stdout.splitlines()[0]


@pytest.mark.parametrize(
    ("manifest", "line", "words"),
    [
        ("ranking: fastest\ndeals: [PS4-1]\n", 1, "ranking must be score or wins, not 'fastest'"),
        ("ranking: [wins]\ndeals: [PS4-1]\n", 1, "ranking"),
        ("deals:\n  - {game: PS4-1, grade: tough}\n", 2, "grade must be easy, medium or hard"),
        ("deals:\n  - {grade: easy}\n", 2, "needs its 'game'"),
        ("deals:\n  - {game: PS4-1, level: easy}\n", 2, "level"),
        ("deals:\n  - {game: PS4-0}\n", 2, "neither a game code nor a deal ID"),
        ("deals:\n  - {game: [PS4-1]}\n", 2, "must be text"),
        ("deals:\n  - {game: PS4-1, grade: !!int 3}\n", 2, ""),
        # the same deal twice, as a code in either case or as its deal ID: refused, not counted
        # twice (its two grades would have the last one win)
        (
            "deals:\n  - {game: PS4-1, grade: easy}\n  - {game: ps4-1, grade: hard}\n",
            3,
            "deals: 'ps4-1' is a deal given before, on line 2",
        ),
        (
            f"deals:\n  - PS4-2\n  - PS4-1\n  - {spidercli.deal('PS4-1').setup.deal_id}\n",
            4,
            "a deal given before, on line 3",
        ),
    ],
)
def test_a_bad_ranking_or_grade_is_refused_with_its_line(
    tmp_path: Path, manifest: str, line: int, words: str
) -> None:
    (tmp_path / "m.yaml").write_text(manifest)
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "a.yaml").write_text(player_log("PS4-1", "ann"))
    result = run("tournament", str(tmp_path / "logs"), "-m", str(tmp_path / "m.yaml"))
    assert result.exit_code == 2, result.output
    assert f"m.yaml:{line}:" in result.stderr
    assert words in result.stderr
    assert "Traceback" not in result.output


def test_a_picked_manifest_carries_its_name_ranking_and_reads_back(tmp_path: Path) -> None:
    path = tmp_path / "cup" / "cup.yaml"
    result = run(
        "deals", "PS4", "--pick", "4", "--seed", "3", "--title", "Cup",
        "--ranking", "wins", "--manifest", str(path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    read = load_manifest(str(path))
    assert read.name == "Cup" and read.ranking == "wins" and len(read.deals) == 4
    picked = spidercli.pick_deals("PS4", 4, seed=3)
    assert [label for _d, label in read.deals] == [e.game for e in picked.deals]
    assert dict(read.grades) == {
        e.setup().deal_id: e.grade.bucket for e in picked.deals if e.grade is not None
    }
    bad = run("deals", "PS4", "--pick", "2", "--ranking", "fast")
    assert bad.exit_code == 2 and "--ranking must be score or wins" in bad.stderr


def test_the_tournaments_name_is_shown_escaped(tmp_path: Path) -> None:
    """A name with a line break and a terminal's escape is shown as text, not played out."""
    (tmp_path / "m.yaml").write_text('name: "Cup\\nline2\\e[31mRED"\ndeals: [PS4-1]\n')
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "a.yaml").write_text(player_log("PS4-1", "ann"))
    result = run("tournament", str(tmp_path / "logs"), "-m", str(tmp_path / "m.yaml"))
    assert result.exit_code == 0, result.output
    first = result.stdout.splitlines()[0]
    assert "Cup\\x0aline2\\x1b[31mRED" in first and "\x1b" not in result.stdout
