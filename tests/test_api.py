"""The public Python API against the command line: each function gives what its command prints
(JSON key for key, exit statuses as exceptions), on every fixture; its errors carry the
command's message, file and line; ``import spidercli`` stays light; every public name is
documented; and the examples in docs/api.md run.

This module imports nothing of spidercli but the package itself, as a program would. The command
line runs in child processes: ``python -m spidercli`` for a few runs, and for the many replays
one interpreter that runs the console entry point (``spidercli.cli.app:main``) once per argument
list, for speed.
"""

from __future__ import annotations

import doctest
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spidercli

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
LOGS = sorted(p.relative_to(ROOT).as_posix() for p in FIXTURES.rglob("*.yaml"))
RULES = (None, "classic", "duel", "pavouk", "kpat")
SAVES = sorted(p.relative_to(ROOT).as_posix() for p in (FIXTURES / "kpat").glob("*.xml"))
ENV = {**os.environ, "LC_ALL": "C.UTF-8", "COLUMNS": "100", "NO_COLOR": "1"}
ENV.pop("FORCE_COLOR", None)

# Runs the console entry point once per JSON argument list read on stdin; writes one JSON line
# per run: the exit status, stdout and stderr. Typer builds its command tree from the functions'
# signatures at every call (nine tenths of a short run): here it is built once.
_DRIVER = """
import contextlib, io, json, sys
import typer.main
from spidercli.cli.app import app, main
built = typer.main.get_command(app)
typer.main.get_command = lambda typer_app: built
for line in sys.stdin:
    out, err = io.StringIO(), io.StringIO()
    sys.argv = ["spidercli", *json.loads(line)]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main()
            status = 0
        except SystemExit as end:
            status = end.code if isinstance(end.code, int) else 1
    sys.__stdout__.write(json.dumps([status, out.getvalue(), err.getvalue()]) + "\\n")
"""


class Run:
    """One run of the command line."""

    def __init__(self, status: int, stdout: str, stderr: str) -> None:
        self.status, self.stdout, self.stderr = status, stdout, stderr

    def json(self) -> Any:
        return json.loads(self.stdout)


def cli_runs(calls: list[list[str]], cwd: Path = ROOT) -> list[Run]:
    """Each argument list run by the console entry point, all in one child interpreter."""
    stdin = "".join(json.dumps(args) + "\n" for args in calls)
    done = subprocess.run(
        [sys.executable, "-c", _DRIVER],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=ENV,
        check=True,
    )
    runs = [Run(*json.loads(line)) for line in done.stdout.splitlines()]
    assert len(runs) == len(calls), done.stderr
    return runs


