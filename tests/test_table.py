"""The settled table (spidercli/sweeps/table.py, spidercli/sweeps/tables/): every certificate it
ships wins its own deal, every proof is found again by the solver, and ``spidercli deals`` shows,
prints and picks from it."""

from __future__ import annotations

import json
import lzma
import tempfile
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import spidercli
from spidercli.game.codes import Setup, parse_code
from spidercli.game.engine import Game
from spidercli.game.rules import CLASSIC
from spidercli.judging.tournament import load_manifest
from spidercli.solver.grades import Grade
from spidercli.sweeps.table import (
    SETS,
    DealSet,
    Picked,
    Settled,
    TableError,
    deal_set,
    held,
    parse_line,
    pick,
    read_table,
    shuffled,
)
from tests.helpers import run


@pytest.fixture(autouse=True)
def _quick_grades(quick_grades: list[str]) -> None:
    """Picks grade each deal drawn: quickly here (conftest.quick_grades)."""


HELD = held()


def test_the_table_ships_the_4_suit_set() -> None:
    assert "PS4" in HELD


@pytest.mark.parametrize("name", HELD)
def test_every_certificate_wins_its_own_deal(name: str) -> None:
    """The rule regression corpus: each won deal's line replayed by the engine from its deal
    (the fast path; tests/test_play_all.py holds it equal to playing one action at a time) is a
    win in exactly the moves the table says, with no action refused."""
    table = deal_set(name)
    won = 0
    for entry in table.entries.values():
        if entry.result != "won":
            continue
        game = Game.from_setup(Setup.from_code(parse_code(entry.game)), CLASSIC)
        done, refusal = game.play_all(entry.actions(), record=False)
        assert refusal is None, (entry.game, done, refusal)
        assert game.result == "won" and game.moves == entry.moves == len(entry.line), entry.game
        assert entry.lower_bound is not None and entry.lower_bound <= entry.moves, entry.game
        won += 1
    assert won == table.won


@pytest.mark.parametrize("name", HELD)
def test_every_proof_is_found_again_by_solve(name: str) -> None:
    """An unwinnable deal's proof is what ``spidercli solve`` finds: a lock of the same ranks,
    or a whole space searched (the same count of positions)."""
    table = deal_set(name)
    for entry in table.entries.values():
        if entry.result != "unwinnable":
            continue
        assert entry.proof is not None
        solution = spidercli.solve(entry.game, timeout=None)
        assert solution.result == "unwinnable", entry.game
        if entry.proof.kind == "lock":
            assert tuple(sorted(solution.locked or ())) == entry.proof.ranks
        else:
            assert solution.states == entry.proof.positions


def test_pysols_locked_deals_are_unwinnable_in_the_table() -> None:
    table = deal_set("PS4")
    for number in (1748, 14934):
        entry = table.get(number)
        if entry.result == "unknown" and entry.tried is None:
            pytest.skip("the table has not reached this deal yet")
        assert entry.result == "unwinnable" and entry.proof is not None
        assert entry.proof.kind == "lock"


def test_a_set_counts_its_deals() -> None:
    table = deal_set("PS4")
    assert table.deals == 32000
    assert table.won + table.unwinnable + table.unknown == 32000
    assert table.complete == (table.unknown == 0)
    assert sum(1 for _ in table) == 32000
    assert repr(table).startswith("<DealSet PS4: ")


# ---------------------------------------------------------------------------- the files


INFO = SETS["PS4"]


def test_a_table_file_is_read_line_by_line() -> None:
    text = (
        "# set PS4\n# made today\n"
        "3 won 2 1 5/8 1>2 deal\n"
        "7 unwinnable - - - lock 3 6\n"
        "9 unwinnable - - - search 1234\n"
        "11 unknown - 57 - gave-up 60\n"
    )
    table = read_table(INFO, text, "t")
    assert (table.won, table.unwinnable, table.unknown) == (1, 2, 31997)
    assert table.get(3).line == ("1>2", "deal") and table.get(3).grade == Grade(5, 8)
    proof = table.get(7).proof
    assert proof is not None and proof.ranks == (3, 6)
    assert table.get(9).proof is not None and table.get(9).proof.positions == 1234  # type: ignore[union-attr]
    assert table.get(11).tried == "gave-up 60" and table.get(11).lower_bound == 57
    assert table.get(12).result == "unknown" and table.get(12).tried is None
    assert table.made == "today"


