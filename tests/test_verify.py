"""`spidercli verify`: a batch mixing every status, in every format; the order of the logs;
the exit status; and agreement with `replay` on every fixture."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from syrupy.assertion import SnapshotAssertion

from spidercli.judging.findlogs import find_logs
from spidercli.judging.formats import FORMATS
from tests.helpers import FIXTURES, ROOT, run, run_batch

BATCH = "fixtures/batch"


ORDER = [
    "fixtures/batch/a-valid.yaml",
    "fixtures/batch/b-illegal.yaml",
    "fixtures/batch/c-expect-failed.yaml",
    "fixtures/batch/d-unusable.yaml",
    "fixtures/batch/nested/e-valid.yml",
]


STATUSES = ["valid", "illegal", "expect-failed", "invalid-input", "valid"]


def test_find_logs_sorts_directories_and_keeps_the_given_order() -> None:
    assert list(find_logs([BATCH])) == ORDER
    given = ["fixtures/batch/c-expect-failed.yaml", BATCH + "/a-*.yaml", "no/such.yaml"]
    assert list(find_logs(["fixtures/bat*"])) == ORDER  # a glob matching a directory walks it
    assert list(find_logs(given)) == [
        "fixtures/batch/c-expect-failed.yaml",
        "fixtures/batch/a-valid.yaml",
        "no/such.yaml",
    ]


def test_the_format_choice_and_its_help_come_from_the_one_table() -> None:
    from spidercli.cli.commands.verify import FormatName

    assert [choice.value for choice in FormatName] == list(FORMATS)
    shown = " ".join(run("verify", "--help").stdout.split())
    assert "-f, --format FORMAT " in shown  # the choices are the help's words (plain notation)
    for name, fmt in FORMATS.items():
        assert (f"{name} ({fmt.note})" if fmt.note else f"{name},") in shown


# A format added in one place, ``formats.FORMATS``, before the command is loaded: the choice, its
# help and the writing follow.
ONE_ROOM = """
from spidercli.judging import formats

class Shout(formats.Writer):
    def write(self, verdict):
        self.out.write(verdict.status.upper() + "\\n")

formats.FORMATS["shout"] = formats.OutputFormat("shout", Shout, "statuses in capitals")
from typer.testing import CliRunner
from spidercli.cli.app import app

ran = CliRunner().invoke(app, ["verify", "fixtures/batch", "-f", "shout", "-j", "1"])
print(ran.exit_code, repr(ran.stdout))
print(" ".join(CliRunner().invoke(app, ["verify", "--help"]).stdout.split()))
"""


def test_a_format_is_added_in_one_place() -> None:
    out = subprocess.run(
        [sys.executable, "-c", ONE_ROOM], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out[0] == "2 'VALID\\nILLEGAL\\nEXPECT-FAILED\\nINVALID-INPUT\\nVALID\\n'"
    assert "rule: message), shout (statuses in capitals)." in out[1]


def _untimed(text: str) -> str:
    """JUnit's ``time`` attributes (seconds, which vary) as ``T``."""
    import re

    return re.sub(r'time="[0-9.]+"', 'time="T"', text)


@pytest.mark.parametrize("fmt", list(FORMATS))
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


def test_verify_rules_override() -> None:
    log = "fixtures/duel-1suit-win.yaml"
    assert run("verify", log).exit_code == 0
    classic = run("verify", log, "--rules", "classic", "-f", "jsonl")
    record = json.loads(classic.stdout)
    assert record["status"] == "illegal" and record["illegal"][0]["rule"] == "flip-automatic"
    bad = run("verify", log, "--rules", "freecell")
    assert bad.exit_code == 2 and "unknown ruleset" in bad.stderr


@pytest.mark.parametrize("columns", ["100", "80", ""])
def test_the_table_fits_the_width(columns: str) -> None:
    """Each log's line wraps to COLUMNS (80 when it is not set) under the status column, as the
    replay report wraps under its labels: no line of 239 characters."""
    from typer.testing import CliRunner

    from spidercli.cli.app import app

    env = {"COLUMNS": columns or None, "NO_COLOR": "1"}
    result = CliRunner(env=env).invoke(app, ["verify", "fixtures/illegal", "fixtures/batch"])
    assert result.exit_code == 2
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= int(columns or 80)
    body = lines[: lines.index("")]
    assert any(line.startswith(" " * 15) for line in body)  # wrapped under the status
    for line in body:
        assert line[:15].rstrip() in ("ILLEGAL", "EXPECT-FAILED", "INVALID-INPUT", "valid", ""), (
            line
        )
    wide = run("verify", "fixtures/illegal", "-f", "concise")  # the machine formats: one a line
    assert max(len(line) for line in wide.stdout.splitlines()) > 100