def cli(*args: str, cwd: Path = ROOT) -> Run:
    """``python -m spidercli ARGS``, as a process of its own."""
    done = subprocess.run(
        [sys.executable, "-m", "spidercli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=ENV,
        check=False,
    )
    return Run(done.returncode, done.stdout, done.stderr)


def error_of(run: Run) -> tuple[str, int | None]:
    """The message and line of an input error, as ``--json`` prints them."""
    error = run.json()["error"]
    return error["message"], error["line"]


def said_error(run: Run) -> str:
    """The message after ``spidercli: error:`` on stderr."""
    prefix = "spidercli: error: "
    assert run.stderr.startswith(prefix), run.stderr
    return run.stderr[len(prefix) :].rstrip("\n")


# ---------------------------------------------------------------------------------- replay


def _replays() -> Iterator[tuple[str, str | None, str]]:
    """Each fixture under its own ruleset and every override, stopping and skipping (a log
    that does not read: once, the reader refuses it before any ruleset or mode matters)."""
    for path in LOGS:
        unreadable = isinstance(_outcome(spidercli.read_log, ROOT / path), tuple)
        for rules in RULES[:1] if unreadable else RULES:
            for mode in ("stop",) if unreadable else ("stop", "skip"):
                yield path, rules, mode


def test_replay_is_replay_json_for_every_fixture_ruleset_and_mode() -> None:
    """Every fixture, under its own ruleset and each override, stopping and skipping: the
    report's ``to_json()`` is ``replay --json``'s object and its exit status the command's;
    a log or ruleset the command refuses (exit 2) is an ``InputError`` with its message and
    line."""
    cases = list(_replays())
    calls = [
        ["replay", path, "--json", "--on-illegal", mode, *(["--rules", rules] if rules else [])]
        for path, rules, mode in cases
    ]
    runs = cli_runs(calls)
    reports = errors = 0
    for (path, rules, mode), run in zip(cases, runs, strict=True):
        try:
            report = spidercli.replay(spidercli.read_log(path), rules, mode)  # type: ignore[arg-type]
        except spidercli.InputError as err:
            assert run.status == err.exit_status == 2, (path, rules, mode)
            assert error_of(run) == (str(err), err.line), (path, rules, mode)
            errors += 1
            continue
        assert run.status == report.exit_code, (path, rules, mode)
        assert run.json() == report.to_json(), (path, rules, mode)
        assert report.status in ("valid", "illegal", "expect-failed")
        assert report.ok == (report.status == "valid") == (report.exit_code == 0)
        reports += 1
    assert reports > 150 and errors > 50  # both kinds, many of each


def test_the_driver_is_the_command_line() -> None:
    """The one-interpreter driver prints what ``python -m spidercli`` prints."""
    calls = [
        ["replay", "fixtures/illegal/build-one-higher.yaml", "--json"],
        ["replay", "fixtures/bad/bad-yaml.yaml", "--json"],
        ["deal", "SD2-S1-AAAAAAB", "--json"],
    ]
    for args, run in zip(calls, cli_runs(calls), strict=True):
        alone = cli(*args)
        assert (alone.status, alone.stdout, alone.stderr) == (run.status, run.stdout, run.stderr)


def test_report_fields_match_its_json() -> None:
    report = spidercli.replay(
        spidercli.read_log("fixtures/illegal/build-one-higher.yaml"), on_illegal="skip"
    )
    data = report.to_json()
    assert (report.result, report.moves, report.score, report.runs, report.deals_left) == (
        data["result"],
        data["moves"],
        data["score"],
        data["runs"],
        data["deals_left"],
    )
    assert (report.actions, report.rules, report.halted) == (data["actions"], "classic", False)
    assert report.log.game == data["game"] and report.log.deal_id == data["deal_id"]
    first = report.illegal[0]
    assert {
        "index": first.index,
        "line": first.line,
        "action": first.action,
        "rule": first.rule,
        "message": first.message,
    } == data["illegal"][0]
    assert [(e.index, e.line, e.text) for e in report.log.entries] == [
        (1, 5, "4>1"),
        (2, 6, "deal"),
    ]
    failed = spidercli.replay(spidercli.read_log("fixtures/batch/c-expect-failed.yaml"))
    assert failed.status == "expect-failed" and failed.mismatches
    assert [m.key for m in failed.mismatches] == [
        m["key"] for m in failed.to_json()["expect"]["mismatches"]
    ]
    assert failed.log.expect is not None and failed.log.expect.line is not None


def _outcome(read: Any, *args: Any, **kwargs: Any) -> object:
    """``read(*args, **kwargs)``: a log, or its input error's message and line."""
    try:
        return read(*args, **kwargs)
    except spidercli.InputError as err:
        return str(err), err.line


def test_parse_log_is_read_log_for_str_and_bytes() -> None:
    """Every fixture's bytes, and its text where it is UTF-8, read as the file reads."""
    for path in LOGS:
        data = (ROOT / path).read_bytes()
        expected = _outcome(spidercli.read_log, path)
        assert _outcome(spidercli.parse_log, data, name=path) == expected, path
        if _utf8(data):
            text = data.decode("utf-8")
            assert _outcome(spidercli.parse_log, text, name=path) == expected, path


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


@settings(max_examples=150, deadline=None)
@given(
    st.text(max_size=200)
    | st.builds(lambda m: f"game: SP1-S1C-AAAAAAA\n{m}moves: [deal]\n", st.text(max_size=40))
)
def test_any_text_reads_as_the_file_holding_it(text: str) -> None:
    """Any ``str`` reads as a file holding its UTF-8 (a lone surrogate: bytes that are not
    UTF-8): the same log or the same ``InputError``, never another exception."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "t.yaml")
        with open(path, "wb") as handle:
            handle.write(text.encode("utf-8", "surrogatepass"))
        expected = _outcome(spidercli.read_log, path)
    assert _outcome(spidercli.parse_log, text, name=path) == expected


# ------------------------------------------------------------------------------------ deal

CODES = ["SP2-S1C-AAAAAAA", "sd1-s1-aaaabiw", " SP4-S1P-ZZZZZZZ ", "KP2-17", "KP1-0042"]
BAD_CODES = ["SP3-S1C-AAAAAAA", "nope", "KP3-1", "KP2-0", ""]


def test_deal_is_deal_json() -> None:
    runs = cli_runs([["deal", code, "--json"] for code in CODES + BAD_CODES])
    for code, run in zip(CODES + BAD_CODES, runs, strict=True):
        try:
            board = spidercli.deal(code)
        except spidercli.InputError as err:
            assert code in BAD_CODES
            assert (err.path, err.line, err.exit_status) == (None, None, 2)
            assert run.status == 2 and error_of(run) == (str(err), None)
            continue
        assert run.status == 0 and run.json() == board.to_json(), code
        data = board.to_json()
        assert (board.game, board.deal_id) == (data["game"], data["deal_id"])
        assert [{"down": list(c.down), "up": list(c.up)} for c in board.columns] == data["columns"]
        assert (list(board.stock), list(board.removed)) == (data["stock"], data["removed"])


# ---------------------------------------------------------------------------------- verify


@pytest.mark.parametrize("jobs", [1, 2])
def test_verify_is_verify_jsonl_in_order(jobs: int) -> None:
    run = cli("verify", "fixtures", "--format", "jsonl", "--jobs", str(jobs))
    assert run.status == 2  # fixtures/bad holds unusable logs
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    verdicts = list(spidercli.verify(["fixtures"], jobs=jobs))
    assert [v.to_json() for v in verdicts] == lines
    assert [v.file for v in verdicts] == [line["file"] for line in lines]
    assert [v.status for v in verdicts] == [line["status"] for line in lines]
    assert {v.status for v in verdicts} == {"valid", "illegal", "expect-failed", "invalid-input"}
    for v in verdicts:
        if v.replayed is None:
            assert v.status == "invalid-input" and v.message
        else:
            assert v.replayed.result == v.to_json()["result"]


def test_verify_under_one_ruleset_and_one_path() -> None:
    run = cli("verify", "fixtures/batch", "--format", "jsonl", "--rules", "pavouk")
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert [v.to_json() for v in spidercli.verify("fixtures/batch", rules="pavouk")] == lines
    assert [v.to_json() for v in spidercli.verify(Path("fixtures/batch"), rules="pavouk")] == lines


@pytest.mark.parametrize("jobs", [1, 2])
def test_verify_is_lazy(tmp_path: Path, jobs: int) -> None:
    """The first verdict comes before the last path is taken from a generator of paths."""
    source = (FIXTURES / "spiderette-1suit-win.yaml").read_bytes()
    paths = []
    for i in range(100):
        path = tmp_path / f"{i:03}.yaml"
        path.write_bytes(source)
        paths.append(str(path))
    taken: list[str] = []

    def given() -> Iterator[str]:
        for path in paths:
            taken.append(path)
            yield path

    verdicts = spidercli.verify(given(), jobs=jobs)
    first = next(verdicts)
    assert first.file == paths[0] and first.status == "valid"
    assert len(taken) < len(paths)
    assert [first.file, *(v.file for v in verdicts)] == paths


def test_verify_closed_early_leaves_no_worker(tmp_path: Path) -> None:
    verdicts = spidercli.verify(["fixtures"], jobs=2, html_dir=tmp_path)
    first = next(verdicts)
    assert first.status == "invalid-input" and first.page is not None
    assert (tmp_path / first.page).is_file()  # the page of a log that is not valid
    verdicts.close()
    # Every worker ended and waited for. In a process with other threads (pytest-xdist's) the
    # workers are forked by a fork server, a child of this process that stays for the next
    # batch: it may be left, with no child of its own.
    if Path("/proc/self/task").is_dir():
        for pid in _children(os.getpid()):
            assert "serve_forks" in Path(f"/proc/{pid}/cmdline").read_text(), pid
            assert _children(pid) == [], "a worker outlived the batch"
    try:
        ended = os.waitpid(-1, os.WNOHANG)  # (0, 0): a child runs on (the fork server)
    except ChildProcessError:  # no child at all
        ended = (0, 0)
    assert ended == (0, 0), "a worker ended and was not waited for"


def _children(pid: int) -> list[int]:
    """The process ids of ``pid``'s children (from /proc)."""
    return [
        int(child)
        for task in Path(f"/proc/{pid}/task").iterdir()
        for child in (task / "children").read_text().split()
    ]


def test_verify_without_json_records() -> None:
    verdicts = list(spidercli.verify(["fixtures/batch"], with_json=False))
    assert [v.status for v in verdicts][:4] == [
        "valid",
        "illegal",
        "expect-failed",
        "invalid-input",
    ]
    with pytest.raises(ValueError, match="with_json=False"):
        verdicts[0].to_json()


def test_verify_errors_are_the_commands(tmp_path: Path) -> None:
    unknown = cli("verify", "fixtures", "--rules", "clasic")
    with pytest.raises(spidercli.InputError) as caught:
        spidercli.verify(["fixtures"], rules="clasic")  # at once, before any log
    assert unknown.status == caught.value.exit_status == 2
    assert said_error(unknown) == str(caught.value)
    empty = cli("verify", str(tmp_path))
    with pytest.raises(spidercli.InputError) as caught:
        spidercli.verify([str(tmp_path)])
    assert empty.status == 2 and said_error(empty) == str(caught.value)
    assert (caught.value.path, caught.value.line) == (None, None)


# ------------------------------------------------------------------------------ tournament


def _submissions(folder: Path) -> Path:
    def player(src: str, dest: str, who: str) -> None:
        text = (FIXTURES / src).read_text(encoding="utf-8")
        (folder / dest).write_text(text.replace("game:", f"player: {who}\ngame:", 1))

    for who in ("alice", "bob", "carol"):
        player("example-spiderette-53.yaml", f"{who}-sd.yaml", who)
    player("example-spider-1suit-117.yaml", "alice-sp.yaml", "alice")
    (folder / "bob-sp-1.yaml").write_text("game: SP1-S1C-AAAAABD\nplayer: bob\nmoves: [finish]\n")
    player("example-spider-1suit-117.yaml", "bob-sp-2.yaml", "bob")
    player("spiderette-1suit-win.yaml", "bob-other.yaml", "bob")
    player("illegal/stock-empty.yaml", "dave.yaml", "dave")
    shutil.copyfile(FIXTURES / "example-spiderette-53.yaml", folder / "nobody.yaml")
    manifest = folder / "manifest.yml"
    manifest.write_text(
        "name: Cup\nrules: classic\ndeals:\n  - SD1-S1-AAAABIW\n  - sp1-s1c-aaaaabd\n"
    )
    return manifest


def test_standings_are_tournament_json(tmp_path: Path) -> None:
    manifest = _submissions(tmp_path)
    folder = str(tmp_path)
    for args, manifest_arg in (((), None), (("-m", str(manifest)), str(manifest))):
        run = cli("tournament", folder, *args, "--format", "json", "--jobs", "2")
        assert run.status == 0, run.stderr
        result = spidercli.standings([folder], manifest_arg, jobs=2)
        assert result.to_json() == run.json()
        assert spidercli.standings(folder, manifest_arg).to_json() == run.json()
    ranked = [(s.rank, s.player, s.score, s.wins, s.moves, s.deals) for s in result.standings]
    assert ranked == [
        (r["rank"], r["player"], r["score"], r["wins"], r["moves"], r["deals"])
        for r in run.json()["standings"]
    ]
    assert [e.file for e in result.superseded] == [f"{folder}/bob-sp-1.yaml"]


def test_standings_errors_are_the_commands(tmp_path: Path) -> None:
    manifest = _submissions(tmp_path)
    bad = tmp_path / "bad.yml"
    bad.write_text("deals: []\n")
    cases: list[tuple[list[str], str | None]] = [
        ([str(tmp_path / "missing")], None),
        ([str(tmp_path)], str(bad)),
        ([str(tmp_path / "*.nothing")], None),
        ([str(manifest)], str(manifest)),  # the manifest alone: no logs
    ]
    for paths, plan in cases:
        run = cli("tournament", *paths, *(["-m", plan] if plan else []), "-f", "json")
        with pytest.raises(spidercli.InputError) as caught:
            spidercli.standings(paths, plan)
        assert run.status == 2 and error_of(run) == (str(caught.value), caught.value.line)


# ------------------------------------------------------------------------------------ duel

PAIRS = [
    ("fixtures/duel-1suit-win.yaml", "fixtures/duel-finish.yaml"),
    ("fixtures/duel-finish.yaml", "fixtures/duel-1suit-win.yaml"),
    ("fixtures/duel-finish.yaml", "fixtures/duel-finish.yaml"),
    ("fixtures/duel-1suit-win.yaml", "fixtures/example-spider-1suit-117.yaml"),  # classic rules
    ("fixtures/duel-finish.yaml", "fixtures/example-spiderette-53.yaml"),  # another game
]


def test_duel_is_duel_json() -> None:
    runs = cli_runs([["duel", a, b, "--json"] for a, b in PAIRS])
    judged = 0
    for (a, b), run in zip(PAIRS, runs, strict=True):
        try:
            judgement = spidercli.duel(spidercli.read_log(a), spidercli.read_log(b))
        except spidercli.InputError as err:
            assert run.status == 2 and error_of(run) == (str(err), err.line)
            continue
        assert run.status == judgement.exit_code and run.json() == judgement.to_json()
        assert judgement.reports[0].log.path == a and judgement.reason
        judged += 1
    assert judged == 3


# ------------------------------------------------------------------------------------ hint


def _halfway(folder: Path) -> str:
    """The 117-move example stopped after 61 entries: a win is found in well under a second."""
    lines = (FIXTURES / "example-spider-1suit-117.yaml").read_text().splitlines()
    start = lines.index("moves:")
    kept = [line for line in lines[:start] if line.startswith("game:")]
    path = folder / "halfway.yaml"
    path.write_text("\n".join(kept + lines[start : start + 62]) + "\n")
    return str(path)


def test_hint_is_hint_json(tmp_path: Path) -> None:
    logs = [
        _halfway(tmp_path),
        "fixtures/spiderette-1suit-win.yaml",  # over: won
        "fixtures/duel-finish.yaml",  # over: resigned
        "fixtures/illegal/build-one-higher.yaml",  # a refused action: no hint
        "fixtures/bad/bad-code.yaml",
    ]
    runs = cli_runs([["hint", log, "--json", "--timeout", "30"] for log in logs])
    for log, run in zip(logs, runs, strict=True):
        try:
            found = spidercli.hint(spidercli.read_log(log), timeout=30)
        except spidercli.IllegalLogError as err:
            assert run.status == err.exit_status == 1
            assert error_of(run) == (str(err), err.line)
            assert err.report is not None and err.report.illegal[0].line == err.line
            assert run.stderr == f"spidercli: {err}\n"
            continue
        except spidercli.InputError as err:
            assert run.status == 2 and error_of(run) == (str(err), err.line)
            continue
        assert run.status == 0 and run.json() == found.to_json(), log
    halfway = spidercli.hint(spidercli.read_log(logs[0]), timeout=30)
    assert halfway.action is not None and halfway.wins_in is not None
    assert halfway.reasons[-1] == f"a win follows in {halfway.wins_in} moves"


def test_hint_rules_and_timeout_are_checked() -> None:
    log = spidercli.read_log("fixtures/spider-1suit-win.yaml")
    run = cli("hint", "fixtures/spider-1suit-win.yaml", "--rules", "clasic", "--json")
    with pytest.raises(spidercli.InputError) as caught:
        spidercli.hint(log, rules="clasic")
    assert run.status == 2 and error_of(run) == (str(caught.value), caught.value.line)
    with pytest.raises(ValueError, match="timeout"):
        spidercli.hint(log, timeout=0)


# ---------------------------------------------------------------------------------- solve


def _without_time(record: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in record.items() if key != "seconds"}


def test_solve_is_solve_json(tmp_path: Path) -> None:
    """Won, gave up (a budget of positions, the same on every machine), from a code and from a
    log: the record is ``solve --json``'s, key for key (the time aside), and a win's log text is
    the file ``solve -o`` writes."""
    out = tmp_path / "win.yaml"
    cases: list[tuple[list[str], str | spidercli.MoveLog, dict[str, Any]]] = [
        (["SP1-S1C-AAAAAAB", "-o", str(out)], "SP1-S1C-AAAAAAB", {}),
        (["SP4-S1C-AAAAAAB", "--max-states", "300"], "SP4-S1C-AAAAAAB", {"max_states": 300}),
        (
            ["fixtures/spiderette-1suit-win-explicit.yaml", "--rules", "classic"],
            spidercli.read_log("fixtures/spiderette-1suit-win-explicit.yaml"),
            {"rules": "classic"},
        ),
    ]
    runs = cli_runs([["solve", *args, "--json"] for args, _, _ in cases])
    found = [spidercli.solve(game, timeout=60, **options) for _, game, options in cases]
    for run, solution in zip(runs, found, strict=True):
        record = run.json()
        assert list(record) == [
            "game", "deal_id", "rules", "result", "moves", "lower_bound", "states", "seconds", "log"
        ]  # fmt: skip
        assert _without_time(record) == _without_time(solution.to_json())
        assert isinstance(record["seconds"], float) and record["seconds"] >= 0
        assert run.status == (0 if solution.result == "won" else 1)
    won, gave_up, explicit = found
    assert won.result == "won" and won.log_text == out.read_text()
    assert won.moves is not None and won.lower_bound <= won.moves
    assert spidercli.replay(spidercli.parse_log(won.log_text)).moves == won.moves
    assert gave_up.result == "gave-up" and gave_up.states == 300
    assert gave_up.moves is None and gave_up.log_text is None
    assert explicit.game is None and explicit.rules == "classic" and explicit.result == "won"
    assert runs[2].json()["log"] == explicit.log_text
    assert explicit.log_text is not None and "rules: classic" in explicit.log_text


def test_solve_errors_are_the_commands() -> None:
    calls = [
        ["SP3-S1C-AAAAAAA"],
        ["SP1-S1C-AAAAAAA", "--rules", "clasic"],
        ["SP4-S1C-AAAAAAA", "--rules", "duel"],
        ["SD1-S1-AAAAAAA", "--rules", "pavouk"],
    ]
    runs = cli_runs([["solve", *args, "--json"] for args in calls])
    for args, run in zip(calls, runs, strict=True):
        rules = args[2] if len(args) > 2 else None
        with pytest.raises(spidercli.InputError) as caught:
            spidercli.solve(args[0], rules=rules)
        # the command reads a log where the argument is no game code, and says so too
        message = str(caught.value) + ("; nor is it a log file" if args == calls[0] else "")
        assert run.status == caught.value.exit_status == 2
        assert error_of(run) == (message, caught.value.line)
        assert said_error(run) == message
    with pytest.raises(TypeError, match="game code"):
        spidercli.solve(17)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="timeout"):
        spidercli.solve("SP1-S1C-AAAAAAA", timeout=0)
    with pytest.raises(ValueError, match="max_states must be 1 or more"):
        spidercli.solve("SP1-S1C-AAAAAAA", max_states=0)


