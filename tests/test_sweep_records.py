"""``spidercli sweep`` and ``solve -o`` against what issue 29 found (items 4 to 8): output files
that are not regular files or cannot be written, refused at once; records read back that are
not as a sweep writes them (a field of the wrong type), or that would put a deal in a manifest
on a certificate that does not hold; two sweeps on one file; and a plan and a resume that are
streamed, not held whole."""

from __future__ import annotations

import fcntl
import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spidercli.errors import InputError, OutputError
from spidercli.game.codes import Setup, parse_code
from spidercli.sweeps import plan as sweep_plan
from spidercli.sweeps import records as sweep_records
from tests.helpers import sweep_to_end
from tests.processes import run_guarded
from tests.tools.sweep_limits import to_the_end, until_first_record

SPIDERCLI = [sys.executable, "-m", "spidercli"]
GUARD = 60.0
FAST = ["SD1-S1-AAAAAAB", "SD1-S1-AAAAAAC", "SD1-S1-AAAAAAD"]
BUDGET = ["--max-states", "30000", "--jobs", "1"]
# A deal whose search takes minutes with this budget (no beam wins it; its proof is long): an
# output that is refused only after the search would hang the guard.
SLOW = ["SD4-S1-MHWZCVX", "--timeout", "600"]
UNWINNABLE = "PS4-14934"  # proven unwinnable (a lock): no certificate can hold for it


def run(*args: str, guard: float = GUARD) -> subprocess.CompletedProcess[str]:
    return run_guarded([*SPIDERCLI, *args], guard)


@pytest.fixture(scope="module")
def won() -> dict[str, Any]:
    """A real won record (the first 1-suit Spiderette deal, as a sweep writes it)."""
    record = sweep_records.solve_deal((FAST[0], 60.0, 30_000, None))
    assert record["result"] == "won"
    return record


def jsonl(*records: dict[str, Any]) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def error_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("spidercli: error: "), result.stderr
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    return lines[0].removeprefix("spidercli: error: ")


# ------------------------------------------------------------ item 4: outputs refused at once


@pytest.fixture()
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize(
    ("name", "kind"),
    [("/dev/null", "a character device"), ("/dev/zero", "a character device"), ("fifo", "a FIFO")],
)
def test_an_output_that_is_not_a_regular_file_is_refused_at_once(
    name: str, kind: str, fifo: Path
) -> None:
    """``-o /dev/zero`` read until memory ran out, ``-o FIFO`` blocked for ever, ``-o /dev/null``
    was taken: each is refused before any deal is solved, without reading it."""
    path = str(fifo) if name == "fifo" else name
    line = error_line(run("sweep", *SLOW, "-o", path))
    assert line.startswith(f"{path}: is {kind}")
    assert line.endswith("not a regular file: only regular files are written")


