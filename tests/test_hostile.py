"""Logs and paths from a hostile submitter: each attack in tests/hostile/ (or made here, for FIFOs,
devices, sockets, links) with the exit status and the message it must get. Nothing hangs, nothing
is echoed raw, nothing crashes."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from spidercli.judging.findlogs import find_logs
from spidercli.logs.files import MAX_LOG_BYTES, NotRegularFile, write_atomic
from spidercli.text.messages import LIMIT, located, quoted, shown, shown_path
from tests.helpers import FIXTURES, ROOT, run
from tests.processes import children, group_gone, interruptible, slow_folder

HOSTILE = ROOT / "tests" / "hostile"
SMALL = "game: SD1-S1-AAAABIW\nmoves: [7>1]\n"  # a valid log: one legal move
RAW = ("\x1b", "\x07", "\x9b", "\u202e", "\u2066", "\u2028", "\x85", "\x00")


def assert_safe(text: str) -> None:
    """No terminal escape, bidirectional override, line separator or NUL written raw."""
    for ch in RAW:
        assert ch not in text, f"{ch!r} written raw"
    assert "Traceback" not in text


# ----------------------------------------------------------------------------- the corpus

# (file in tests/hostile, exit status of `replay`, text that must be in its output)
CORPUS = [
    ("arabic-digit.yaml", 2, "arabic-digit.yaml:2: expect.moves: '١' is not a usable number"),
    ("arabic-time.yaml", 2, "arabic-time.yaml:2: time: '١٢' is not a usable number"),
    ("bidi-player.yaml", 0, "Player   \\u202eevil\\u2066"),
    ("billion-laughs.yaml", 2, "billion-laughs.yaml:2: YAML aliases (*name) are not allowed"),
    ("control-char.yaml", 2, "control-char.yaml:2: not valid YAML: the character \\x07"),
    ("deep.yaml", 2, "deep.yaml:3: not valid YAML"),
    ("double-bom.yaml", 0, "VALID"),
    ("escape-in-action.yaml", 2, "escape-in-action.yaml:2: moves, entry 1: '\\x1b[31m7>1' is"),
    ("escape-in-tag.yaml", 2, "escape-in-tag.yaml:2: custom YAML tags (tag:\\x1b[2Jaaa"),
    ("escape-in-player.yaml", 0, "Player   \\x1b[2J\\x1b]0;owned\\x07"),
    ("ideographic-space.yaml", 2, "'deal\\u3000' is not an action (U+3000 is not ASCII)"),
    (
        "kelvin-result.yaml",
        2,
        "expect.result: 'bloc\u212aed' is not a result (U+212A is not ASCII)",
    ),
    ("kelvin-rules.yaml", 2, "rules: unknown ruleset 'pavou\u212a' (U+212A is not ASCII)"),
    ("lone-cr.yaml", 0, "Player   bob"),
    ("long-action.yaml", 2, "... (49,800 more characters)' is not an action"),
    ("long-legal-looking-action.yaml", 1, "entry 1 `00000000000000000000000000000000000000000"),
    ("long-player.yaml", 0, "y... (49,800 more characters)"),
    ("long-s-card.yaml", 2, "'9ſ' is not a card (U+017F is not ASCII)"),
    ("long-s-code.yaml", 2, "long-s-code.yaml:1: game: 'ſp1-ſ1c-aaaaaıd' is not a game code"),
    ("nbsp-action.yaml", 2, "nbsp-action.yaml:2: moves, entry 1: '7\\xa0>1' is not an action"),
    ("nel-in-player.yaml", 0, "\\u2028"),
    ("not-utf8.yaml", 2, "not-utf8.yaml:2: is not UTF-8 text"),
    ("nul.yaml", 2, "nul.yaml:2: is a binary file (a NUL byte)"),
    ("tab-after-dash.yaml", 2, "tab-after-dash.yaml:3: not valid YAML: a tab at column 4"),
    ("tab-in-action.yaml", 0, "VALID"),
    ("tab-separators.yaml", 0, "VALID"),
    ("vertical-tab-action.yaml", 2, "moves, entry 1: '7\\x0b>1' is not an action"),
]


def test_the_corpus_is_all_in_the_table() -> None:
    assert sorted(p.name for p in HOSTILE.glob("*.yaml")) == sorted(c[0] for c in CORPUS)


@pytest.mark.usefixtures("yaml_loader")  # with libyaml's loader, and with the pure-Python one
@pytest.mark.parametrize(("name", "status", "message"), CORPUS)
def test_hostile_log(name: str, status: int, message: str) -> None:
    result = run("replay", f"tests/hostile/{name}", "--show", "none")
    assert result.exit_code == status, result.output
    out = result.stdout + result.stderr
    # The text report wraps long values at 80 columns (breaking long words): compare unwrapped.
    assert message in out or "".join(message.split()) in "".join(out.split())
    assert_safe(out)
    assert max(len(line) for line in out.splitlines()) < 2 * LIMIT + 300  # bounded echo
    if status == 2:  # one paragraph on stderr, in the path:line: message form
        assert result.stderr.startswith(f"spidercli: error: tests/hostile/{name}")
        assert result.stderr.count("\n") == 1


@pytest.mark.usefixtures("yaml_loader")
@pytest.mark.parametrize(("name", "status", "message"), CORPUS)
def test_hostile_log_in_verify_and_json(name: str, status: int, message: str) -> None:
    result = run("verify", f"tests/hostile/{name}", "-f", "jsonl", "-j", "1")
    assert result.exit_code == status
    record = json.loads(result.stdout)
    assert record["status"] == ["valid", "illegal", "invalid-input"][status]
    if status == 2:
        assert message in record["error"]["message"]
        assert_safe(record["error"]["message"])
    table = run("verify", f"tests/hostile/{name}", "-j", "1")
    assert_safe(table.stdout + table.stderr)


# ----------------------------------------------------------------------- reading: files


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    result = run("replay", str(fifo))
    assert result.exit_code == 2
    assert f"{fifo}: is a FIFO (named pipe), not a regular file" in result.stderr
    assert run("hint", str(fifo)).exit_code == 2
    assert run("record", str(fifo)).exit_code == 2


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_a_device_is_refused() -> None:
    result = run("replay", "/dev/zero")
    assert result.exit_code == 2 and "/dev/zero: is a character device" in result.stderr


def test_a_socket_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    if len(str(path)) > 100:
        pytest.skip("socket path too long")
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        result = run("replay", str(path))
    assert result.exit_code == 2 and "is a socket, not a regular file" in result.stderr


def test_a_directory_is_refused(tmp_path: Path) -> None:
    result = run("replay", str(tmp_path))
    assert result.exit_code == 2 and "is a directory" in result.stderr


def test_a_log_over_the_limit_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text(SMALL + "# " + "x" * MAX_LOG_BYTES + "\n")
    result = run("replay", str(big))
    assert result.exit_code == 2
    assert "than the limit of 1 MiB for one log; --max-log-bytes raises it" in result.stderr
    raised = run("replay", str(big), "--max-log-bytes", str(2 * MAX_LOG_BYTES))
    assert raised.exit_code == 0
    small = run("replay", str(FIXTURES / "example-spider-1suit-117.yaml"), "--max-log-bytes", "99")
    assert small.exit_code == 2 and "limit of 99 bytes" in small.stderr
    assert run("replay", str(big), "--max-log-bytes", "0").exit_code == 2  # not a limit
    for command in ("verify", "record", "hint"):
        output = " ".join(run(command, str(big)).output.split())  # verify's table wraps
        assert "--max-log-bytes raises it" in output


# ----------------------------------------------------------------------- reading: stdin


def test_dash_is_standard_input_for_replay_hint_verify_and_duel() -> None:
    log = (FIXTURES / "example-spiderette-53.yaml").read_bytes()
    result = run("replay", "-", "--json", stdin=log)
    assert result.exit_code == 0 and json.loads(result.stdout)["result"] == "won"
    hint = run("hint", "-", "--json", stdin=SMALL.encode())
    assert hint.exit_code == 0 and json.loads(hint.stdout)
    for jobs in ("1", "2"):
        verified = run("verify", "-", "-f", "jsonl", "-j", jobs, stdin=log)
        assert verified.exit_code == 0
        assert json.loads(verified.stdout)["file"] == "-"
    one = (FIXTURES / "duel-1suit-win.yaml").read_bytes()
    duel = run("duel", "-", str(FIXTURES / "duel-finish.yaml"), "--json", stdin=one)
    assert duel.exit_code == 0, duel.output
    assert json.loads(duel.stdout)["players"][0]["file"] == "<stdin>"


def test_bad_standard_input_is_named_stdin() -> None:
    result = run("replay", "-", stdin=b"game: SD1-S1-AAAABIW\nmoves: [7 to 1]\n")
    assert result.exit_code == 2 and "<stdin>:2: moves, entry 1" in result.stderr
    big = SMALL.encode() + b"#" * 200
    result = run("replay", "-", "--max-log-bytes", "100", stdin=big)
    assert result.exit_code == 2 and "<stdin>: is larger" in result.stderr
    verified = run("verify", "-", "--max-log-bytes", "100", "-f", "jsonl", stdin=big)
    assert verified.exit_code == 2 and "limit of 100 bytes" in verified.stdout
    assert run("record", "-", stdin=SMALL.encode()).exit_code == 2


# ------------------------------------------------------------------------------ writing


def test_record_writes_through_a_symlink_and_keeps_the_mode(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    target = real / "log.yaml"
    target.write_text(SMALL)
    target.chmod(0o640)
    link = tmp_path / "link.yaml"
    link.symlink_to(target)
    assert run("record", str(link)).exit_code == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert "expect:" in target.read_text()
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in real.iterdir()) == ["log.yaml"]  # no temporary file left


def test_a_new_file_gets_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        write_atomic(tmp_path / "new.yaml", SMALL)
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.yaml").stat().st_mode) == 0o640


def test_solve_output_refuses_what_is_not_a_regular_file(tmp_path: Path) -> None:
    fifo = tmp_path / "out.yaml"
    os.mkfifo(fifo)
    result = run("solve", "SP1-S1C-AAAAAAB", "-o", str(fifo))
    assert result.exit_code == 2 and "is a FIFO (named pipe), not a regular file" in result.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # left alone
    with pytest.raises(NotRegularFile):
        write_atomic(tmp_path, SMALL)  # a directory


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="mknod needs root")
def test_solve_output_refuses_a_device(tmp_path: Path) -> None:
    device = tmp_path / "null"
    os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # a second /dev/null
    result = run("solve", "SP1-S1C-AAAAAAB", "-o", str(device))
    assert result.exit_code == 2 and "is a character device" in result.stderr
    assert stat.S_ISCHR(os.lstat(device).st_mode)


# ------------------------------------------------------------------------- the finder


def _tree(root: Path) -> Path:
    """A folder with a FIFO, two symlink loops, a hidden folder and file, and a duplicate."""
    logs = root / "logs"
    (logs / "sub").mkdir(parents=True)
    (logs / ".git").mkdir()
    (logs / "a.yaml").write_text(SMALL)
    (logs / "sub" / "b.yaml").write_text(SMALL)
    (logs / ".git" / "hidden.yaml").write_text("not: a log\n")
    (logs / ".draft.yaml").write_text("not: a log\n")
    os.mkfifo(logs / "fifo.yaml")
    (logs / "loop").symlink_to(".")  # logs/loop -> logs
    (logs / "sub" / "up").symlink_to("..")  # logs/sub/up -> logs
    (logs / "same.yaml").symlink_to("a.yaml")  # a duplicate of a.yaml
    return logs


def test_find_logs_once_each_no_loops_no_hidden(tmp_path: Path) -> None:
    logs = _tree(tmp_path)
    found = list(find_logs([str(logs), str(logs / "a.yaml"), str(logs / "sub")]))
    assert found == [str(logs / "a.yaml"), str(logs / "fifo.yaml"), str(logs / "sub" / "b.yaml")]
    named = list(find_logs([str(logs / ".git"), str(logs / ".draft.yaml")]))
    assert named == [str(logs / ".git" / "hidden.yaml"), str(logs / ".draft.yaml")]


def test_verify_a_hostile_folder_in_bounded_time(tmp_path: Path) -> None:
    logs = _tree(tmp_path)
    out = subprocess.run(  # the timeout guards against a hang; it is not a speed test
        [sys.executable, "-m", "spidercli", "verify", str(logs), "-f", "jsonl", "-j", "2"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert [Path(r["file"]).name for r in records] == ["a.yaml", "fifo.yaml", "b.yaml"]
    assert [r["status"] for r in records] == ["valid", "invalid-input", "valid"]
    assert "is a FIFO" in records[1]["error"]["message"]
    assert out.returncode == 2 and "Traceback" not in out.stderr


# A batch where the log07.yaml's worker meets a bug: ``python -c FLAKY JOBS PATH...``. In a
# process of its own, which has one thread: its workers are forked, and inherit the replacement
# (a process with threads, as pytest-xdist's, has its workers forked by a fork server, which
# imports the real function).
FLAKY = """
import io, json, sys
from spidercli.judging import workers
from spidercli.judging.formats import write_verdicts

