"""Clean machine output and CLI conventions: CSV that no spreadsheet runs, JUnit and JSON that
parse whatever the file names, GitHub and concise formats for CI, quiet listings, exit status 2
when there is nothing to verify, a closed stdout, progress on stderr only, colour conventions,
completion and -V, help with examples, deal --json, 80 columns, no internal names."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import pytest
import typer
from hypothesis import given
from hypothesis import strategies as st
from syrupy.assertion import SnapshotAssertion
from typer.testing import CliRunner

from spidercli import __version__
from spidercli.cli import app as cli_app
from spidercli.cli.app import app, command_of
from spidercli.game.rules import CLASSIC, RULESETS
from spidercli.judging.formats import (
    FORMATS,
    _github_data,
    _github_property,
    csv_cell,
    csv_row,
    xml_safe,
)
from spidercli.text.messages import utf8_safe
from tests.helpers import FIXTURES, ROOT, run, run_batch

FORMULA = ("=", "+", "-", "@", "\t", "\r")
HOSTILE_PLAYERS = [
    '=HYPERLINK("http://evil.example","click")',
    "+1+2",
    "-2+3",
    "@SUM(A1:A2)",
    "\t=1",
    "\r=1",
    "line one\nline two",
    'quote " and, comma',
]


def _log(path: Path, player: str, *, rules: str = "classic", moves: str = "[deal]") -> Path:
    game = "SP1-S1C-AAAAAAD"
    path.write_text(
        f"game: {game}\nrules: {rules}\nplayer: {json.dumps(player)}\nmoves: {moves}\n",
        encoding="utf-8",
    )
    return path


# ---------------------------------------------------------------------------------- CSV


@pytest.mark.parametrize("text", HOSTILE_PLAYERS)
def test_csv_cell_neutralises_formulas(text: str) -> None:
    (cell,) = next(csv.reader(io.StringIO(csv_row([text]))))
    assert not cell.startswith(FORMULA)
    assert cell == ("'" + text if text.startswith(FORMULA) else text)


def test_csv_numbers_stay_numbers_and_none_is_empty() -> None:
    assert csv_row([-12, 0, 3.5, None, "x"]) == "-12,0,3.5,,x\n"
    assert csv_cell("-12") == "'-12"  # text that looks like a number is still text


@given(st.lists(st.one_of(st.text(), st.integers(), st.none()), min_size=1, max_size=5))
def test_csv_row_reads_back_one_record(values: list[object]) -> None:
    """Any cells, line breaks included, read back as one record of as many fields, and no text
    cell starts with a formula character."""
    rows = list(csv.reader(io.StringIO(csv_row(values), newline="")))
    assert len(rows) == 1 and len(rows[0]) == len(values)
    for value, cell in zip(values, rows[0], strict=True):
        if isinstance(value, str):
            text = utf8_safe(value).replace("\0", "\ufffd")
            assert not cell.startswith(FORMULA)
            assert cell == ("'" + text if text.startswith(FORMULA) else text)
        else:
            assert cell == ("" if value is None else str(value))


def test_verify_csv_neutralises_player_names(tmp_path: Path) -> None:
    for i, player in enumerate(HOSTILE_PLAYERS):
        _log(tmp_path / f"p{i}.yaml", player)
    _log(tmp_path / "q-duel.yaml", "negative", rules="duel")  # duel scores start at 0
    result = run("verify", str(tmp_path), "-f", "csv", "-j", "1")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout, newline="")))
    assert len(rows) == len(HOSTILE_PLAYERS) + 1
    for row, player in zip(rows, HOSTILE_PLAYERS, strict=False):
        assert not row["player"].startswith(FORMULA)
        assert row["player"].removeprefix("'") == player
    assert rows[-1]["score"] == "-1"  # a number: written as it is


def test_tournament_csv_neutralises_player_names(tmp_path: Path) -> None:
    for i, player in enumerate(HOSTILE_PLAYERS):
        _log(tmp_path / f"p{i}.yaml", player)
    result = run("tournament", str(tmp_path), "-f", "csv", "-j", "1")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout, newline="")))
    assert sorted(r["player"].removeprefix("'") for r in rows) == sorted(HOSTILE_PLAYERS)
    assert not any(r["player"].startswith(FORMULA) for r in rows)


# ------------------------------------------------------------------------- JUnit, JSON


@given(st.text())
def test_xml_safe_text_always_parses(text: str) -> None:
    safe = xml_safe(text)
    doc = ET.fromstring(f"<a b={quoteattr(safe)}>{escape(safe, {chr(13): '&#13;'})}</a>")
    assert (doc.text or "") == safe
    assert doc.attrib["b"] == safe
    safe.encode("utf-8")  # no lone surrogate left


def _odd_names(tmp_path: Path) -> list[str]:
    """A log under a name that is not UTF-8, one with control characters, one with XML and CSV
    syntax: the first valid, the others illegal."""
    names = [os.fsdecode(b"bad-\xff\xfe.yaml"), "ctl-\x01\x1b[31m.yaml", 'x<&">,:%.yaml']
    for i, name in enumerate(names):
        moves = "[deal]" if i == 0 else "['3>3']"
        _log(tmp_path / name, f"p{i}", moves=moves)
    return [str(tmp_path / n) for n in names]


def test_junit_is_well_formed_for_any_file_name(tmp_path: Path) -> None:
    out = io.StringIO()
    tally = run_batch(_odd_names(tmp_path), out, fmt="junit")
    assert tally.total == 3
    text = out.getvalue()
    text.encode("utf-8")
    suite = ET.fromstring(text)
    assert suite.attrib["tests"] == "3" and suite.attrib["failures"] == "2"
    assert float(suite.attrib["time"]) >= 0
    cases = suite.findall("./testsuite/testcase")
    assert [c.attrib["file"] for c in cases] == [c.attrib["name"] for c in cases]
    # Escaped as every text output shows a name: a byte that is not UTF-8, a control character.
    assert cases[0].attrib["file"].endswith("bad-\\xff\\xfe.yaml")
    assert cases[1].attrib["file"].endswith("ctl-\\x01\\x1b[31m.yaml")
    assert cases[2].attrib["file"].endswith('x<&">,:%.yaml')
    assert all(float(c.attrib["time"]) >= 0 for c in cases)


@pytest.mark.parametrize("fmt", [f for f in FORMATS if f not in ("table", "junit")])
def test_machine_formats_are_valid_utf8_for_any_file_name(tmp_path: Path, fmt: str) -> None:
    out = io.StringIO()
    run_batch(_odd_names(tmp_path), out, fmt=fmt)
    data = out.getvalue().encode("utf-8")  # strict: a lone surrogate would raise here
    if fmt == "json":
        assert len(json.loads(data)) == 3
    elif fmt == "jsonl":
        records = [json.loads(line) for line in data.decode().splitlines()]
        assert "\ufffd" in records[0]["file"]


def test_replay_json_error_is_valid_utf8(tmp_path: Path) -> None:
    name = tmp_path / os.fsdecode(b"gone-\xff.yaml")
    result = run("replay", str(name), "--json")
    assert result.exit_code == 2
    error = json.loads(result.stdout_bytes.decode("utf-8"))["error"]
    # Valid UTF-8, no lone surrogate; the byte that is not UTF-8 is shown escaped.
    assert "\\ud" not in result.stdout and "gone-\\xff.yaml" in error["message"]


# ------------------------------------------------------------------ github, concise, quiet


def test_github_escaping() -> None:
    assert _github_data("50%\r\nnext") == "50%25%0D%0Anext"
    assert _github_property("a,b:c%\n") == "a%2Cb%3Ac%25%0A"


def test_github_annotations(tmp_path: Path) -> None:
    out = io.StringIO()
    tally = run_batch(_odd_names(tmp_path), out, fmt="github")
    lines = out.getvalue().splitlines()
    assert tally.counts["illegal"] == 2 and len(lines) == 2  # valid logs are not annotated
    last = lines[1]
    assert last.startswith("::error file=") and ",line=4,title=same-column::" in last
    assert 'x<&">%2C%3A%25.yaml' in last
    assert last.split("::", 2)[2].startswith("illegal: entry 1 `3>3`: ")
    for line in lines:
        assert line.count("::") == 2  # nothing in a file name opens another command


def test_github_and_concise_on_the_batch() -> None:
    github = run("verify", "fixtures/batch", "-f", "github")
    assert github.exit_code == 2
    assert github.stdout.splitlines() == [
        "::error file=fixtures/batch/b-illegal.yaml,line=5,title=same-column::illegal: entry 2 "
        "`3>3`: column 3 is both the source and the target",
        "::error file=fixtures/batch/c-expect-failed.yaml,line=4,title=expect-failed::"
        "expect-failed: result: expected won, got open; score: expected 900, got 499",
        "::error file=fixtures/batch/d-unusable.yaml,line=3,title=invalid-input::invalid-input: "
        "not valid YAML: did not find expected ',' or ']'",
    ]
    assert "5 logs: 2 valid" in github.stderr
    concise = run("verify", "fixtures/batch", "-f", "concise")
    assert concise.stdout.splitlines() == [
        "fixtures/batch/b-illegal.yaml:5: illegal same-column: entry 2 `3>3`: column 3 is "
        "both the source and the target",
        "fixtures/batch/c-expect-failed.yaml:4: expect-failed: result: expected won, got open; "
        "score: expected 900, got 499",
        "fixtures/batch/d-unusable.yaml:3: invalid-input: not valid YAML: did not find "
        "expected ',' or ']'",
    ]


def test_concise_keeps_each_log_on_one_line(tmp_path: Path) -> None:
    out = io.StringIO()
    run_batch(_odd_names(tmp_path), out, fmt="concise")
    assert len(out.getvalue().splitlines()) == 2


@pytest.mark.parametrize("fmt", ["table", "json", "jsonl", "csv"])
def test_quiet_lists_only_logs_that_are_not_valid(fmt: str) -> None:
    result = run("verify", "fixtures/batch", "-q", "-f", fmt)
    assert result.exit_code == 2
    assert "a-valid" not in result.stdout and "e-valid" not in result.stdout
    assert "b-illegal" in result.stdout and "d-unusable" in result.stdout
    summary = "5 logs: 2 valid, 1 illegal, 1 expect-failed, 1 invalid-input"
    assert summary in (result.stdout if fmt == "table" else result.stderr)


def test_quiet_junit_still_lists_every_test() -> None:
    result = run("verify", "fixtures/batch", "--quiet", "-f", "junit")
    assert len(ET.fromstring(result.stdout).findall("./testsuite/testcase")) == 5


def test_unknown_format_is_a_usage_error() -> None:
    result = run("verify", "fixtures/batch", "--format", "gitlab")
    assert result.exit_code == 2 and "gitlab" in result.output


# ----------------------------------------------------------------- nothing to verify


def test_verify_without_logs_exits_2(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a log")
    result = run("verify", str(tmp_path), "-f", "json")
    assert result.exit_code == 2
    assert "no logs found" in result.stderr and result.stdout == ""


def test_tournament_missing_path_exits_2(tmp_path: Path) -> None:
    result = run("tournament", str(tmp_path / "no-such-folder"))
    assert result.exit_code == 2 and "no such file or directory" in result.stderr
    empty = run("tournament", str(tmp_path), "-f", "json")
    assert empty.exit_code == 2 and "no logs found" in json.loads(empty.stdout)["error"]["message"]


# ------------------------------------------------------------------------ closed stdout


@pytest.mark.parametrize(
    "args",
    [
        ["verify", "fixtures", "-j", "2"],
        ["replay", "fixtures/example-spider-1suit-117.yaml", "--show", "every"],
        ["schema"],
    ],
)
def test_closed_stdout_exits_like_sigpipe(args: list[str]) -> None:
    """The reader of stdout is gone before the first write (`| head -1` that has its line):
    status 141, as a program killed by SIGPIPE, and not a word on stderr."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "spidercli", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 141
    assert err == b""


