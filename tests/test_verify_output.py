"""What verify writes (issue 29): a file name's terminal escape and bidirectional override are
escaped in every format; JUnit's failure names the rule; ``-q`` on valid logs writes no blank
line; ``spidercli.verify(html_dir=<a file>)`` is refused as ``--html-dir`` is."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import spidercli
from spidercli.errors import InputError
from spidercli.judging import formats
from spidercli.judging.formats import FORMATS
from tests.helpers import ROOT, run

RAW = ("\x1b", "\u202e")
# A name with a terminal escape (ESC [ 2 J clears the screen) and U+202E (turns the rest of the
# line around), as every text output shows it; and three logs under such names.
ODD = "\x1b[2J\u202e"
SHOWN = "\\x1b[2J\\u202e"
EXAMPLE = ROOT / "fixtures" / "example-spiderette-53.yaml"
ILLEGAL = ROOT / "fixtures" / "illegal" / "build-one-higher.yaml"


def _odd_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / f"a-illegal{ODD}.yaml").write_bytes(ILLEGAL.read_bytes())
    (folder / f"b-bad{ODD}.yaml").write_text("game: X\nmoves: []\n")
    (folder / f"c-valid{ODD}.yaml").write_bytes(EXAMPLE.read_bytes())
    return folder


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_no_format_writes_a_name_s_escapes_raw(fmt: str, tmp_path: Path) -> None:
    """``-f concise`` and ``-f github`` wrote ESC and U+202E raw (the table escaped them)."""
    folder = _odd_folder(tmp_path)
    result = run("verify", str(folder), "-f", fmt, "--jobs", "1")
    assert result.exit_code == 2
    out = result.stdout
    for ch in RAW:
        assert ch not in out, (fmt, ch)
    names = [f"{folder}/{p}{ODD}.yaml" for p in ("a-illegal", "b-bad", "c-valid")]
    if fmt in ("json", "jsonl"):  # JSON escapes: the exact name reads back
        records = json.loads(out) if fmt == "json" else [json.loads(x) for x in out.splitlines()]
        assert [r["file"] for r in records] == names
        return
    shown = [name.replace(ODD, SHOWN) for name in names]
    listed = shown if fmt in ("table", "csv", "junit") else shown[:2]  # the valid ones aside
    for name in listed:
        assert name in out, (fmt, name)
    if fmt == "junit":
        cases = ET.fromstring(out).findall("./testsuite/testcase")
        assert [c.attrib["file"] for c in cases] == shown
    if fmt == "concise":  # the path is not said twice for an unusable log
        assert out.splitlines()[1] == f"{shown[1]}:1: invalid-input: game: 'X' is not a game " + (
            "code: expected SP or SD, the suit count 1, 2 or 4, '-S1', the move rule C or P "
            "(optional for SD), '-' and 7 letters A-Z, as in SP2-S1C-AAAAABD or SD1-S1-AAAAABD"
        )


def test_json_printable_reads_back_the_same_value() -> None:
    for value in ["a\x1b[2Jb\u202ec", "\x7f\x85\u2028\u2029\ufeff", "\U000e0001\U0010fffe", "ok"]:
        text = formats.json_printable(json.dumps({"k": value}, ensure_ascii=False))
        assert text.isprintable() and json.loads(text) == {"k": value}


def test_junit_failure_message_names_the_rule() -> None:
    """The other formats name it (github's title, concise, CSV's rule column); JUnit did not."""
    result = run("verify", str(ILLEGAL.relative_to(ROOT)), "-f", "junit")
    failure = ET.fromstring(result.stdout).find("./testsuite/testcase/failure")
    assert failure is not None
    assert failure.attrib["message"].startswith("illegal build-one-higher: entry 1 `4>1`: ")
    assert (failure.text or "").startswith("line 5: build-one-higher: entry 1 `4>1`: ")


def test_quiet_on_valid_logs_writes_no_blank_line() -> None:
    result = run("verify", "-q", str(EXAMPLE.relative_to(ROOT)))
    assert result.exit_code == 0
    assert result.stdout == "1 log: 1 valid, 0 illegal, 0 expect-failed, 0 invalid-input\n"
    listed = run("verify", "-q", str(EXAMPLE.relative_to(ROOT)), str(ILLEGAL.relative_to(ROOT)))
    assert "has none\n\n2 logs: 1 valid, 1 illegal" in listed.stdout  # a gap under a listing


def test_the_api_refuses_an_html_dir_that_is_a_file_as_the_command_line_does(
    tmp_path: Path,
) -> None:
    """``spidercli.verify(html_dir=<a regular file>)`` wrote no page and said nothing."""
    blocker = tmp_path / "pages"
    blocker.write_text("not a folder\n")
    with pytest.raises(InputError) as caught:
        spidercli.verify([str(ILLEGAL)], html_dir=blocker)
    message = f"--html-dir {blocker}: cannot be created: File exists"
    assert str(caught.value) == message
    result = run("verify", str(ILLEGAL), "--html-dir", str(blocker))
    assert (result.exit_code, result.stderr) == (2, f"spidercli: error: {message}\n")
    assert blocker.read_text() == "not a folder\n"


def test_the_api_makes_a_missing_html_dir_and_writes_the_pages(tmp_path: Path) -> None:
    pages = tmp_path / "new" / "pages"
    verdicts = list(spidercli.verify([str(ILLEGAL)], html_dir=pages))
    assert verdicts[0].page is not None and (pages / verdicts[0].page).is_file()