# ---------------------------------------------------------------------------------- record


def test_record_text_and_record_file_are_record(tmp_path: Path) -> None:
    """For every fixture that reads: ``record_text`` is the file ``record`` writes (from str
    and from bytes), ``record_file`` writes the same file and says what ``record`` says; a log
    with a refused action is an ``IllegalLogError`` with the command's message."""
    logs = [p for p in LOGS if not p.startswith("fixtures/bad/")]
    copies = []
    for i, path in enumerate(logs):
        for kind in ("cli", "api"):
            copy = tmp_path / kind / f"{i:02}.yaml"
            copy.parent.mkdir(exist_ok=True)
            shutil.copyfile(ROOT / path, copy)
        copies.append(str(tmp_path / "cli" / f"{i:02}.yaml"))
    runs = cli_runs([["record", copy] for copy in copies])
    recorded = refused = unusable = 0
    for i, (path, run) in enumerate(zip(logs, runs, strict=True)):
        data = (ROOT / path).read_bytes()
        theirs = tmp_path / "cli" / f"{i:02}.yaml"
        mine = tmp_path / "api" / f"{i:02}.yaml"
        try:
            text = spidercli.record_text(data, name=theirs)
        except spidercli.IllegalLogError as err:
            assert run.status == 1 and run.stderr == f"spidercli: {err}\n", path
            assert theirs.read_bytes() == data
            with pytest.raises(spidercli.IllegalLogError):
                spidercli.record_file(mine)
            refused += 1
            continue
        except spidercli.InputError as err:
            assert run.status == 2 and said_error(run) == str(err), path
            unusable += 1
            continue
        assert run.status == 0, (path, run.stderr)
        written = theirs.read_bytes()
        assert text.encode("utf-8") == written, path
        assert spidercli.record_text(data.decode("utf-8"), name=theirs) == text
        done = spidercli.record_file(mine)
        assert mine.read_bytes() == written
        assert done.changed == (written != data) and done.path == str(mine)
        assert run.stdout.startswith("recorded " if done.changed else "unchanged ")
        assert spidercli.replay(spidercli.parse_log(text)).log.expect is not None
        recorded += 1
    assert recorded > 15 and refused > 10 and unusable >= 1