# ------------------------------------------------------------------ progress and colour


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("flag", "env", "tty", "expected"),
    [
        (None, {}, True, True),
        (None, {}, False, False),
        (None, {"NO_COLOR": "1"}, True, False),
        (None, {"NO_COLOR": ""}, True, True),  # only a non-empty NO_COLOR counts
        (None, {"FORCE_COLOR": "1"}, False, True),
        (None, {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False, False),
        (None, {"TERM": "dumb"}, True, False),
        (True, {"NO_COLOR": "1"}, False, True),  # the option wins
        (False, {"FORCE_COLOR": "1"}, True, False),
    ],
)
def test_colour_conventions(
    monkeypatch: pytest.MonkeyPatch,
    flag: bool | None,
    env: dict[str, str],
    tty: bool,
    expected: bool,
) -> None:
    from spidercli.cli.terminal import color_wanted

    for key in ("NO_COLOR", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert color_wanted(flag, _Tty() if tty else io.StringIO()) is expected


@pytest.mark.parametrize(
    ("encoding", "flag", "expected"),
    [
        ("utf-8", True, True),
        ("utf-16", True, True),
        ("cp1252", True, False),  # Windows-1252: no suit symbols
        ("latin-1", True, False),
        ("ascii", True, False),
        ("utf-8", False, False),
        ("latin-1", False, False),  # not asked for: nothing to say
    ],
)
def test_unicode_only_where_the_encoding_writes_it(
    encoding: str, flag: bool, expected: bool
) -> None:
    from spidercli.cli.terminal import unicode_wanted

    out = io.TextIOWrapper(io.BytesIO(), encoding=encoding)
    note = io.StringIO()
    assert unicode_wanted(flag, out, note) is expected
    if flag and not expected:
        assert note.getvalue() == (
            f"spidercli: note: --unicode: standard output's encoding ({encoding}) cannot write "
            "the suit symbols; the cards are drawn in ASCII\n"
        )
    else:
        assert note.getvalue() == ""


def test_force_color_colours_the_report_and_no_color_wins() -> None:
    fixture = ["replay", "fixtures/spider-2suit-open.yaml"]
    forced = CliRunner(env={"NO_COLOR": None, "FORCE_COLOR": "1"}).invoke(app, fixture)
    assert "\x1b[" in forced.stdout
    both = CliRunner(env={"NO_COLOR": "1", "FORCE_COLOR": "1"}).invoke(app, fixture)
    assert "\x1b[" not in both.stdout


def _lines(renderable: Any, width: int) -> list[str]:
    from spidercli.cli.terminal import stderr_console

    console = stderr_console(io.StringIO(), width=width)
    lines = console.render_lines(renderable, console.options, pad=False)
    return ["".join(seg.text for seg in line) for line in lines]


@pytest.mark.parametrize("width", [60, 70, 80, 120])
def test_progress_fits_the_terminal(width: int) -> None:
    from spidercli.cli.terminal import solve_line, stderr_console, verify_bar
    from spidercli.solver.search import Progress

    bar = verify_bar(60_000, stderr_console(io.StringIO(), width=width))
    bar.advance(bar.task_ids[0], 12_345)
    rows = _lines(bar.get_renderable(), width)
    assert rows and all(len(r) <= width for r in rows)
    assert "12345/60000" in rows[0] and "verifying" in rows[0]
    p = Progress(states=12_345_678, seconds=123.4, best_runs=7, best_down=12, best_deals=4)
    (line,) = _lines(solve_line(p, width), width)
    assert len(line) <= width and "12,345,678" in line and "…" not in line


def test_progress_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    from spidercli.cli.commands.solve import progress_printer
    from spidercli.solver.search import Progress

    assert progress_printer() is None  # the test's stderr is not a terminal
    err = _Tty()
    monkeypatch.setattr("sys.stderr", err)
    monkeypatch.setenv("COLUMNS", "80")
    show = progress_printer()
    assert show is not None
    show(Progress(states=12345, seconds=2.0, best_runs=3, best_down=7, best_deals=2))
    show.close()
    drawn = err.getvalue()
    assert "12,345 positions" in drawn and "6,172/s" in drawn and "runs 3" in drawn


def test_verify_draws_no_bar_into_a_pipe() -> None:
    result = run("verify", "fixtures/batch", "-f", "jsonl")
    assert result.stderr.splitlines() == [
        "spidercli: 5 logs: 2 valid, 1 illegal, 1 expect-failed, 1 invalid-input"
    ]


# ------------------------------------------------------------- version, completion, help


def test_version_short_and_long() -> None:
    for flag in ("-V", "--version"):
        result = run(flag)
        assert result.exit_code == 0
        assert result.stdout.splitlines()[0] == f"spidercli {__version__}"  # then the solver's pass
        assert result.stdout.splitlines()[1].startswith("solver: ")
    assert run("-v").exit_code == 2  # no such option


def test_shell_completion() -> None:
    root = run("--help").stdout
    assert "--install-completion" in root and "--show-completion" in root
    script = subprocess.run(
        [sys.executable, "-m", "spidercli", "--show-completion", "bash"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        # Typer's switch for tests: take the shell named instead of detecting the parent's
        # (under make that is sh, which has no completion).
        env={**os.environ, "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"},
        timeout=60,
    )
    assert script.returncode == 0, script.stderr
    assert "complete -o default" in script.stdout and "complete_bash" in script.stdout


def _command_lines() -> list[str]:
    """The root, each command of the table, and each command of a group (``import kpat``)."""
    lines = [""]
    for name in cli_app.COMMANDS:
        lines.append(name)
        made = command_of(name)
        if isinstance(made, typer.Typer):
            lines += [f"{name} {info.name}" for info in made.registered_commands]
    return lines


COMMANDS = _command_lines()


@pytest.mark.parametrize("command", COMMANDS)
def test_help(command: str, snapshot: SnapshotAssertion) -> None:
    """Every command's help has an example and its exit statuses; pinned at 80 columns."""
    result = CliRunner(env={"COLUMNS": "80", "NO_COLOR": "1"}).invoke(
        app, [*command.split(), "--help"]
    )
    assert result.exit_code == 0
    assert "Example" in result.stdout and "Exit status" in result.stdout
    assert max(len(line) for line in result.stdout.splitlines()) <= 80
    assert result.stdout == snapshot


def _takes_json(command: str) -> bool:
    result = run(*command.split(), "--help")
    return re.search(r"^\s+--json\b", result.stdout, re.M) is not None


JSON_COMMANDS = [c for c in COMMANDS if c and _takes_json(c)]
assert JSON_COMMANDS == ["replay", "duel", "deal", "solve", "hint", "deals"]  # found, not none


@pytest.mark.parametrize("command", JSON_COMMANDS)
def test_a_usage_error_with_json_is_the_json_error_object_too(command: str) -> None:
    """The contract: with exit status 2, --json prints {"error": ...}, for an option Typer
    refuses (an unknown one here) as for input the command refuses; without --json, nothing on
    stdout."""
    result = run(*command.split(), "--json", "--zzzz")
    assert result.exit_code == 2
    assert json.loads(result.stdout) == {
        "error": {"message": "No such option: --zzzz", "line": None}
    }
    assert "No such option: --zzzz" in result.stderr
    plain = run(*command.split(), "--zzzz")
    assert plain.exit_code == 2 and plain.stdout == ""
    after = run(*command.split(), "--zzzz", "--", "--json")  # a value, not the flag
    assert after.exit_code == 2 and after.stdout == ""


def test_json_as_an_options_value_is_not_the_flag() -> None:
    for args in (["deals", "PS4", "--pick", "3", "--title", "--json", "--zzzz"],
                 ["replay", "--rules", "--json", "x.yaml", "--zzzz"]):  # fmt: skip
        result = run(*args)
        assert result.exit_code == 2 and result.stdout == "", args
    given = run("deals", "PS4", "--title", "x", "--json", "--zzzz")
    assert json.loads(given.stdout)["error"]["message"] == "No such option: --zzzz"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (
            ["replay", "fixtures/example-spider-1suit-117.yaml", "--json", "--on-illegal", "x"],
            "Invalid value for '--on-illegal': 'x' is not one of stop, skip",
        ),
        (["deals", "PS4", "--pick", "0", "--json"], "Invalid value for '--pick'"),
        (["solve", "SP1-S1C-AAAAAAA", "--json", "--max-states", "0"], "'--max-states'"),
    ],
)
def test_a_bad_option_value_with_json_is_the_json_error_object(args: list[str], words: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert words in error["message"] and error["line"] is None


@pytest.mark.parametrize("command", COMMANDS)
def test_help_is_written_plainly(command: str) -> None:
    """Arguments and option values by plain names (``LOG``, ``PATH...``, ``--jobs N``), never
    Typer's notation of types and ranges (``{log}``, ``<list[str]>``, ``<int range>``,
    ``[x>=1]``); every option that takes a value names it."""
    result = run(*command.split(), "--help")
    assert result.exit_code == 0
    for notation in ("{", "<", "x>=", "[required]"):
        assert notation not in result.stdout, (command, notation)
    usage = result.stdout.splitlines()[0]
    assert re.fullmatch(
        r"Usage: spidercli[ a-z]* \[OPTIONS\]( [A-Z_|]+(\.\.\.)?| \[[A-Z_|]+(\.\.\.)?\])*"
        r"( COMMAND \[ARGS\]\.\.\.)?",
        usage,
    ), usage
    options = result.stdout.split("\nOptions:\n")[1]
    for line in options.splitlines():
        if line.startswith("  -") and "--" in line:
            names = line.split("  ")[1]
            assert names == names.strip() and "<" not in names, line


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["replay"], "Usage: spidercli replay [OPTIONS] LOG\n"),
        (["replay"], "Error: Missing argument 'LOG'.\n"),
        (["verify"], "Usage: spidercli verify [OPTIONS] PATH...\n"),
        (["replay", "x.yaml", "--jsno"], "Error: No such option: --jsno (did you mean --json?)\n"),
        (["verify", "x", "--quite"], "No such option: --quite (did you mean --quiet?)\n"),
        (["replay", "x.yaml", "--zzz"], "Error: No such option: --zzz\n"),
        (["replya"], "Error: No such command 'replya' (did you mean 'replay'?)\n"),
        (["import", "kpatt"], "Error: No such command 'kpatt' (did you mean 'kpat'?)\n"),
        (["frobnicate"], "Error: No such command 'frobnicate'.\n"),
    ],
)
def test_usage_errors_say_did_you_mean_as_every_message(args: list[str], error: str) -> None:
    """A typo in an option or a command is answered as a typo in a log is, ``(did you mean
    ...?)``, in place of Typer's two forms (``(Possible options: --json, --show)``, ``. Did
    you mean 'replay'?``); the usage line above it is the help's plain one."""
    result = run(*args)
    assert result.exit_code == 2
    assert error in result.stderr
    assert "Possible options" not in result.stderr and "Did you mean" not in result.stderr