def test_a_won_deals_actions_are_split_when_asked_for_and_equal_the_lines() -> None:
    """Entries splits a certificate only when its entry is asked for; the entry is the one
    parse_line makes of the line, and the set's counts and won numbers read no certificate."""
    lines = [
        "3 won 2 1 1/8 1>2 deal",
        "4 unknown - 9 - gave-up 60",
        "5 won 3 2 - 1>2  10>3:2\tdeal",
    ]
    table = read_table(INFO, "\n".join(lines) + "\n", "t")
    entries = table.entries
    assert list(entries) == [3, 4, 5] and len(entries) == 3 and 3 in entries and 6 not in entries
    counts = (entries.count("won"), entries.count("unknown"), entries.numbers("won"))
    assert counts == (2, 1, [3, 5])
    assert all(not e.line for e in entries._entries.values())  # nothing split yet
    assert entries[5] == parse_line(INFO, lines[2], "t")
    assert entries[5].line == ("1>2", "10>3:2", "deal")
    assert not entries._entries[5].line  # split when asked for, not kept (memory)
    won = [e.line for e in table if e.result == "won"]
    assert won == [("1>2", "deal"), ("1>2", "10>3:2", "deal")]
    assert entries[4] == parse_line(INFO, lines[1], "t")
    with pytest.raises(KeyError):
        entries[6]


@pytest.mark.parametrize(
    "line",
    [
        "3 won 2 1 -",  # a win without its line
        "3 won x 1 - 1>2",
        "3 drawn - - - x",
        "3 unwinnable - - - luck 3",
        "3 unwinnable - - - search",
        "3 won 2 1 9/8 1>2",  # more wins than playouts
        "0 won 2 1 - 1>2",  # out of the range
        "32001 won 2 1 - 1>2",
        "3",
        "3 won -2 1 - 1>2",  # no negative counts
        "3 won 0 0 - 1>2",
        "3 won 2 3 - 1>2",  # a lower bound over the line's moves
        "+3 won 2 1 - 1>2",
        "3_0 won 2 1 - 1>2",
        "3 won 2 1 1/0 1>2",
        "3 won 2 1 \u0661/8 1>2",
        "3 unwinnable - - - lock",  # a lock on no rank
        "3 unwinnable - - - lock 14",
        "3 unwinnable - - - lock 0",
        "3 unwinnable - - -",
        "3 unwinnable - - - search 0",
        "3 unwinnable - - - search 5 6",
        "3 unknown - 57 - gave-up abc",
        "3 unknown - -5 - gave-up 60",
        "3 unwinnable 5 7 3/8 lock 3",  # an unwinnable deal has no moves, bound or grade
        "3 unwinnable - - - lock 3 3",
        "3 unknown 5 57 - gave-up 60",
    ],
)
def test_a_line_that_is_not_the_tables_is_refused(line: str) -> None:
    with pytest.raises(TableError):
        read_table(INFO, f"# set PS4\n{line}\n", "t")


def test_a_deal_given_twice_or_another_sets_file_is_refused() -> None:
    with pytest.raises(TableError, match="repeated"):
        read_table(INFO, "3 won 1 1 - 1>2\n3 won 1 1 - 1>2\n", "t")
    with pytest.raises(TableError, match="out of order"):
        read_table(INFO, "5 won 1 1 - 1>2\n3 won 1 1 - 1>2\n", "t")
    with pytest.raises(TableError, match="PS2"):
        read_table(INFO, "# set PS2\n", "t")


def test_a_certificate_that_does_not_win_is_a_table_error() -> None:
    table = read_table(INFO, "3 won 1 1 - 1>2\n", "t")
    with pytest.raises(TableError, match="does not win"):
        table.get(3).log()


def test_the_shipped_files_are_xz_text_with_their_header() -> None:
    for name in HELD:
        path = Path(spidercli.__file__).parent / "sweeps" / "tables" / f"{name}.txt.xz"
        head = lzma.decompress(path.read_bytes()).decode()[:200]
        assert head.startswith(f"# set {name}\n")


# ---------------------------------------------------------------------------- the pick