real = workers.verify_one

def flaky(path, *args):
    if path.endswith("log07.yaml"):
        raise RuntimeError("boom")
    return real(path, *args)

workers.verify_one = flaky
out = io.StringIO()
found = workers.verify_all(sys.argv[2:], rules=None, jobs=int(sys.argv[1]), want_json=True)
tally = write_verdicts(found, out, fmt="jsonl")
print(json.dumps(tally.counts))
sys.stdout.write(out.getvalue())
"""


def test_one_failing_file_costs_only_its_own_verdict(tmp_path: Path) -> None:
    paths = []
    for i in range(40):
        path = tmp_path / f"log{i:02}.yaml"
        path.write_text(SMALL)
        paths.append(str(path))
    for jobs in (1, 2):
        done = subprocess.run(
            [sys.executable, "-c", FLAKY, str(jobs), *paths],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        counts, *lines = done.stdout.splitlines()
        records = [json.loads(line) for line in lines]
        assert [r["file"] for r in records] == paths
        assert json.loads(counts) == {
            "valid": 39,
            "illegal": 0,
            "expect-failed": 0,
            "invalid-input": 1,
        }
        assert "internal error: RuntimeError: boom" in records[7]["error"]["message"]


# -------------------------------------------------------------------- signals, encodings


def _slow_folder(root: Path) -> Path:
    """200 logs that take a while each (many legal deal/undo pairs), so that the workers are busy
    when a signal comes, and whose verdicts (about 1 KB each in JSONL) are far more than a pipe's
    page and the parent's output buffer hold (see ``verifying``)."""
    return slow_folder(root, pairs=20000, copies=200)