# --------------------------------------------------------------------- deal and replay


def test_show_past_the_last_entry_is_an_input_error() -> None:
    log = "fixtures/illegal/build-one-higher.yaml"  # two entries
    assert run("replay", log, "--show", "2").exit_code == 1  # the last entry: fine
    result = run("replay", log, "--show", "0,3")
    assert result.exit_code == 2
    assert "--show: entry 3 is past the end" in result.stderr and "2 entries" in result.stderr
    as_json = run("replay", log, "--show", "99", "--json")
    assert as_json.exit_code == 2 and "entry 99" in json.loads(as_json.stdout)["error"]["message"]


def test_an_svg_of_a_position_there_is_not_gives_the_json_error_with_json(tmp_path: Path) -> None:
    """`replay --json --svg F --show N`: an N the replay never reaches is an input error like any
    other, with the JSON error object on stdout (it was said on stderr only)."""
    log = "fixtures/batch/b-illegal.yaml"  # refused at entry 2: no position after it
    result = run("replay", log, "--json", "--svg", str(tmp_path / "x.svg"), "--show", "3")
    assert result.exit_code == 2
    message = "--show 3: the replay stopped at entry 2 (refused); there is no position after it"
    assert json.loads(result.stdout) == {"error": {"message": message, "line": None}}
    assert result.stderr == f"spidercli: error: {message}\n"
    assert not (tmp_path / "x.svg").exists()


