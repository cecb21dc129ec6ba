"""Output that cannot be written: a full disk (`> /dev/full`), a file or folder the output cannot
go to. Each is an error of the environment, said in one line naming what could not be written and
why, exit status 2: never an "internal error", never a traceback, in every command. (A reader of
stdout that went away is another matter: exit status 141, silently; test_conventions.py.)

Every run is a real process (stdout is its file descriptor 1), under a timeout guard, but the
last, which makes a temporary file fail in this process."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from spidercli.judging.formats import FORMATS
from tests.helpers import ROOT, run
from tests.processes import group_gone

pytestmark = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")

GUARD = 120  # seconds: a hang fails the test (not a speed test)
NO_SPACE = os.strerror(errno.ENOSPC)
STDOUT_FULL = f"spidercli: error: cannot write to standard output: {NO_SPACE}\n"
EXAMPLE = "fixtures/example-spider-1suit-117.yaml"
KPAT_SAVE = "fixtures/kpat/spider-1suit-demo-part.xml"

# ``python -c NO_ROOM ARGS...``: spidercli with every file it writes failing as on a full disk
# (the data is flushed to disk with fsync before a file replaces another: that is where a full
# disk of delayed allocation says so). Standard output is not affected.
NO_ROOM = """
import errno, os, sys
def full(fd):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
os.fsync = full
from spidercli.cli.app import main
sys.argv = ["spidercli", *sys.argv[1:]]
main()
"""


def _run(
    args: list[str], stdout: str = "/dev/full", harness: str | None = None
) -> subprocess.CompletedProcess[str]:
    start = (
        [sys.executable, "-m", "spidercli"] if harness is None else [sys.executable, "-c", harness]
    )
    with open(stdout, "wb") as out:
        proc = subprocess.Popen(
            [*start, *args],
            stdout=out,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            cwd=ROOT,
            env={**os.environ, "COLUMNS": "100", "LC_ALL": "C.UTF-8"},
            start_new_session=True,  # its own process group: what is left of it can be found
        )
        try:
            _, err = proc.communicate(timeout=GUARD)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, 9)
                proc.wait()
    assert group_gone(proc.pid), "a worker outlived the run"
    return subprocess.CompletedProcess(args, proc.returncode, "", err.decode("utf-8", "replace"))


VERIFY_FORMATS = list(FORMATS)

COMMANDS = [
    ["replay", EXAMPLE],
    ["replay", EXAMPLE, "--json"],
    ["replay", EXAMPLE, "--show", "every"],  # fails while replaying: the buffer fills
    ["replay", "fixtures/illegal/group-mixed-suits.yaml"],  # exit status 1 otherwise
    ["deal", "SP2-S1C-AAAAABD"],
    ["deal", "SD1-S1-AAAABIW", "--json"],
    ["deal", "SD1-S1-AAAABIW", "--describe"],
    ["duel", "fixtures/duel-1suit-win.yaml", "fixtures/duel-finish.yaml"],
    ["duel", "fixtures/duel-1suit-win.yaml", "fixtures/duel-finish.yaml", "--json"],
    ["solve", "SP1-S1C-AAAAAAD", "--max-states", "20000"],
    ["hint", "fixtures/spider-2suit-open.yaml", "--timeout", "0.1"],
    ["hint", "fixtures/spider-2suit-open.yaml", "--timeout", "0.1", "--json"],
    *(["verify", "fixtures", "-j", "2", "-f", fmt] for fmt in VERIFY_FORMATS),
    ["verify", "fixtures", "-j", "1", "-q"],
    ["verify", "fixtures/batch", "-j", "2", "--html-dir", "{tmp}/pages"],
    *(["tournament", "fixtures/batch", "-j", "2", "-f", fmt] for fmt in ("table", "json", "csv")),
    ["record", "{tmp}/log.yaml"],
    ["import", "kpat", KPAT_SAVE],
    ["schema"],
    ["--version"],
    ["--help"],
    ["replay", "--help"],
    ["import", "kpat", "-h"],
]


@pytest.mark.parametrize("args", COMMANDS, ids=[" ".join(a)[:60] for a in COMMANDS])
def test_a_full_stdout_is_said_in_one_line_in_every_command(
    tmp_path: Path, args: list[str]
) -> None:
    shutil.copyfile(ROOT / EXAMPLE, tmp_path / "log.yaml")
    result = _run([a.format(tmp=tmp_path) for a in args])
    assert (result.returncode, result.stderr) == (2, STDOUT_FULL)


@pytest.mark.parametrize(
    ("lang", "said"),
    [("cs", "nelze zapisovat na standardní výstup"), ("fi", "vakiotulosteeseen ei voi kirjoittaa")],
)
def test_the_line_is_said_in_the_language_in_use(lang: str, said: str) -> None:
    result = _run(["replay", EXAMPLE, "--lang", lang])
    assert (result.returncode, result.stderr) == (2, f"spidercli: error: {said}: {NO_SPACE}\n")


def test_with_stderr_full_too_the_exit_status_still_tells() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "spidercli", "verify", "fixtures", "-j", "2", "-f", "json"],
        stdout=subprocess.DEVNULL,
        stderr=open("/dev/full", "wb"),  # noqa: SIM115 - closed with the process
        cwd=ROOT,
        timeout=GUARD,
        check=False,
    )
    assert proc.returncode == 2


def test_a_closed_stdout_is_still_quiet() -> None:
    """Unchanged: a reader that went away is not an error to report (status 141, no word)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "spidercli", "verify", "fixtures", "-j", "2"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=GUARD) == 141 and err == b""


