"""``spidercli sweep``: ranges and shards, the records, resuming, a cut last line, Ctrl-C, the
tournament manifest and its certificates, and the inputs it refuses.

The deals are 1-suit Spiderette and Spider deals that the solver wins within a budget of 30,000
positions (a fraction of a second each); the budget, not the clock, ends each search, so the
records are the same on a slow machine."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spidercli.errors import InputError
from spidercli.judging.tournament import load_manifest
from spidercli.solver.proof import compiled_proof_by_default
from spidercli.sweeps import plan as sweep_plan
from spidercli.sweeps import records as sweep_records
from spidercli.sweeps import run as sweep_run
from tests.processes import group_gone, interruptible, run_guarded

FAST = ["SD1-S1-AAAAAAB", "SD1-S1-AAAAAAC", "SD1-S1-AAAAAAD", "SP1-S1C-AAAAABD"]
BUDGET = ["--max-states", "30000"]
GUARD = 120.0
SPIDERCLI = [sys.executable, "-m", "spidercli"]


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return run_guarded([*SPIDERCLI, *args], GUARD, cwd=cwd)


def lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def timeless(text: str) -> list[dict[str, object]]:
    """A file's records without their ``seconds`` (a clock's, never the same twice)."""
    return [{**json.loads(line), "seconds": None} for line in text.splitlines(keepends=True)]


# ------------------------------------------------------------------------ ranges and shards


def test_a_range_is_each_numbered_deal_in_turn() -> None:
    items = [sweep_plan.parse_spec("kp4-8..11"), sweep_plan.parse_spec(" PS2-0099..100 ")]
    codes = ["KP4-8", "KP4-9", "KP4-10", "KP4-11", "PS2-99", "PS2-100"]
    assert list(sweep_plan.shard_codes(items)) == codes
    assert sweep_plan.parse_spec("sd1-s1-aaaaaab") == "SD1-S1-AAAAAAB"  # a code: its canonical form


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("KP4-10..3", "is an empty range"),
        ("KP4-0..3", "deal number 0 is out of range"),
        ("SP1-S1C-AAAAAAA..AAAAAAB", "is not a range of deals"),
        ("PS4-MS1..MS5", "is not a range of deals"),
        ("KP3-1..5", "no spidercli deck"),
        ("nonsense", "is not a game code"),
    ],
)
def test_a_bad_deal_is_refused_naming_it(spec: str, words: str) -> None:
    with pytest.raises(InputError, match=words):
        sweep_plan.parse_spec(spec)


def test_the_shards_of_a_range_are_every_nth_deal() -> None:
    items = [sweep_plan.parse_spec("KP1-1..10")]
    assert list(sweep_plan.shard_codes(items, (2, 3))) == ["KP1-2", "KP1-5", "KP1-8"]
    assert list(sweep_plan.shard_codes(items, (3, 3))) == ["KP1-3", "KP1-6", "KP1-9"]


@given(
    st.lists(
        st.one_of(
            st.integers(1, 5).map(lambda n: f"SD1-S1-AAAAAA{'ABCDE'[n - 1]}"),
            st.tuples(st.integers(1, 40), st.integers(0, 12)).map(
                lambda t: sweep_plan.Span("KP", 1, t[0], t[0] + t[1])
            ),
        ),
        max_size=6,
    ),
    st.integers(1, 7),
)
def test_the_shards_of_a_sweep_partition_it(items: list[sweep_plan.Item], n: int) -> None:
    """Deal i of the whole list (from 0) is in shard i % N + 1 and in no other; each shard keeps
    the list's order, so the shards' files together are the sweep."""
    whole = list(sweep_plan.shard_codes(items))
    shards = [list(sweep_plan.shard_codes(items, (k, n))) for k in range(1, n + 1)]
    for k, shard in enumerate(shards):
        assert shard == whole[k::n]
    assert sorted(c for shard in shards for c in shard) == sorted(whole)


@pytest.mark.parametrize("text", ["0/4", "5/4", "1/0", "3", "a/b", "-1/2"])
def test_a_shard_out_of_bounds_is_refused(text: str) -> None:
    with pytest.raises(InputError, match="expected K/N with 1 <= K <= N"):
        sweep_plan.parse_shard(text)


def test_random_codes_are_reproducible() -> None:
    first = sweep_plan.random_codes(5, 2, 7)
    assert first == sweep_plan.random_codes(5, 2, 7)
    assert first != sweep_plan.random_codes(5, 2, 8)
    assert all(c.startswith("SP2-S1C-") and len(c) == 15 for c in first)
    assert len(set(first)) == 5


def test_a_draw_makes_each_code_when_it_is_wanted() -> None:
    """``--random``'s deals are a ``Draw``: its i-th code is the i-th of the whole draw, a
    shard takes its own codes from it, and a draw of a trillion deals costs nothing until they
    are taken."""
    draw = sweep_plan.random_draw(10**12, 4, 7)
    assert draw.size == 10**12
    assert [draw.code(i) for i in range(40)] == sweep_plan.random_codes(40, 4, 7)
    # the codes the draw made when it was a plain list (SplitMix64 stepped one by one): pinned
    assert [draw.code(i) for i in range(3)] == [
        "SP4-S1C-WDDMQGL",
        "SP4-S1C-BLDNTFW",
        "SP4-S1C-WYLCHYW",
    ]
    big_seed = sweep_plan.random_codes(2, 1, 2**64 + 5)  # a seed is taken modulo 2^64
    assert big_seed == ["SP1-S1C-HKUOEIK", "SP1-S1C-BOIJHZK"] == sweep_plan.random_codes(2, 1, 5)
    assert sweep_plan.random_codes(-1, 4, 0) == []
    shard = sweep_plan.shard_codes([draw], (2, 5))
    assert [next(shard) for _ in range(3)] == [draw.code(1), draw.code(6), draw.code(11)]
    last = sweep_plan.shard_codes(["SP1-S1C-AAAAAAB", draw], (1, 10**11))
    assert [next(last) for _ in range(2)] == ["SP1-S1C-AAAAAAB", draw.code(10**11 - 1)]


@pytest.mark.parametrize("spec", [["--random", str(10**15)], ["--random", str(10**20)]])
def test_a_huge_random_sweep_is_refused_at_once(spec: list[str]) -> None:
    """Past the limit, and past what ``len`` can count (2^63): one line, exit 2."""
    result = run("sweep", *spec, "--suits", "4")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "spidercli: error: a sweep takes at most 10,000,000 deals; spread it over shards "
        "(--shard K/N)"
    ]


def test_a_shard_of_a_draw_past_two_to_the_63() -> None:
    """``--random 10**20 --shard K/10**18``: a hundred deals, the shard's own; and a range as
    long (PySol numbers go to 10^20) is the same."""
    draw = sweep_plan.random_draw(10**20, 4, 3)
    planned = sweep_plan.plan([draw], (5, 10**18))
    assert planned.size == 100
    assert list(planned.codes()) == [draw.code(4 + i * 10**18) for i in range(100)]
    span = sweep_plan.Span("PS", 4, 1, 10**20 - 1)
    codes = list(sweep_plan.plan([span], (1, 10**18)).codes())
    assert codes[:2] == ["PS4-1", f"PS4-{10**18 + 1}"] and len(codes) == 100


@pytest.mark.parametrize(
    ("count", "shard", "allowed"),
    [
        (10, (1, 1), True),
        (11, (1, 1), False),
        (20, (1, 2), True),
        (21, (1, 2), False),
        (21, (2, 2), True),
        (22, (2, 2), False),
        (9, (1, 1), True),
        (0, (3, 4), True),
        (1, (3, 4), True),
    ],
)
def test_the_deal_limit_counts_the_shards_deals(
    count: int, shard: tuple[int, int], allowed: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At most ``MAX_DEALS`` deals in the shard (here 10), counted before any code is made: a
    plain code and a draw of ``count - 1`` deals."""
    monkeypatch.setattr(sweep_plan, "MAX_DEALS", 10)
    items: list[sweep_plan.Item] = ["SP1-S1C-AAAAAAB"] if count else []
    items += [sweep_plan.random_draw(count - 1, 1, 0)] if count > 1 else []
    if allowed:
        planned = sweep_plan.plan(items, shard)
        codes = list(planned.codes())
        assert codes == list(sweep_plan.shard_codes(items, shard))
        assert len(codes) == planned.size == len(range(shard[0] - 1, count, shard[1]))
    else:
        with pytest.raises(InputError, match="a sweep takes at most 10 deals"):
            sweep_plan.plan(items, shard)


