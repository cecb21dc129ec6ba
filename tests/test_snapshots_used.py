"""Every stored snapshot belongs to a test that still exists.

syrupy fails a run on a snapshot no test asserts any more, but only when the suite runs in one
process: under pytest-xdist (``make test``) syrupy 6 neither reports nor fails on it, so a test
renamed, removed or given other parameters would leave its old snapshots behind unseen. This
test collects the snapshot tests' ids (``pytest --collect-only``, in one process) and checks
each snapshot's name against them: the test's name and parameters, and a ``.N`` suffix for a
test's second and later snapshots. ``make snapshots`` removes unused ones.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.helpers import ROOT

SNAPSHOTS = ROOT / "tests" / "__snapshots__"
NAME = re.compile(r"^# name: (.+)$", re.MULTILINE)
LATER = re.compile(r"\.[0-9]+$")  # a test's second, third ... snapshot


def collected(modules: list[Path]) -> set[str]:
    """The ids (``file.py::name[params]``) of the tests in these modules."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-o",
            "addopts=-q",  # one id a line, whatever pyproject.toml's addopts say
            "-p",
            "no:xdist",
            "-p",
            "no:cacheprovider",
            *[str(m) for m in modules],
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return {line.strip() for line in done.stdout.splitlines() if "::" in line}


def unused(files: list[Path], ids: set[str]) -> list[str]:
    """The snapshots in ``files`` (``test_NAME.ambr``, of ``tests/test_NAME.py``) whose test is
    not among the collected ``ids``."""
    found = []
    for snapshots in files:
        for name in NAME.findall(snapshots.read_text(encoding="utf-8")):
            base = name if name.endswith("]") else LATER.sub("", name)
            if f"tests/{snapshots.stem}.py::{base}" not in ids:
                found.append(f"{snapshots.name}: {name}")
    return found


def test_every_snapshot_has_its_test() -> None:
    files = sorted(SNAPSHOTS.glob("*.ambr"))
    assert files, "no snapshots found"
    modules = [ROOT / "tests" / f"{f.stem}.py" for f in files]
    missing = [m.name for m in modules if not m.exists()]
    assert not missing, f"snapshot files without their test module: {missing}"
    stale = unused(files, collected(modules))
    assert not stale, "snapshots no test asserts (make snapshots removes them):\n" + "\n".join(
        stale
    )


def test_a_stale_snapshot_is_found(tmp_path: Path) -> None:
    """The check finds a snapshot whose test or parameters are gone, and accepts a test's later
    snapshots (``.1``) and parameters with dots."""
    ambr = tmp_path / "test_cli.ambr"
    ambr.write_text(
        "# name: test_x[a]\n  'one'\n# name: test_x[a].1\n  'two'\n"
        "# name: test_y.1\n  'three'\n# name: test_z[v1.5]\n  'four'\n"
        "# name: test_x[b]\n  'stale'\n# name: test_gone\n  'stale'\n",
        encoding="utf-8",
    )
    ids = {
        "tests/test_cli.py::test_x[a]",
        "tests/test_cli.py::test_y",
        "tests/test_cli.py::test_z[v1.5]",
    }
    assert unused([ambr], ids) == ["test_cli.ambr: test_x[b]", "test_cli.ambr: test_gone"]