def test_record_errors_are_the_commands(tmp_path: Path) -> None:
    flow = tmp_path / "flow.yaml"
    flow.write_text("{game: SP1-S1C-AAAAAAA, moves: [deal]}\n")
    for path in (str(flow), "fixtures/bad/bad-yaml.yaml", str(tmp_path / "missing.yaml")):
        run = cli("record", path)
        with pytest.raises(spidercli.InputError) as caught:
            spidercli.record_file(path)
        assert run.status == 2 and said_error(run) == str(caught.value)
        if Path(path).exists():
            with pytest.raises(spidercli.InputError) as again:
                spidercli.record_text(Path(path).read_bytes(), name=path)
            assert str(again.value) == str(caught.value)


# ------------------------------------------------------------------------------------ kpat


def test_import_kpat_is_import_kpat() -> None:
    runs = cli_runs([["import", "kpat", save] for save in SAVES])
    for save, run in zip(SAVES, runs, strict=True):
        imported = spidercli.import_kpat(save)
        assert run.status == 0 and run.stdout == imported.log_text, save
        assert spidercli.import_kpat(Path(save)).log_text == imported.log_text
        data = (ROOT / save).read_bytes()
        assert spidercli.import_kpat(data, name=save).log_text == imported.log_text
        assert imported.actions == tuple(e.text for e in imported.log.entries)
        assert spidercli.replay(imported.log).ok
        assert (imported.warning is None) == ("warning" not in run.stderr)