# ---------------------------------------------------------------------------- output files


def _pages(tmp_path: Path) -> Path:
    pages = tmp_path / "pages"
    pages.mkdir()
    return pages


@pytest.mark.parametrize("fmt", ["table", "json"])
def test_an_index_that_cannot_be_written(tmp_path: Path, fmt: str) -> None:
    """`verify --html-dir`: the logs are verified and listed; the index cannot be written (here a
    folder stands where it goes): one line saying so, exit status 2 (not 1 as the logs alone
    would give, nor an internal error)."""
    pages = _pages(tmp_path)
    (pages / "index.html").mkdir()
    out = tmp_path / "out"
    result = _run(["verify", "fixtures/illegal", "-f", fmt, "--html-dir", str(pages)], str(out))
    assert result.returncode == 2
    assert result.stderr == (
        f"spidercli: error: {pages}/index.html: cannot be written: is a directory, not a regular "
        "file: not replaced (only regular files are written)\n"
    )
    logs = len(list((ROOT / "fixtures/illegal").glob("*.yaml")))
    if fmt == "json":  # the listing is whole
        assert len(json.loads(out.read_text())) == logs
    else:
        assert f"\n{logs} logs: 0 valid, {logs} illegal" in out.read_text()


def test_an_index_on_a_full_disk(tmp_path: Path) -> None:
    pages = _pages(tmp_path)
    result = _run(["verify", "fixtures/illegal", "--html-dir", str(pages)], os.devnull, NO_ROOM)
    assert (result.returncode, result.stderr) == (
        2,
        f"spidercli: error: {pages}/index.html: cannot be written: {NO_SPACE}\n",
    )
    assert list(pages.iterdir()) == []  # no page, nor any half-written file


@pytest.mark.parametrize(
    ("args", "name"),
    [
        (["solve", "SP1-S1C-AAAAAAD", "--max-states", "20000", "-o", "{out}"], "win.yaml"),
        (["import", "kpat", KPAT_SAVE, "-o", "{out}"], "game.yaml"),
        (["replay", EXAMPLE, "--html", "{out}"], "page.html"),
        (["replay", EXAMPLE, "--svg", "{out}", "--show", "3"], "board.svg"),
        (["deal", "SP2-S1C-AAAAABD", "--svg", "{out}"], "deal.svg"),
        (["record", "{out}"], "log.yaml"),
    ],
    ids=["solve -o", "import kpat -o", "replay --html", "replay --svg", "deal --svg", "record"],
)
def test_a_named_file_on_a_full_disk(tmp_path: Path, args: list[str], name: str) -> None:
    out = tmp_path / name
    if name == "log.yaml":  # a log without its expect block: record writes one
        out.write_text("game: SD1-S1-AAAABIW\nmoves: [7>1]\n")
    before = out.read_bytes() if out.exists() else None
    result = _run([a.format(out=out) for a in args], os.devnull, NO_ROOM)
    assert result.returncode == 2
    assert result.stderr.endswith(f"spidercli: error: {out}: cannot be written: {NO_SPACE}\n")
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    assert (out.read_bytes() if out.exists() else None) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ([name] if before else [])


def test_any_other_os_error_is_said_as_the_system_says_it() -> None:
    """An ``OSError`` no command names (here from inside ``schema``): the file and the system's
    words, exit status 2; not an internal error."""
    harness = """
import errno, os, sys
from spidercli.logs import schema
def broken():
    raise OSError(errno.EIO, os.strerror(errno.EIO), "/srv/x\\x1b[2J.json")
schema.log_schema = broken
from spidercli.cli.app import main
sys.argv = ["spidercli", "schema"]
main()
"""
    result = _run([], os.devnull, harness)
    assert (result.returncode, result.stderr) == (
        2,
        f"spidercli: error: /srv/x\\x1b[2J.json: {os.strerror(errno.EIO)}\n",
    )


def test_junits_temporary_file_on_a_full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """JUnit's cases wait in a temporary file (past 1 MiB on disk) until the counts are known: a
    full disk there is said too. In this process: the file's writes made to fail."""
    import io
    import tempfile

    class Full(io.StringIO):
        def write(self, text: str) -> int:
            raise OSError(errno.ENOSPC, NO_SPACE)

    monkeypatch.setattr(tempfile, "SpooledTemporaryFile", lambda **_: Full())
    result = run("verify", "fixtures/batch", "-f", "junit", "-j", "1")
    assert result.exit_code == 2
    assert result.stderr == (
        f"spidercli: error: cannot write the JUnit report's temporary file: {NO_SPACE}\n"
    )