@pytest.mark.parametrize(
    "args",
    [
        ["replay", "fixtures/example-spider-1suit-117.yaml", "--json", "--show", "3"],
        ["deal", "SP2-S1C-AAAAABD", "--json"],
    ],
    ids=["replay", "deal"],
)
def test_an_svg_that_cannot_be_written_gives_the_json_error_with_json(
    tmp_path: Path, args: list[str]
) -> None:
    out = tmp_path / "no-such-folder" / "x.svg"
    result = run(*args, "--svg", str(out))
    assert result.exit_code == 2
    message = f"{out}: cannot be written: No such file or directory"
    assert json.loads(result.stdout) == {"error": {"message": message, "line": None}}
    assert result.stderr == f"spidercli: error: {message}\n"


# A value as a stranger may pass it: a terminal escape, bidirectional controls, line breaks, and
# more text than any message should hold.
HOSTILE_VALUE = "a\x1b[2Jb\u202ec\u2066d\u2028e\nf\x7f" + "x" * 5_000
EXAMPLE_LOG = "fixtures/example-spider-1suit-117.yaml"


@pytest.mark.parametrize(
    "args",
    [
        ["replay", EXAMPLE_LOG, "--" + HOSTILE_VALUE],  # no such option
        ["replay", EXAMPLE_LOG, HOSTILE_VALUE],  # an extra argument
        [HOSTILE_VALUE],  # no such command
        ["import", HOSTILE_VALUE],
        ["import", "kpat", "save.xml", "--" + HOSTILE_VALUE],
        ["replay", EXAMPLE_LOG, "--on-illegal", HOSTILE_VALUE],  # not one of the choices
        ["verify", EXAMPLE_LOG, "--format", HOSTILE_VALUE],
        ["tournament", EXAMPLE_LOG, "-f", HOSTILE_VALUE],
        ["verify", EXAMPLE_LOG, "--jobs", HOSTILE_VALUE],  # not a whole number
        ["solve", "SP1-S1C-AAAAAAD", "--timeout", HOSTILE_VALUE],
        ["replay", EXAMPLE_LOG, "--lang", HOSTILE_VALUE],  # our check, Typer's message
        ["replay", EXAMPLE_LOG, "--show", HOSTILE_VALUE],  # our message
        ["replay", EXAMPLE_LOG, "--show", "0," + HOSTILE_VALUE],
    ],
    ids=[
        "unknown option",
        "extra argument",
        "unknown command",
        "unknown subcommand",
        "unknown option of a subcommand",
        "choice",
        "verify format",
        "tournament format",
        "integer",
        "number",
        "lang",
        "show",
        "show, second token",
    ],
)
def test_a_hostile_option_value_is_escaped_and_cut_in_the_error(args: list[str]) -> None:
    """Typer's own errors about options, arguments and commands show the user's text as every
    message of spidercli does: escaped (nothing a terminal would act on, no line break of the
    user's), and cut to a few hundred characters."""
    result = run(*args)
    assert result.exit_code == 2
    text = result.stderr
    assert all(ch.isprintable() or ch == "\n" for ch in text), repr(text[:300])
    error = [line for line in text.splitlines() if "rror: " in line]
    assert len(error) == 1, text[:500]
    assert len(error[0]) < 700
    if "x" * 10 in error[0]:  # the value is echoed (not by "is not a valid integer"): escaped
        assert "\\x1b[2J" in error[0] and "\\u202e" in error[0] and "\\u2066" in error[0]
        assert "more characters)" in error[0]
    assert "Traceback" not in text