def test_import_kpat_errors_are_the_commands(tmp_path: Path) -> None:
    bad = tmp_path / "save.xml"
    bad.write_text('<kpat-game game-type="klondike"/>')
    for path in (str(bad), str(tmp_path / "missing.xml"), str(tmp_path)):
        run = cli("import", "kpat", path)
        with pytest.raises(spidercli.InputError) as caught:
            spidercli.import_kpat(path)
        assert run.status == 2 and said_error(run) == str(caught.value)
    with pytest.raises(spidercli.InputError) as caught:
        spidercli.import_kpat(b"<kpat-game")
    assert caught.value.path == "<save>" and caught.value.line == 1


# ------------------------------------------------------------------------------- bad input


def test_input_errors_carry_the_commands_message_file_and_line(tmp_path: Path) -> None:
    cases = ["fixtures/bad/bad-yaml.yaml", "fixtures/bad/unknown-key.yaml", "no/such.yaml"]
    runs = cli_runs([["replay", path, "--json"] for path in cases])
    for path, run in zip(cases, runs, strict=True):
        with pytest.raises(spidercli.InputError) as caught:
            spidercli.read_log(path)
        err = caught.value
        assert err.exit_status == 2 and err.path == path
        assert error_of(run) == (str(err), err.line)
        assert str(err).startswith(f"{path}:{err.line}: " if err.line else f"{path}: ")
    assert spidercli.InputError.exit_status == 2 and spidercli.IllegalLogError.exit_status == 1
    assert issubclass(spidercli.InputError, ValueError)
    assert issubclass(spidercli.IllegalLogError, ValueError)
    # one path:line message for both, but never one for the other: their exit statuses differ
    assert not issubclass(spidercli.IllegalLogError, spidercli.InputError)
    assert not issubclass(spidercli.InputError, spidercli.IllegalLogError)