def test_the_shuffle_is_splitmix64s_and_the_same_everywhere() -> None:
    """Pinned: a seed gives these numbers on every machine (SplitMix64, Fisher-Yates from the
    front), and a prefix of the shuffle is the shuffle's prefix."""
    numbers = list(range(1, 101))
    drawn = list(shuffled(numbers, 2026))
    assert sorted(drawn) == numbers
    assert drawn[:3] == list(shuffled(numbers, 2026))[:3]
    assert drawn[:5] == PINNED_2026
    assert list(shuffled(numbers, 2027))[:5] != drawn[:5]


PINNED_2026 = [86, 48, 68, 41, 80]


def test_a_pick_is_the_same_for_the_same_seed_and_every_deal_is_won() -> None:
    a = spidercli.pick_deals("PS4", 5, seed=11)
    b = spidercli.pick_deals("ps4", 5, seed=11)
    assert a == b and len(a.deals) == 5
    assert spidercli.pick_deals("PS4", 5, seed=12) != a
    assert all(e.result == "won" and e.log() is not None for e in a.deals)
    assert len({e.game for e in a.deals}) == 5
    assert repr(a) == "<Picked PS4: 5 deals, seed 11>"


def test_a_pick_larger_than_the_set_is_refused_before_any_deal_is_graded(
    quick_grades: list[str],
) -> None:
    won = spidercli.deals("PS4").won
    with pytest.raises(spidercli.InputError, match=f"only {won:,} winnable deals|only {won} "):
        spidercli.pick_deals("PS4", 40000)
    assert quick_grades == []


def test_every_deal_picked_is_graded_by_the_fair_player(quick_grades: list[str]) -> None:
    seen: list[str] = []
    picked = spidercli.pick_deals("PS4", 6, seed=4, on_grade=seen.append)
    assert quick_grades == seen == [e.game for e in picked.deals]
    assert all(e.grade is not None for e in picked.deals)
    text = picked.manifest_text()
    for e in picked.deals:
        assert e.grade is not None and f"{{game: {e.game}, grade: {e.grade.bucket}}}" in text


def test_a_pick_of_a_grade_keeps_those_and_grades_the_rest_it_draws(
    quick_grades: list[str],
) -> None:
    picked = spidercli.pick_deals("PS4", 3, seed=4, grade="hard")
    assert [e.grade.bucket for e in picked.deals if e.grade] == ["hard"] * 3
    assert quick_grades[-1] == picked.deals[-1].game  # it stops at the third hard deal
    assert set(quick_grades) > {e.game for e in picked.deals}  # others drawn, graded, left
    assert spidercli.pick_deals("PS4", 3, seed=4, grade="hard") == picked


def test_a_grade_the_table_holds_is_used_not_played_again() -> None:
    text = "# set PS4\n5 won 2 1 5/8 1>2 deal\n9 won 2 1 - 1>2 deal\n"
    table = read_table(SETS["PS4"], text, "t")
    graded: list[str] = []

    def grader(entry: Settled) -> Grade:
        graded.append(entry.game)
        return Grade(0, 8)

    picked = pick(table, 2, seed=1, grader=grader)
    assert graded == ["PS4-9"]
    assert {e.game: e.grade for e in picked.deals} == {"PS4-5": Grade(5, 8), "PS4-9": Grade(0, 8)}


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"count": 0}, ValueError),
        ({"count": "3"}, TypeError),
        ({"count": 3, "seed": -1}, ValueError),
        ({"count": 3, "seed": 1 << 64}, ValueError),
        ({"count": 3, "seed": True}, TypeError),
        ({"count": 3, "grade": "tough"}, ValueError),
        ({"count": 3, "title": 5}, TypeError),
    ],
)
def test_the_apis_pick_checks_its_arguments(kwargs: dict[str, object], error: type) -> None:
    with pytest.raises(error):
        spidercli.pick_deals("PS4", **kwargs)  # type: ignore[arg-type]


def test_the_api_refuses_a_set_or_deal_the_table_does_not_hold() -> None:
    for call, arg in (
        (spidercli.deals, "KP4"),
        (spidercli.settled, "KP4-17"),
        (spidercli.settled, "PS4-0"),
        (spidercli.settled, "PS4-32001"),
        (spidercli.settled, "PS4"),
        (spidercli.settled, "PS4-١٢"),
    ):
        with pytest.raises(spidercli.InputError):
            call(arg)
    with pytest.raises(TypeError):
        spidercli.deals(4)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- the command