def test_random_spiderette_codes_are_the_spider_draw_in_spiderette() -> None:
    """``--game spiderette``: the same seed letters as the Spider codes of the same numbers, in
    Spiderette codes (classic: no rule letter) that deal Spiderette with that many suits."""
    from spidercli.game.codes import parse_code

    spider = sweep_plan.random_codes(6, 4, 2026)
    spiderette = sweep_plan.random_codes(6, 4, 2026, "spiderette")
    assert spiderette == [c.replace("SP4-S1C-", "SD4-S1-") for c in spider]
    assert sweep_plan.random_codes(6, 4, 2026, "Spider") == spider  # the game's name in any case
    for code in spiderette:
        parsed = parse_code(code)
        assert parsed.canonical == code and parsed.game.name == "spiderette"
        assert parsed.suits == 4 and not parsed.permissive


def test_a_random_spiderette_sweep(tmp_path: Path) -> None:
    out = tmp_path / "sd.jsonl"
    args = ["--random", "2", "--suits", "1", "--game", "spiderette", "--seed", "3", "-o", str(out)]
    result = run("sweep", *args, "--jobs", "1", "--max-states", "1000")  # the codes, not results
    assert result.returncode == 0, result.stderr
    games = [json.loads(line)["game"] for line in out.read_text().splitlines()]
    assert games == sweep_plan.random_codes(2, 1, 3, "spiderette")
    assert all(g.startswith("SD1-S1-") for g in games)