def test_a_group_without_its_command_shows_its_help_as_written() -> None:
    result = run("import")
    assert result.exit_code == 2
    assert "\nCommands:\n  kpat  Import a KDE KPatience" in result.stderr
    assert "\\x0a" not in result.stderr


TEXT_REPORTS = sorted(FIXTURES.glob("*.yaml")) + sorted((FIXTURES / "illegal").glob("*.yaml"))


@pytest.mark.parametrize("path", TEXT_REPORTS, ids=lambda p: p.name)
def test_default_report_fits_80_columns(path: Path) -> None:
    result = run("replay", str(path.relative_to(ROOT)))
    assert result.exit_code in (0, 1)
    assert max(len(line) for line in result.stdout.splitlines()) <= 80


def test_a_long_player_name_is_wrapped(tmp_path: Path) -> None:
    log = _log(tmp_path / "long.yaml", "a very long player name " * 8)
    lines = run("replay", str(log)).stdout.splitlines()
    assert max(len(line) for line in lines) <= 80


# ------------------------------------------------------------------------ no internal names

INTERNAL = re.compile(r"seeds? 0\d\d|seed\d\d\d-|the seeds", re.IGNORECASE)


def test_rules_are_named_in_words() -> None:
    assert CLASSIC.description == (
        "classic: the Spider and Spiderette apps' rules, 500 points, -1 a move, +100 a run"
    )
    for rules in RULESETS.values():
        assert not INTERNAL.search(rules.description)