def test_a_ruleset_name_is_checked_as_the_command_does() -> None:
    log = spidercli.read_log("fixtures/spider-1suit-win.yaml")
    run = cli("replay", "fixtures/spider-1suit-win.yaml", "--rules", "clasic", "--json")
    with pytest.raises(spidercli.InputError) as caught:
        spidercli.replay(log, rules="clasic")
    assert "unknown ruleset 'clasic' (did you mean 'classic'?); expected one of classic" in str(
        caught.value
    )
    assert run.status == 2 and error_of(run) == (str(caught.value), caught.value.line)


def test_bytes_are_checked_as_a_file_is(tmp_path: Path) -> None:
    cases = {
        "latin1.yaml": "game: SP1-S1C-AAAAAAA\nplayer: Jörö\nmoves: []\n".encode("latin-1"),
        "nul.yaml": b"game: SP1-S1C-AAAAAAA\nmoves: [\0]\n",
        "bom.yaml": "\ufeffgame: SP1-S1C-AAAAAAA\nmoves: [deal]\n".encode(),
        "big.yaml": b"game: SP1-S1C-AAAAAAA\nmoves: []\n" + b"#" * 100,
    }
    for name, data in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        try:
            expected: object = spidercli.read_log(path, max_bytes=100)
        except spidercli.InputError as err:
            expected = str(err), err.line
        try:
            got: object = spidercli.parse_log(data, name=path, max_bytes=100)
        except spidercli.InputError as err:
            got = str(err), err.line
        assert got == expected, name
    assert spidercli.parse_log(cases["bom.yaml"]).path == "<log>"