def test_deals_set_json_has_the_summarys_keys() -> None:
    result = run("deals", "PS4", "--json")
    assert result.exit_code == 0
    got = json.loads(result.stdout)
    assert list(got) == ["set", "deals", "won", "unwinnable", "unknown", "complete"]
    assert got == deal_set("PS4").to_json()


def test_deals_set_text_says_its_counts() -> None:
    result = run("deals", "PS4")
    assert result.exit_code == 0
    table = deal_set("PS4")
    assert result.stdout.startswith("PS4: PySol's Spider deals, 4 suits, deals 1-32000\n")
    assert f"{table.won:,} won" in result.stdout


def won_deal(table: DealSet) -> str:
    return table.get(min(table.won_numbers())).game


def test_deals_code_json_has_the_records_keys_and_its_log_replays() -> None:
    code = won_deal(deal_set("PS4"))
    result = run("deals", code, "--json")
    assert result.exit_code == 0
    got = json.loads(result.stdout)
    assert list(got) == ["game", "result", "moves", "lower_bound", "log", "proof", "grade"]
    assert got["game"] == code and got["result"] == "won"
    report = spidercli.replay(spidercli.parse_log(got["log"]))
    assert report.status == "valid" and report.result == "won"
    assert report.game.moves == got["moves"]


def test_deals_code_log_is_the_certificate_replay_verifies(tmp_path: Path) -> None:
    code = won_deal(deal_set("PS4"))
    result = run("deals", code, "--log")
    assert result.exit_code == 0
    path = tmp_path / "cert.yaml"
    path.write_text(result.stdout)
    assert run("replay", str(path), "--show", "none").exit_code == 0


def test_deals_log_of_a_deal_without_certificate_exits_1() -> None:
    table = deal_set("PS4")
    missing = next(e.game for e in table if e.result != "won")
    result = run("deals", missing, "--log")
    assert result.exit_code == 1 and result.stdout == ""


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["KP4"], "not in spidercli's table"),
        (["XX"], "not in spidercli's table"),
        (["PS4-0"], "deals 1-32000"),
        (["PS4-abc"], "not a set's deal"),
        (["PS4", "--seed", "3"], "--seed goes with --pick"),
        (["PS4", "--grade", "easy"], "--grade goes with --pick"),
        (["PS4", "--manifest", "m.yaml"], "--manifest goes with --pick"),
        (["PS4", "--title", "Cup"], "--title goes with --pick"),
        (["PS4-17", "--pick", "3"], "--pick takes a set"),
        (["PS4", "--log"], "--log takes a deal"),
        (["PS4-17", "--log", "--json"], "--log prints a log"),
        (["PS4", "--pick", "3", "--grade", "tough"], "--grade must be one of"),
        (["PS4", "--pick", "0"], "0"),
        (["PS4", "--pick", "3", "--seed", "-1"], "-1"),
        (["PS4", "--pick", "99999"], "fewer than"),
        (["PS4-" + "1" * 5000], "no set has a deal numbered so high"),  # past int()'s 4,300 digits
        (["PS4-" + "0" * 30 + "17", "--log", "--json"], "--log prints a log"),
        (["PS4", "--pick", "1", "--title", ""], "--title must not be empty"),
        (["PS4", "--pick", "1", "--title", " \t"], "--title must not be empty"),
        (["PS4", "--pick", "1", "--title", "bad\udcffbyte"], "must be UTF-8 text: 'bad\\xffbyte'"),
        (["PS4", "--pick", "1", "--manifest", ""], "--manifest needs a file's name"),
        (["PS4", "--pick", "1", "--manifest", "/dev/null"], "not a regular file"),
    ],
)
def test_deals_refuses_bad_input_with_exit_2(args: list[str], words: str) -> None:
    result = run("deals", *args)
    assert result.exit_code == 2, result.output
    assert words in result.stderr
    assert "Traceback" not in result.output


def test_deals_bad_input_with_json_is_the_error_object() -> None:
    result = run("deals", "KP4", "--json")
    assert result.exit_code == 2
    assert set(json.loads(result.stdout)) == {"error"}