@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_reports_never_name_internal_sources(rules: str) -> None:
    result = run("replay", "fixtures/duel-finish.yaml", "--rules", rules, "--show", "none")
    assert not INTERNAL.search(result.stdout + result.stderr)


def test_user_docs_never_name_internal_sources() -> None:
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = doc.read_text(encoding="utf-8")
        assert not INTERNAL.search(text), doc.name
        assert "shared/" not in text, doc.name  # the specs are not part of the project


def test_help_never_names_internal_sources() -> None:
    for command in COMMANDS:
        assert not INTERNAL.search(run(*command.split(), "--help").stdout)


@pytest.mark.parametrize(
    "args",
    [
        ["replay", "fixtures/spider-2suit-open.yaml", "--json", "--describe"],
        ["deal", "SD1-S1-AAAAABD", "--describe", "--json"],
    ],
)
def test_describe_with_json_is_refused(args: list[str]) -> None:
    """The JSON report's keys are the contract's: the paragraph has no place there, and the pair
    is refused (exit 2, the JSON error on stdout) rather than the paragraph silently dropped."""
    result = run(*args)
    assert result.exit_code == 2
    message = (
        "--describe and --json: the JSON report has no place for the paragraph of words; "
        "give one of them"
    )
    assert json.loads(result.stdout) == {"error": {"message": message, "line": None}}
    assert result.stderr == f"spidercli: error: {message}\n"