def test_wrong_arguments_are_type_and_value_errors() -> None:
    log = spidercli.read_log("fixtures/spider-1suit-win.yaml")
    with pytest.raises(ValueError, match="on_illegal must be one of 'stop', 'skip', not 'jump'"):
        spidercli.replay(log, on_illegal="jump")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="MoveLog"):
        spidercli.replay("fixtures/spider-1suit-win.yaml")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rules"):
        spidercli.replay(log, rules=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="path"):
        spidercli.read_log(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="str or bytes"):
        spidercli.parse_log(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="paths"):
        spidercli.verify(b"fixtures")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="jobs must be 1 or more"):
        spidercli.verify(["fixtures"], jobs=0)
    with pytest.raises(ValueError, match="max_bytes"):
        spidercli.read_log("fixtures/spider-1suit-win.yaml", max_bytes=0)
    with pytest.raises(TypeError, match="MoveLog"):
        spidercli.duel(log, "fixtures/duel-finish.yaml")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="game code"):
        spidercli.deal(17)  # type: ignore[arg-type]


# ------------------------------------------------------------------------- the package


def test_import_spidercli_is_light() -> None:
    """``import spidercli`` loads no command-line module, nor YAML; reading and replaying a log
    loads YAML, still none of the command line's."""
    script = (
        "import json, sys, spidercli\n"
        "heavy = {'typer', 'click', 'rich', 'pydantic', 'yaml'}\n"
        "def loaded(): return sorted({m.split('.')[0] for m in sys.modules} & heavy)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('spidercli'))))\n"
        "print(json.dumps(loaded()))\n"
        "spidercli.replay(spidercli.read_log('fixtures/spider-1suit-win.yaml'))\n"
        "print(json.dumps(loaded()))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True
    )
    loaded, heavy, after = map(json.loads, done.stdout.splitlines())
    assert loaded == ["spidercli"]
    assert heavy == []
    assert after == ["yaml"]