def test_deals_pick_writes_a_manifest_tournament_reads_and_certificates(tmp_path: Path) -> None:
    manifest = tmp_path / "cup" / "cup.yaml"
    result = run(
        "deals",
        "PS4",
        "--pick",
        "3",
        "--seed",
        "5",
        "--title",
        "Cup: 'one'",
        "--manifest",
        str(manifest),
    )
    assert result.exit_code == 0, result.output
    picked = spidercli.pick_deals("PS4", 3, seed=5)
    text = manifest.read_text()
    for entry in picked.deals:
        assert entry.grade is not None
        assert f"  - {{game: {entry.game}, grade: {entry.grade.bucket}}}  #" in text
        cert = tmp_path / "cup" / "certificates" / f"{entry.game}.yaml"
        assert cert.read_text() == entry.log()
    assert "name: \"Cup: 'one'\"" in text
    read = load_manifest(str(manifest))
    assert read.name == "Cup: 'one'"
    assert [label for _id, label in read.deals] == [e.game for e in picked.deals]


def test_deals_pick_into_a_folder_that_cannot_be_made_exits_2(tmp_path: Path) -> None:
    (tmp_path / "certificates").write_text("a file where the folder goes")
    result = run("deals", "PS4", "--pick", "2", "--manifest", str(tmp_path / "m.yaml"))
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_make_tables_retry_list_is_the_gave_ups_not_settled_or_retried(tmp_path: Path) -> None:
    from tests.tools.table import gave_up

    def rec(game: str, result: str) -> str:
        return json.dumps({"game": game, "result": result}) + "\n"

    first = tmp_path / "ps4.jsonl"
    first.write_text(
        rec("PS4-1", "won")
        + rec("PS4-2", "gave-up")
        + rec("PS4-3", "gave-up")
        + rec("PS4-3", "won")  # settled by a later run: not retried
        + rec("PS4-4", "gave-up")
        + rec("PS4-4", "gave-up")  # given up twice: listed once
        + rec("PS2-5", "gave-up")  # another set's
        + rec("PS4-6", "gave-up")
        + "not json\n"
    )
    retry = tmp_path / "ps4-retry.jsonl"
    info = SETS["PS4"]
    assert gave_up(info, str(first), str(retry)) == ["PS4-2", "PS4-4", "PS4-6"]
    retry.write_text(rec("PS4-6", "gave-up"))
    assert gave_up(info, str(first), str(retry)) == ["PS4-2", "PS4-4"]


def test_the_docs_figures_are_the_shipped_tables() -> None:
    """docs/deals.md says what the table holds as `python -m tests.tools.table doc` writes it."""
    from tests.tools.table import DOC, DOC_END, DOC_START, doc_figures

    text = DOC.read_text(encoding="utf-8")
    assert DOC_START in text and DOC_END in text
    section = text.partition(DOC_START)[2].partition(DOC_END)[0]
    assert section == "\n" + doc_figures() + "\n"


def test_the_figures_say_complete_only_when_every_deal_is_settled() -> None:
    """A set with deals untried or unknown names them and says the sweep goes on; a set with
    every deal settled says complete and names no deal left."""
    from dataclasses import replace

    from tests.tools.table import figures

    small = replace(INFO, last=4)
    partial = figures(read_table(small, "1 won 2 1 - 1>2 deal\n3 unknown - 57 - gave-up 60\n", "t"))
    assert "**1 won, 0 proven unwinnable, 3 not settled**" in partial
    assert "Not tried yet: deals 2, 4 (2); the sweep goes on" in partial
    assert "complete" not in partial
    text = "1 won 2 1 - 1>2 deal\n2 won 2 1 - 1>2 deal\n3 unwinnable - - - lock 3\n"
    text += "4 won 1 1 - 1>2\n"
    whole = figures(read_table(small, text, "t"))
    assert "**complete: every deal settled, 3 won and 1 proven unwinnable**" in whole
    assert "none is left unknown" in whole and "Not tried" not in whole
    assert "- `PS4-3` is proven unwinnable: a lock: no card of rank 3 can ever be face up." in whole


def test_a_long_zero_padded_number_is_still_its_deal() -> None:
    assert spidercli.settled("PS4-" + "0" * 40 + "17").game == "PS4-17"
    assert spidercli.settled("PS4-" + "0" * 9000 + "17").game == "PS4-17"  # past int()'s limit