def test_an_output_in_no_folder_or_under_a_file_is_refused_at_once(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    for path, why in (
        (tmp_path / "none" / "out.jsonl", "No such file or directory"),
        (blocker / "out.jsonl", "Not a directory"),
    ):
        assert error_line(run("sweep", *SLOW, "-o", str(path))) == (
            f"{path}: cannot be written: {why}"
        )


@pytest.mark.parametrize("name", ["/dev/null", "fifo", "none/m.yml"])
def test_a_manifest_that_cannot_be_written_is_refused_before_any_deal(
    name: str, fifo: Path, tmp_path: Path
) -> None:
    """It was refused only when the sweep ended, after every deal was solved."""
    path = {"fifo": str(fifo), "none/m.yml": str(tmp_path / "file" / "m.yml")}.get(name, name)
    (tmp_path / "file").write_text("")
    out = tmp_path / "out.jsonl"
    line = error_line(run("sweep", *SLOW, "-o", str(out), "--manifest", path))
    assert line.startswith(f"{Path(path).parent if name == 'none/m.yml' else path}")
    assert "cannot be written" in line
    assert not out.exists() or out.read_text() == ""


@pytest.mark.parametrize("name", ["/dev/null", "fifo", "none"])
def test_solve_refuses_its_output_before_searching(name: str, fifo: Path, tmp_path: Path) -> None:
    """``solve -o`` searched its whole budget, then threw the line away; now the file is looked
    at first (the search here would take minutes)."""
    path = {"fifo": str(fifo), "none": str(tmp_path / "none" / "win.yaml")}.get(name, name)
    for as_json in ([], ["--json"]):
        result = run("solve", *SLOW, "-o", path, *as_json)
        assert result.returncode == 2, result.stderr
        assert f"{path}: cannot be written: " in result.stderr
        if as_json:
            assert json.loads(result.stdout)["error"]["message"].startswith(f"{path}: ")


def test_resuming_reads_a_line_at_a_time_and_refuses_a_huge_one(tmp_path: Path) -> None:
    """A line longer than any record (4 MiB) is refused naming it, without holding it."""
    out = tmp_path / "out.jsonl"
    with out.open("wb") as handle:
        handle.write(b'{"game": "SD1-S1-AAAAAAB", "result": "gave-up"}\n')
        handle.write(b"x" * (sweep_records.MAX_RECORD_BYTES + 10) + b"\n")
    assert error_line(run("sweep", FAST[0], *BUDGET, "-o", str(out))) == (
        f"{out}:2: not a sweep record: the line is longer than 4,194,304 bytes"
    )


# ----------------------------------------------------- item 6: a field of the wrong type


@pytest.mark.parametrize(
    ("field", "written", "expected"),
    [
        ("states", '"abc"', "'states' is \"abc\", where a sweep writes a whole number, 0 or more"),
        ("states", "1e400", "'states' is 1e400, where a sweep writes a whole number, 0 or more"),
        (
            "moves",
            '"x"',
            "'moves' is \"x\", where a sweep writes a whole number, 0 or more, or null",
        ),
        ("states", "-1", "'states' is -1, where a sweep writes a whole number, 0 or more"),
        ("states", "true", "'states' is true, where a sweep writes a whole number, 0 or more"),
        (
            "states",
            str(1 << 64),
            f"'states' is {1 << 64}, where a sweep writes a whole number, 0 or more",
        ),
        (
            "seconds",
            "NaN",
            "'seconds' is NaN, where a sweep writes a number of seconds, 0 or more",
        ),
        ("log", '"\\ud800"', "'log' is \"\\ud800\", where a sweep writes text or null"),
        (
            "result",
            '"lost"',
            "'result' is \"lost\", where a sweep writes won, unwinnable or gave-up",
        ),
        (
            "game",
            '"sd1-s1-aaaaaab"',
            "'game' is \"sd1-s1-aaaaaab\", where a sweep writes a game code as spidercli names "
            "it (SP4-S1C-AAAAAAB, KP4-17)",
        ),
    ],
)
def test_a_record_of_the_wrong_type_is_named_with_its_line(
    field: str, written: str, expected: str, tmp_path: Path
) -> None:
    """It was "internal error ... please report it" (``int("abc")``, ``int(inf)``, ``"x":g``)."""
    out = tmp_path / "out.jsonl"
    fields = {"game": '"SD1-S1-AAAAAAC"', "result": '"gave-up"', "states": "5", field: written}
    bad = "{" + ", ".join(f'"{k}": {v}' for k, v in fields.items()) + "}"
    out.write_text('{"game": "SD1-S1-AAAAAAB", "result": "gave-up", "states": 1}\n' + bad + "\n")
    assert error_line(run("sweep", *FAST[:2], *BUDGET, "-o", str(out))) == (
        f"{out}:2: not a sweep record: {expected}"
    )


def test_a_won_record_needs_its_moves_and_log() -> None:
    with pytest.raises(sweep_records.NotRecord, match="a won record with no moves"):
        sweep_records.parse_record(b'{"game": "SD1-S1-AAAAAAB", "result": "won"}')
    record = sweep_records.parse_record(
        b'{"game": "SD1-S1-AAAAAAB", "result": "won", "moves": 3, "log": ""}'
    )
    assert record["moves"] == 3


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_any_line_is_a_record_or_not_one(data: bytes) -> None:
    """Whatever the bytes, ``parse_record`` gives a record or ``NotRecord``, nothing else."""
    try:
        sweep_records.parse_record(data)
    except sweep_records.NotRecord as err:
        assert err.message.startswith("not a sweep record: ")


# ------------------------------------------------------- item 5: certificates that hold


def _forged(won: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**won, **changes}


def _manifest_run(
    tmp_path: Path, *records: dict[str, Any], deals: list[str] | None = None
) -> tuple[int, str, Path]:
    out = tmp_path / "out.jsonl"
    out.write_text(jsonl(*records))
    cup = tmp_path / "cup" / "m.yml"
    codes = deals or [r["game"] for r in records]
    result = run("sweep", *codes, *BUDGET, "-o", str(out), "--manifest", str(cup))
    return result.returncode, result.stderr, cup


def test_a_forged_win_never_enters_the_manifest(won: dict[str, Any], tmp_path: Path) -> None:
    """Another deal's win appended as PS4-14934's (proven unwinnable) put it in the manifest,
    with that win as its certificate: now refused, naming the line."""
    status, err, cup = _manifest_run(tmp_path, won, _forged(won, game=UNWINNABLE))
    assert status == 2
    setup = Setup.from_code(parse_code(UNWINNABLE))
    assert err.splitlines() == [
        f"spidercli: error: {tmp_path / 'out.jsonl'}:2: the record of {UNWINNABLE} does not "
        f'hold: its deal_id "{won["deal_id"]}" is not that of {UNWINNABLE} '
        f"({setup.deal_id}); it is not certified (remove the line, and the deal is solved "
        "again)"
    ]
    assert not cup.exists()
    assert not (cup.parent / "certificates" / f"{UNWINNABLE}.yaml").exists()


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ("another deal's log", "its log is a game of SD1-S1-AAAAAAB, not of PS4-14934"),
        ("moves", "its log wins in {moves} moves, not in the {more} the record says"),
        ("illegal", "its log is refused at entry 1 `9>9` (no-such-column)"),
        ("open", "its log does not win: replayed, it ends open"),
        ("unreadable", "its log cannot be read: log:2: not valid YAML: "),
    ],
)
def test_a_certificate_is_replayed_against_its_own_deal(
    change: str, why: str, won: dict[str, Any], tmp_path: Path
) -> None:
    moves = won["moves"]
    log = won["log"]
    if change == "another deal's log":
        setup = Setup.from_code(parse_code(UNWINNABLE))
        record = _forged(won, game=UNWINNABLE, deal_id=setup.deal_id)
    elif change == "moves":
        record = _forged(won, moves=moves + 1)
    elif change == "illegal":
        head, _, tail = log.partition("moves:\n")
        record = _forged(won, log=head + "moves:\n  - 9>9\n" + tail)
    elif change == "open":
        record = _forged(won, log=log[: log.index("moves:\n")] + "moves:\n  - deal\n")
    else:
        record = _forged(won, log="{")
    status, err, cup = _manifest_run(tmp_path, record)
    assert status == 2, err
    assert why.format(moves=moves, more=moves + 1) in err, err
    assert f"out.jsonl:1: the record of {record['game']} does not hold: " in err
    assert not cup.exists()