# The smallest pipe Linux makes (a page): the run's output, about 1 KB a log, fills it long before
# the run ends, and the parent then waits for the test to read.
_SMALL_PIPE = 4096


@pytest.fixture
def verifying(tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A ``verify`` run, certainly still going (whatever the machine's speed or load) when the
    test gets it: its workers have started, its first verdicts are out, and its stdout is a pipe
    this test does not read until it has signalled, so the run cannot finish before."""
    if not Path("/proc/self/task").exists():
        pytest.skip("needs /proc")
    import fcntl

    folder = _slow_folder(tmp_path)
    proc = subprocess.Popen(
        [sys.executable, "-m", "spidercli", "verify", str(folder), "-f", "jsonl", "-j", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, as a terminal's job would be
        preexec_fn=interruptible,
    )
    try:
        assert proc.stdout is not None
        fcntl.fcntl(proc.stdout, getattr(fcntl, "F_SETPIPE_SZ", 1031), _SMALL_PIPE)
        deadline = time.monotonic() + 60  # a guard against a hang, not a speed test
        while not (len(children(proc.pid)) >= 2 and _unread(proc.stdout.fileno())):
            assert time.monotonic() < deadline, "the run never got going"
            time.sleep(0.05)
        yield proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _unread(fd: int) -> int:
    """Bytes waiting in a pipe."""
    import fcntl
    import termios

    found = bytearray(4)
    fcntl.ioctl(fd, termios.FIONREAD, found)
    return int.from_bytes(found, sys.byteorder)


def _cut_short(out: bytes) -> bool:
    """Whether a run of ``_slow_folder`` wrote fewer than its 200 verdicts."""
    return out.count(b"\n") < 200


def test_ctrl_c_ends_the_workers_quietly(verifying: subprocess.Popen[bytes]) -> None:
    os.killpg(verifying.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole group
    out, err = verifying.communicate(timeout=60)
    assert verifying.returncode == 130, err
    assert b"Traceback" not in err and b"Error" not in err  # nothing from the workers
    assert _cut_short(out)
    assert group_gone(verifying.pid), "a worker outlived the parent"


def test_sigterm_ends_the_workers_quietly(verifying: subprocess.Popen[bytes]) -> None:
    os.kill(verifying.pid, signal.SIGTERM)  # the parent alone, as a supervisor would
    out, err = verifying.communicate(timeout=60)
    assert verifying.returncode == 128 + signal.SIGTERM, err
    assert b"Traceback" not in err
    assert _cut_short(out)
    assert group_gone(verifying.pid), "a worker outlived the parent"


def test_a_strict_stdout_and_a_name_that_is_not_utf8(tmp_path: Path) -> None:
    odd = os.fsencode(str(tmp_path)) + b"/caf\xe9-\x1b[2J.yaml"
    with open(odd, "w") as handle:
        handle.write('game: SD1-S1-AAAABIW\nplayer: "Žofie ♠"\nmoves: [7>1, 9 to 2]\n')
    ok = tmp_path / "ok.yaml"
    ok.write_text('game: SD1-S1-AAAABIW\nplayer: "Žofie ♠"\nmoves: [7>1]\n')
    env = {**os.environ, "PYTHONIOENCODING": "ascii:strict", "LC_ALL": "C"}
    texts = []
    for args in (
        ["verify", str(tmp_path), "-j", "1"],
        ["verify", str(tmp_path), "-f", "json", "-j", "2"],
        ["replay", os.fsdecode(odd)],
        ["replay", str(ok)],
    ):
        out = subprocess.run(
            [sys.executable, "-m", "spidercli", *args],
            capture_output=True,
            env=env,
            timeout=120,
            check=False,
        )
        text = (out.stdout + out.stderr).decode("ascii")  # nothing but ASCII was written
        assert "Traceback" not in text and "internal error" not in text
        assert "\x1b" not in text
        assert out.returncode == (0 if args[-1] == str(ok) else 2)
        texts.append(text)
    assert "caf\\xe9-\\x1b[2J.yaml:3: moves, entry 2: '9 to 2' is not" in texts[2]
    assert "\\u017dofie \\u2660" in texts[3]  # non-ASCII written as escapes, not a crash


# ---------------------------------------------------------------------------- messages


def test_shown_escapes_and_cuts() -> None:
    assert shown("a\x1b[2Jb\u202e\t") == "a\\x1b[2Jb\\u202e\\t"
    assert shown("x" * 500).endswith("... (300 more characters)")
    assert len(shown("x" * 500)) < LIMIT + 40
    assert quoted("5 to 7") == "'5 to 7'"
    assert shown_path("caf\udce9.yaml") == "caf\\xe9.yaml"
    assert len(shown_path("d/" * 1000 + "end.yaml")) <= LIMIT + 3
    assert shown_path("d/" * 1000 + "end.yaml").endswith("end.yaml")
    assert located("a.yaml", 3, "bad") == "a.yaml:3: bad"
    assert located("a.yaml", None, "bad") == "a.yaml: bad"
    assert shown("\U0001f600 ok") == "\U0001f600 ok"  # printable non-ASCII stays


def test_corpus_files_are_not_touched_by_record(tmp_path: Path) -> None:
    """Record refuses every unusable hostile log and leaves it byte for byte."""
    for name, status, _ in CORPUS:
        copy = tmp_path / name
        shutil.copyfile(HOSTILE / name, copy)
        before = copy.read_bytes()
        result = run("record", str(copy))
        if status:
            assert result.exit_code == status and copy.read_bytes() == before, name
        else:
            assert result.exit_code == 0, (name, result.output)
            assert run("replay", str(copy), "--json").exit_code == 0, name


def test_a_closed_standard_input_is_an_input_error() -> None:
    for args in (["replay", "-"], ["verify", "-", "-j", "1"], ["verify", "-", "-j", "2"]):
        out = subprocess.run(
            [sys.executable, "-m", "spidercli", *args],
            capture_output=True,
            text=True,
            preexec_fn=lambda: os.close(0),  # the child starts with no standard input
            timeout=120,
            check=False,
        )
        assert out.returncode == 2, out.stderr
        assert "<stdin>: cannot be read: standard input is closed" in out.stdout + out.stderr