@pytest.mark.parametrize("where", ["a folder", "a link to /dev/null"])
def test_deals_pick_into_a_manifest_it_cannot_write_writes_nothing(
    tmp_path: Path, quick_grades: list[str], where: str
) -> None:
    """The manifest's path is checked before any deal is drawn or graded and before any
    certificate is written: a refused run leaves nothing behind."""
    target = tmp_path / "m.yaml"
    if where == "a folder":
        target.mkdir()
    else:
        target.symlink_to("/dev/null")
    result = run("deals", "PS4", "--pick", "2", "--manifest", str(target))
    assert result.exit_code == 2 and "cannot be written" in result.stderr, result.output
    assert not (tmp_path / "certificates").exists() and quick_grades == []
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["KP4", "--pick", "2"], "not in spidercli's table"),
        (["PS4", "--pick", "99999"], "fewer than"),
        (["PS4", "--pick", "2", "--grade", "tough"], "--grade must be one of"),
    ],
)
def test_deals_pick_refused_after_the_manifests_check_leaves_no_folder(
    tmp_path: Path, args: list[str], words: str
) -> None:
    """The manifest's folders are checked, not made, before the set and the count are: a run
    refused for them leaves nothing."""
    result = run("deals", *args, "--manifest", str(tmp_path / "new" / "m.yaml"))
    assert result.exit_code == 2 and words in result.stderr, result.output
    assert list(tmp_path.iterdir()) == []


def test_deals_pick_into_a_name_ending_in_a_slash_or_a_dangling_link(
    tmp_path: Path, quick_grades: list[str]
) -> None:
    slash = run("deals", "PS4", "--pick", "1", "--manifest", f"{tmp_path}/newdir/")
    assert slash.exit_code == 2 and "it is a folder" in slash.stderr
    assert list(tmp_path.iterdir()) == []
    link = tmp_path / "m.yaml"
    link.symlink_to(tmp_path / "elsewhere" / "cup.yaml")  # a folder not there yet
    made = run("deals", "PS4", "--pick", "1", "--manifest", str(link))
    assert made.exit_code == 0, made.output
    assert (tmp_path / "elsewhere" / "cup.yaml").read_text().startswith("# 1 winnable deal ")
    assert len(list((tmp_path / "certificates").iterdir())) == 1


def test_a_manifest_folder_that_cannot_hold_files_is_refused_before_the_pick(
    tmp_path: Path, quick_grades: list[str]
) -> None:
    (tmp_path / "file").write_text("a file where a folder goes")
    result = run("deals", "PS4", "--pick", "1", "--manifest", str(tmp_path / "file" / "m.yaml"))
    assert result.exit_code == 2 and "cannot be written" in result.stderr
    assert quick_grades == []


@given(st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=40).filter(str.strip))
@example("del\x7f nel\x85 c1\x9f ls\u2028 ps\u2029 bom\ufeff \ufffe\uffff")
@example("Cup: 'one' \"two\" #3 \\ {a: b} [c] & *d !e %f @g `h`\n\t\r")
@example(" null ")
@settings(max_examples=300, deadline=None)
def test_any_title_reads_back_from_the_manifest_exactly(title: str) -> None:
    """Every title a user can give (any text: controls, DEL, NEL, line separators, the BOM,
    U+FFFE...) is written so that the tournament reads the same title back."""
    entry = Settled("PS4-17", "won", 174, 55)
    text = Picked("PS4", 0, None, title, (entry,)).manifest_text()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.yaml"
        path.write_text(text, encoding="utf-8")
        assert load_manifest(str(path)).name == title


@pytest.mark.parametrize("loader", ["SafeLoader", "CSafeLoader"])
def test_a_quoted_title_reads_back_under_either_yaml_loader(loader: str) -> None:
    import yaml

    from spidercli.logs.writer import yaml_quoted

    if not hasattr(yaml, loader):
        pytest.skip(f"PyYAML without {loader}")
    text = "".join(map(chr, range(1, 0x800))) + "\u2028\u2029\ufeff\ufffe\uffff\U0001f600\x85"
    assert yaml.load("name: " + yaml_quoted(text), Loader=getattr(yaml, loader)) == {"name": text}


def test_deals_pick_takes_grade_and_ranking_in_any_case_and_counts_in_words(
    tmp_path: Path, quick_grades: list[str]
) -> None:
    path = tmp_path / "m.yaml"
    result = run(
        "deals", "PS4", "--pick", "1", "--grade", "HARD", "--ranking", "Wins",
        "--manifest", str(path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    text = path.read_text()
    assert text.startswith("# 1 winnable deal of ") and "--grade hard --ranking wins." in text
    assert "ranking: wins\n" in text and "grade: hard}" in text
    assert result.stderr.startswith(f"wrote {path} and 1 certificate beside it")