@pytest.mark.parametrize(
    "args", [["deal", "SD1-S1-AAAAABD"], ["replay", "fixtures/spider-2suit-open.yaml"]]
)
def test_unicode_falls_back_to_ascii_where_stdout_cannot_write_it(args: list[str]) -> None:
    """--unicode on a latin-1 stdout: the ASCII cards (never escapes such as \\u2591) and one
    note on stderr; on UTF-8 the symbols."""

    def spidercli(encoding: str) -> subprocess.CompletedProcess[bytes]:
        env = {**os.environ, "PYTHONIOENCODING": encoding, "NO_COLOR": "1", "COLUMNS": "100"}
        return subprocess.run(
            [sys.executable, "-m", "spidercli", *args, "--unicode"],
            cwd=ROOT,
            env=env,
            capture_output=True,
        )

    latin = spidercli("latin-1")
    assert latin.returncode == 0
    out = latin.stdout.decode("latin-1")
    assert "\\u" not in out and "##" in out and "S" in out
    assert latin.stdout == _spidercli_ascii(args)
    note = latin.stderr.decode()
    assert note.startswith("spidercli: note: --unicode: standard output's encoding (")
    assert note.endswith("cannot write the suit symbols; the cards are drawn in ASCII\n")
    assert note.count("\n") == 1
    utf8 = spidercli("utf-8")
    assert "░░" in utf8.stdout.decode() and "♠" in utf8.stdout.decode()
    assert utf8.stderr == b""


def _spidercli_ascii(args: list[str]) -> bytes:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100"}
    done = subprocess.run(
        [sys.executable, "-m", "spidercli", *args], cwd=ROOT, env=env, capture_output=True
    )
    return done.stdout