def test_shards_that_hold_are_certified(won: dict[str, Any], tmp_path: Path) -> None:
    """Records of other runs, concatenated: each replayed, then certified as before."""
    status, err, cup = _manifest_run(tmp_path, won, deals=FAST[:2])
    assert status == 0, err
    assert (cup.parent / "certificates" / f"{FAST[0]}.yaml").read_text() == won["log"]
    assert f"  - {FAST[0]}  # " in cup.read_text()
    assert "(1 record from an earlier run)" in err


def test_certificate_problem_of_a_record_that_holds(won: dict[str, Any]) -> None:
    assert sweep_records.certificate_problem(won) is None
    gave_up = {**won, "result": "gave-up", "moves": None, "log": None}
    assert sweep_records.certificate_problem(gave_up) is None
    assert sweep_records.certificate_problem({**gave_up, "deal_id": None}) is not None


# ------------------------------------------------------------ item 7: one sweep a file


def test_a_file_another_sweep_holds_is_refused(tmp_path: Path) -> None:
    """Two sweeps on one file both solved and recorded every deal: the file is locked."""
    out = tmp_path / "out.jsonl"
    out.write_text("")
    with out.open("a") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert error_line(run("sweep", *SLOW, "-o", str(out))) == (
            f"{out}: another sweep is writing its records to this file (it holds the file's "
            "lock); wait for it to end, or give this one another -o file"
        )
    assert out.read_text() == ""
    result = run("sweep", FAST[0], *BUDGET, "-o", str(out))  # the lock let go: it runs
    assert result.returncode == 0, result.stderr