def test_a_sweep_writes_one_record_a_deal_and_a_summary(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    result = run("sweep", *FAST[:2], "KP1-1", *BUDGET[:1], "10000", "-j", "2", "-o", str(out))
    assert result.returncode == 0, result.stderr
    records = {r["game"]: r for r in lines(out)}
    assert set(records) == {*FAST[:2], "KP1-1"}
    for record in records.values():
        assert list(record)[:9] == list(sweep_records.FIELDS[:9])
        assert record["rules"] == "classic"
        bound = record["lower_bound"]  # the solver's admissible bound, never above a win
        assert isinstance(bound, int) and bound > 0
        moves = record["moves"]
        assert moves is None or (isinstance(moves, int) and bound <= moves)
    won = [r for r in records.values() if r["result"] == "won"]
    given_up = [r for r in records.values() if r["result"] == "gave-up"]
    assert won and given_up  # 10,000 positions win a Spiderette deal, not KPat's 1-suit deal 1
    for record in won:
        assert isinstance(record["moves"], int) and "expect:" in str(record["log"])
    for record in given_up:
        assert record["moves"] is None and record["log"] is None
    assert result.stderr.startswith("spidercli: sweep: 3 deals: ")
    assert f"{len(won)} won, 0 unwinnable, {len(given_up)} gave up" in result.stderr
    assert result.stdout == ""


def test_without_a_file_the_records_go_to_stdout() -> None:
    result = run("sweep", FAST[0], *BUDGET, "-j", "1")
    assert result.returncode == 0, result.stderr
    (record,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert record["game"] == FAST[0] and record["result"] == "won"


def test_a_record_matches_what_solve_writes(tmp_path: Path) -> None:
    """The record's log is the winning log as ``solve -o`` writes it."""
    out = tmp_path / "out.jsonl"
    assert run("sweep", FAST[2], *BUDGET, "-j", "1", "-o", str(out)).returncode == 0
    solved = tmp_path / "win.yaml"
    assert run("solve", FAST[2], *BUDGET, "-o", str(solved)).returncode == 0
    (record,) = lines(out)
    assert record["log"] == solved.read_text()


def test_a_deal_given_twice_is_solved_once(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    result = run("sweep", FAST[0], FAST[0].lower(), *BUDGET, "-j", "1", "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert [r["game"] for r in lines(out)] == [FAST[0]]


def test_a_sweep_resumes_skipping_the_deals_recorded(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    assert run("sweep", *FAST[:2], *BUDGET, "-j", "1", "-o", str(out)).returncode == 0
    before = out.read_text()
    result = run("sweep", *FAST[:3], *BUDGET, "-j", "1", "-o", str(out))
    assert result.returncode == 0, result.stderr
    text = out.read_text()
    assert text.startswith(before)
    assert [r["game"] for r in lines(out)] == FAST[:3]  # only the new deal was solved
    assert "3 deals: 3 won" in result.stderr
    assert "(2 records from an earlier run)" in result.stderr


def test_a_cut_last_line_is_solved_again(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    assert run("sweep", *FAST[:2], *BUDGET, "-j", "1", "-o", str(out)).returncode == 0
    whole = out.read_text()
    first = whole.splitlines(keepends=True)[0]
    out.write_text(whole[: len(first) + 40])  # a run killed in the middle of its second line
    result = run("sweep", *FAST[:2], *BUDGET, "-j", "1", "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert "its last line was cut short" in result.stderr
    text = out.read_text()
    assert text.endswith("\n") and text.startswith(first)
    assert timeless(text) == timeless(whole)  # the cut line removed, its deal solved again


def test_a_last_line_missing_only_its_newline_is_kept(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    assert run("sweep", *FAST[:2], *BUDGET, "-j", "1", "-o", str(out)).returncode == 0
    whole = out.read_text()
    out.write_text(whole[:-1])
    result = run("sweep", *FAST[:2], *BUDGET, "-j", "1", "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert "cut short" not in result.stderr
    assert out.read_text() == whole  # nothing solved again, the newline put back


def test_a_file_that_is_not_a_sweeps_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text('{"game": "SD1-S1-AAAAAAB", "result": "gave-up"}\nnot json\n{"x": 1}\n')
    result = run("sweep", FAST[0], *BUDGET, "-o", str(out))
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"spidercli: error: {out}:2: not a sweep record: each line of a sweep's output is one "
        "JSON record with 'game' and 'result'; name a new file or this one's sweep's"
    ]


def test_ctrl_c_keeps_every_finished_record(tmp_path: Path) -> None:
    """SIGINT to the whole group (a terminal's Ctrl-C): exit 130, the summary so far, every
    record written whole, and no worker left behind."""
    out = tmp_path / "out.jsonl"
    deals = ["SD1-S1-AAAAAAB", "KP4-1..40"]  # a fast deal first, then slow ones
    proc = subprocess.Popen(
        [*SPIDERCLI, "sweep", *deals, "--timeout", "30", "-j", "2", "-o", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=interruptible,
    )
    try:
        deadline = time.monotonic() + GUARD
        while not (out.exists() and out.read_text().count("\n") >= 1):
            assert time.monotonic() < deadline, "no record written"
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=GUARD)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert group_gone(proc.pid)
    assert proc.returncode == 130, err
    stderr = err.decode()
    assert "spidercli: sweep: " in stderr
    assert "interrupted: every finished record is kept" in stderr
    records = lines(out)  # every line whole
    assert records[0]["game"] == "SD1-S1-AAAAAAB"
    assert len(records) < 41


# ---------------------------------------------------------------------------- the manifest


def test_the_manifest_is_a_tournaments_and_its_certificates_replay(tmp_path: Path) -> None:
    cup = tmp_path / "cup"
    deals = [*FAST, "KP1-1"]  # KPat's deal is not won within 10,000 positions
    out = tmp_path / "out.jsonl"
    result = run(
        "sweep", *deals, "--max-states", "10000", "-o", str(out), "--manifest", str(cup / "m.yml")
    )
    assert result.returncode == 0, result.stderr
    won = [r["game"] for r in lines(out) if r["result"] == "won"]
    assert "KP1-1" not in won and won
    manifest = load_manifest(str(cup / "m.yml"))
    assert [label for _, label in manifest.deals] == won
    assert manifest.rules == "classic"
    text = (cup / "m.yml").read_text()
    for code in won:
        assert any(line.startswith(f"  - {code}  # ") for line in text.splitlines())
        certificate = cup / "certificates" / f"{code}.yaml"
        replayed = run("replay", str(certificate), "--json")
        assert replayed.returncode == 0, replayed.stderr
        report = json.loads(replayed.stdout)
        assert report["result"] == "won"
    assert sorted(p.name for p in (cup / "certificates").iterdir()) == sorted(
        f"{c}.yaml" for c in won
    )
    # ``tournament --manifest`` takes it: a player's certificate counts on its deal.
    entry = cup / "certificates" / f"{won[0]}.yaml"
    (tmp_path / "alice.yaml").write_text("player: alice\n" + entry.read_text())
    standings = run(
        "tournament", str(tmp_path / "alice.yaml"), "-m", str(cup / "m.yml"), "-f", "json"
    )
    assert standings.returncode == 0, standings.stderr
    table = json.loads(standings.stdout)
    assert [d["deal"] for d in table["deals"]] == won
    assert table["standings"][0]["wins"] == 1 and not table["rejected"]


def test_a_manifest_with_no_deal_won_is_not_written(tmp_path: Path) -> None:
    result = run("sweep", "KP1-1", "--max-states", "300", "--manifest", str(tmp_path / "m.yml"))
    assert result.returncode == 1
    assert result.stderr.splitlines()[-1] == "spidercli: no deal was won: no manifest written"
    assert not (tmp_path / "m.yml").exists()


# ------------------------------------------------------------------------------ bad inputs


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["KP4-9..2"],
            "'KP4-9..2' is an empty range: it runs from the smaller number to the larger",
        ),
        (
            ["KP4-1..9", "--shard", "4/3"],
            "--shard '4/3': expected K/N with 1 <= K <= N, as in 3/8 (the third of eight shards)",
        ),
        (["--random", "3"], "--random needs --suits: 1, 2 or 4"),
        (["--random", "3", "--suits", "3"], "--suits takes 1, 2 or 4, not 3"),
        (["KP4-1", "--seed", "3"], "--suits, --seed and --game go with --random N (random deals)"),
        (
            ["KP4-1", "--game", "spiderette"],
            "--suits, --seed and --game go with --random N (random deals)",
        ),
        (
            ["--random", "3", "--suits", "4", "--game", "klondike"],
            "--game takes spider or spiderette, not 'klondike'",
        ),
        (
            ["--random", "3", "--suits", "4", "--game", "spidrette"],
            "--game takes spider or spiderette, not 'spidrette' (did you mean 'spiderette'?)",
        ),
        (
            ["--random", "3", "--suits", "4", "--game", ""],
            "--game takes spider or spiderette, not ''",
        ),
        (  # a bad game is said before the codes are read
            ["KP4-x", "--random", "3", "--suits", "4", "--game", "x"],
            "--game takes spider or spiderette, not 'x'",
        ),
        (
            [],
            "no deals to sweep: name game codes, ranges (KP4-1..1000, PS4-1..32000) or "
            "--random N --suits S",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = run("sweep", *args)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [f"spidercli: error: {message}"]
    assert result.stdout == ""


def test_an_output_that_cannot_be_used_is_one_line_and_exit_2(tmp_path: Path) -> None:
    result = run("sweep", FAST[0], "-o", str(tmp_path))
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"spidercli: error: {tmp_path}: cannot be written: it is a folder"
    ]
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = run("sweep", FAST[0], "--manifest", str(blocker / "m.yml"))
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"spidercli: error: {blocker}/certificates: cannot be written: Not a directory"
    ]
    locked = tmp_path / "locked.jsonl"
    locked.write_text("")
    locked.chmod(0)
    if os.access(locked, os.R_OK):  # root reads it anyway
        pytest.skip("this user reads files without read permission")
    result = run("sweep", FAST[0], "-o", str(locked))
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"spidercli: error: {locked}: cannot be read: Permission denied"
    ]


# ------------------------------------------------------------------- the workers' supervisor

DIE = """
import os, signal, sys
from spidercli.judging import pool

def run(task):
    if task == "die":
        os.kill(os.getpid(), signal.SIGKILL)
    if task == "slow":
        import time
        time.sleep(1.0)
    return task.upper()

def died(task, status):
    return f"{task} died: {pool.worker_death(status)}"

ordered = sys.argv[1] == "ordered"
for result in pool.supervised(iter(["slow", "a", "die", "b"]), 2, run, died, ordered=ordered):
    print(result, flush=True)
"""


@pytest.mark.parametrize("mode", ["ordered", "as-they-come"])
def test_the_supervisor_runs_any_function_and_names_a_death(mode: str) -> None:
    proc = run_guarded([sys.executable, "-c", DIE, mode], GUARD)
    assert proc.returncode == 0, proc.stderr
    got = proc.stdout.splitlines()
    death = "die died: was killed (SIGKILL); the system may have run out of memory"
    if mode == "ordered":
        assert got == ["SLOW", "A", death, "B"]
    else:
        assert sorted(got) == sorted(["SLOW", "A", death, "B"])
        # the slow task, first given, holds back none that finished after it
        assert got.index("B") < got.index("SLOW")


def test_a_worker_death_is_a_record_naming_it() -> None:
    record = sweep_records.worker_died(("SD1-S1-AAAAAAB", 1.0, None, None), None)
    assert record["result"] == "gave-up"
    assert record["game"] == "SD1-S1-AAAAAAB" and record["moves"] is None
    assert record["error"] == (
        "internal error: the worker process solving this deal ended unexpectedly."
    )


@pytest.mark.skipif(
    not compiled_proof_by_default(), reason="the budget is the compiled proof search's"
)
@pytest.mark.parametrize(
    "jobs",
    [
        1,
        *(
            pytest.param(n, marks=pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork"))
            for n in (2, 4)
        ),
    ],
)
def test_the_workers_share_the_proofs_memory(jobs: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each worker started (``jobs``, or fewer with fewer deals) may hold its share of the
    proof's budget of bytes, so a sweep whose hardest deals reach the proof at once holds what
    one ``solve`` would; one process (``--jobs 1``) or one deal has the whole budget. The budget
    reaches the proof search itself."""
    import spidercli.solver.lines
    from spidercli.solver.proof import ProofSearch
    from spidercli.solver.search import Problem

    monkeypatch.setattr(sweep_run, "shared_memory", lambda: 1 << 30)
    given_tasks: list[sweep_records.DealTask] = []

    def supervised(
        tasks: Iterable[sweep_records.DealTask],
        jobs: int,
        work: Callable[[sweep_records.DealTask], Any],
        *_: object,
        **__: object,
    ) -> Iterator[Any]:
        for task in tasks:
            given_tasks.append(task)
            yield work(task)

    monkeypatch.setattr(sweep_run, "supervised", supervised)
    budgets: list[int | None] = []

    class Proof(ProofSearch):
        def __init__(
            self, problem: Problem, *, memory: int | None = None, locks: bool = True
        ) -> None:
            budgets.append(memory)
            super().__init__(problem, memory=memory, locks=locks)

    monkeypatch.setattr(spidercli.solver.lines, "ProofSearch", Proof)
    unwinnable = "SD4-S1-FFJUZSM"  # every beam fails, then the proof (56,403 positions)
    won = "SD1-S1-AAAAAAB"  # one suit: won by the first beam, no proof
    deals = [unwinnable, won, won]  # a deal given twice is solved twice here (plan() drops it)
    records = list(sweep_run.solved_records(deals, timeout=60.0, max_states=None, jobs=jobs))
    assert [r["result"] for r in records] == ["unwinnable", "won", "won"]
    want = None if jobs == 1 else (1 << 30) // min(jobs, 3)  # a share of each worker started
    assert [task[3] for task in given_tasks] == ([] if jobs == 1 else [want] * 3)
    assert budgets == [want]
    alone = list(sweep_run.solved_records([won], timeout=60.0, max_states=None, jobs=jobs))
    assert [r["result"] for r in alone] == ["won"]
    assert given_tasks[3:] == ([] if jobs == 1 else [(won, 60.0, None, 1 << 30)])  # one: whole


def test_a_record_says_what_the_search_knows() -> None:
    """won (with its line and the states to the first win), unwinnable (a search of every line),
    gave-up (the budget ran out): one record each, a view of the ``Solution`` that ``solve``
    returns, built from what ``solve_setup`` returns."""
    from spidercli.game.codes import Setup, parse_code
    from spidercli.game.engine import Game
    from spidercli.game.rules import CLASSIC
    from spidercli.solver.lines import Solved, solve_setup
    from spidercli.solver.result import solution_of
    from spidercli.solver.search import Outcome, Progress

    setup = Setup.from_code(parse_code(FAST[0]))
    solved = solve_setup(setup, CLASSIC, timeout=None, max_states=30_000)
    won = sweep_records.record_of(solution_of(setup, CLASSIC, solved), 0.5)
    assert won["result"] == "won" and won["moves"] == solved.game.moves
    first = won["states_to_win"]
    assert isinstance(first, int) and 0 < first < won["states"]  # the polishing came after
    assert won["log"] == sweep_records.record_of(solution_of(setup, CLASSIC, solved), 0.7)["log"]
    start = Game.from_setup(setup, CLASSIC)
    for exhaustive, result in ((True, "unwinnable"), (False, "gave-up")):
        outcome = Outcome(None, exhaustive, Progress(states=1234, seconds=0.25))
        solved = Solved(outcome, None, start, lower_bound=51)
        record = sweep_records.record_of(solution_of(setup, CLASSIC, solved), 0.3)
        assert record == {
            "game": FAST[0],
            "deal_id": setup.deal_id,
            "rules": "classic",
            "result": result,
            "moves": None,
            "lower_bound": 51,
            "states": 1234,
            "seconds": 0.3,
            "log": None,
            "states_to_win": None,
        }