def test_all_lists_exactly_the_documented_public_names() -> None:
    names = spidercli.__all__
    assert names == sorted(names) and len(set(names)) == len(names)
    for name in names:
        value = getattr(spidercli, name)
        doc = value.__doc__ or ""
        assert doc.strip() and not doc.startswith(f"{name}("), name  # not dataclass's own
        assert name in dir(spidercli)
    public = {n for n in dir(spidercli) if not n.startswith("_")}
    modules = {n for n in public if isinstance(getattr(spidercli, n), type(sys))}
    assert public - modules == set(names)  # the package's own submodules aside
    with pytest.raises(AttributeError):
        spidercli.no_such_name  # type: ignore[attr-defined]  # noqa: B018


def test_a_submodule_never_hides_a_public_function() -> None:
    """``spidercli/play/replay.py`` the module, ``spidercli.replay`` the function."""
    import importlib

    module: object = importlib.import_module("spidercli.play.replay")
    function: object = spidercli.replay
    assert module is not function
    assert callable(spidercli.replay) and spidercli.replay.__module__ == "spidercli.api"
    from spidercli import replay

    assert replay is spidercli.replay


def test_the_examples_in_docs_api_md_run() -> None:
    failures, tried = doctest.testfile(
        str(ROOT / "docs" / "api.md"),
        module_relative=False,
        globs={},
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
    )
    assert tried > 20 and failures == 0