def test_two_sweeps_started_together_record_each_deal_once(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    args = [*SPIDERCLI, "sweep", *FAST, *BUDGET, "-o", str(out)]
    procs = [
        subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    ended = [p.communicate(timeout=GUARD) for p in procs]
    statuses = sorted(p.returncode for p in procs)
    games = [json.loads(line)["game"] for line in out.read_text().splitlines()]
    assert sorted(games) == sorted(FAST), ended  # each once
    assert statuses in ([0, 0], [0, 2]), ended
    if statuses == [0, 2]:
        assert any("another sweep is writing" in err for _, err in ended)


# --------------------------------------------------- item 8: planned lazily, resumed by line


def test_the_largest_sweep_is_planned_at_once() -> None:
    """Ten million deals: counted, none made (the plan made and held every code: 70 s)."""
    start = time.process_time()
    planned = sweep_plan.plan([sweep_plan.random_draw(sweep_plan.MAX_DEALS, 4, 1)])
    assert planned.size == sweep_plan.MAX_DEALS
    codes = planned.codes()
    assert next(codes) == sweep_plan.random_draw(1, 4, 1).code(0)
    assert time.process_time() - start < 1.0


def test_the_largest_sweep_writes_its_first_record_at_once(tmp_path: Path) -> None:
    """It took 70 s and 1.38 GB before its first record."""
    out = tmp_path / "out.jsonl"
    args = ["sweep", "--random", str(sweep_plan.MAX_DEALS), "--suits", "1", "--max-states", "1"]
    took, peak = until_first_record([*args, "--jobs", "1", "-o", str(out)], out)
    assert took < 20 and peak < 150 << 20, (took, peak)


def test_a_resume_holds_the_codes_not_the_records(tmp_path: Path) -> None:
    """100,000 records read back (25 MB): what is held grows by a table of their codes and
    figures (some 7 MB; the whole process peaked at 34 MB), not by the file and its records
    (the process peaked at 121 MB before)."""
    out = tmp_path / "out.jsonl"
    n = 100_000
    line = '{"game": "KP1-%d", "deal_id": "0123456789abcdef", "rules": "classic", "result": '
    line += '"gave-up", "moves": null, "lower_bound": 52, "states": 1000000, "seconds": 60.001, '
    line += '"log": null, "states_to_win": null}\n'
    with out.open("w") as handle:
        handle.writelines(line % i for i in range(1, n + 1))
    _, _, peak, status, err = to_the_end(["sweep", f"KP1-1..{n}", "--jobs", "1", "-o", str(out)])
    assert status == 0, err
    assert f"{n} deals: 0 won, 0 unwinnable, {n} gave up" in err
    assert peak < 70 << 20, peak


# --------------------------------------------------------------- the table of deals met


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 5000), max_size=3000))
def test_the_table_of_deals_met_is_a_set(numbers: list[int]) -> None:
    done = sweep_records.Done()
    seen: dict[str, int] = {}
    for i, n in enumerate(numbers):
        code = f"KP4-{n + 1}"
        assert (done.find(code) >= 0) == (code in seen)
        done.put(code, i)
        seen[code] = i
    assert len(done) == len(seen)
    for code, where in seen.items():
        assert done.where(done.find(code)) == where


def test_a_sweep_in_process_reads_back_and_skips(won: dict[str, Any], tmp_path: Path) -> None:
    """run_sweep itself: a record read back is counted and not solved again; a deal named twice
    is solved once; the summary counts each deal once."""
    out = tmp_path / "out.jsonl"
    out.write_text(jsonl(won))
    stderr = io.StringIO()
    status = sweep_to_end(
        [FAST[0], FAST[1], FAST[1], FAST[0]],
        timeout=60.0,
        max_states=30_000,
        output=str(out),
        stdout=io.StringIO(),
        stderr=stderr,
    )
    assert status == 0
    assert [json.loads(x)["game"] for x in out.read_text().splitlines()] == FAST[:2]
    assert "2 deals: 2 won" in stderr.getvalue()
    assert "(1 record from an earlier run)" in stderr.getvalue()
    with pytest.raises(OutputError, match="cannot be written: it is a folder"):
        sweep_to_end(
            [FAST[0]], timeout=1.0, output=str(tmp_path), stdout=io.StringIO(), stderr=stderr
        )
    with pytest.raises(InputError, match="not a sweep record"):
        (tmp_path / "bad.jsonl").write_text("{}\n")
        sweep_to_end(
            [FAST[0]],
            timeout=1.0,
            output=str(tmp_path / "bad.jsonl"),
            stdout=io.StringIO(),
            stderr=stderr,
        )


@pytest.mark.parametrize(
    ("lang", "record", "device"),
    [
        (
            "cs",
            "není záznam sweep: 'states' je \"abc\", kde sweep zapisuje: celé číslo",
            "je znakové",
        ),
        (
            "fi",
            "ei ole sweepin tietue: 'states' on \"abc\"; sweep kirjoittaa siihen",
            "on merkkilaite",
        ),
    ],
)
def test_the_refusals_are_said_in_the_language(
    lang: str, record: str, device: str, tmp_path: Path
) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text('{"game": "SD1-S1-AAAAAAB", "result": "gave-up", "states": "abc"}\n')
    assert record in error_line(run("sweep", FAST[0], *BUDGET, "-o", str(out), "--lang", lang))
    assert device in error_line(run("sweep", FAST[0], "-o", "/dev/null", "--lang", lang))
