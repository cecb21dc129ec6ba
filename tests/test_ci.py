"""CI keeps the README's first promise: `make demo` and `make test` on the oldest and the newest
Python that spidercli admits (`.ci/run`, with the interpreters `.ci/pythons` finds), and the test
tools install on each of them (the dev extra's pins per interpreter)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from tests.helpers import ROOT

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


def _project() -> dict[str, object]:
    with open(ROOT / "pyproject.toml", "rb") as handle:
        project: dict[str, object] = tomllib.load(handle)["project"]
    return project


def _admitted() -> list[str]:
    """The Python versions spidercli admits: requires-python's floor up to the newest classifier."""
    project = _project()
    floor = str(project["requires-python"]).removeprefix(">=")
    classifiers = [str(c) for c in project["classifiers"]]  # type: ignore[attr-defined]
    minors = [
        int(c.rsplit(".", 1)[1])
        for c in classifiers
        if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)
    ]
    return [f"3.{n}" for n in range(int(floor.split(".")[1]), max(minors) + 1)]


# import-linter's releases and the Pythons each installs on (PyPI's Requires-Python): 2.16 and
# later need 3.11. Checked below against the release installed here.
IMPORT_LINTER_PYTHONS = {"2.15": ">=3.10", "2.16": ">=3.11", "2.17": ">=3.11"}


def test_the_test_tools_install_on_every_python_spidercli_admits() -> None:
    """For each admitted Python, the dev extra asks for exactly one import-linter, and one
    release it admits installs on that Python (import-linter>=2.17 alone left 3.10 with none,
    and `make test` failed there after 6 s)."""
    assert _admitted() == ["3.10", "3.11", "3.12", "3.13"]
    extra = [Requirement(r) for r in _project()["optional-dependencies"]["dev"]]  # type: ignore[index]
    for python in _admitted():
        env = {"python_version": python, "python_full_version": f"{python}.0", "extra": "dev"}
        pins = [
            r
            for r in extra
            if r.name == "import-linter" and (r.marker is None or r.marker.evaluate(env))
        ]
        assert len(pins) == 1, (python, pins)
        usable = [
            release
            for release, needs in IMPORT_LINTER_PYTHONS.items()
            if release in pins[0].specifier and Version(f"{python}.0") in SpecifierSet(needs)
        ]
        assert usable, f"no import-linter release for Python {python} satisfies {pins[0]}"
    installed = metadata.version("import-linter")
    if installed in IMPORT_LINTER_PYTHONS:
        needs = metadata.metadata("import-linter")["Requires-Python"]
        assert SpecifierSet(needs) == SpecifierSet(IMPORT_LINTER_PYTHONS[installed])


def _fake_python(folder: Path, version: str, works: bool = True) -> Path:
    """An executable that answers as Python ``version`` (X.Y) would be asked by .ci/pythons."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "python3"
    path.write_text(f"#!/bin/sh\necho {version}\nexit {0 if works else 1}\n")
    path.chmod(0o755)
    return path


def _tools(tmp_path: Path) -> Path:
    """A folder of the commands .ci/pythons uses, and no Python: a PATH of it alone finds only
    the interpreters a test puts there."""
    tools = tmp_path / "tools"
    tools.mkdir(exist_ok=True)
    for name in ("bash", "env", "sed", "sort", "tail", "ls", "grep", "dirname"):
        found = shutil.which(name, path="/usr/bin:/bin")
        assert found is not None, name
        if not (tools / name).exists():
            (tools / name).symlink_to(found)
    return tools


def _pythons(tmp_path: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(ROOT / ".ci" / "pythons")],
        capture_output=True,
        text=True,
        env={"PATH": str(_tools(tmp_path)), "HOME": str(tmp_path), **env},
        timeout=60,
    )


def test_ci_takes_pyenvs_newest_release_of_the_oldest_and_newest_python(tmp_path: Path) -> None:
    root = tmp_path / "pyenv"
    versions = root / "versions"
    for name in ("2.7.18", "3.9.18", "3.10.2", "3.10.13", "3.11.7", "3.13.0", "3.14.0"):
        _fake_python(versions / name / "bin", name.rsplit(".", 1)[0])
    _fake_python(versions / "3.13.1" / "bin", "3.13", works=False)  # broken: passed over
    _fake_python(versions / "3.13.2t" / "bin", "3.13")  # free-threaded: not a final release
    _fake_python(versions / "3.13-dev" / "bin", "3.13")
    found = _pythons(tmp_path, {"PYENV_ROOT": str(root)})
    assert found.returncode == 0, found.stderr
    assert found.stdout.splitlines() == [
        str(versions / "3.10.13" / "bin" / "python3"),
        str(versions / "3.13.0" / "bin" / "python3"),
    ]
    assert f"Python 3.10: {versions}/3.10.13/bin/python3 (pyenv's 3.10.13)" in found.stderr


def test_ci_without_pyenv_takes_pythons_on_the_path_else_python3_and_says_so(
    tmp_path: Path,
) -> None:
    tools = _tools(tmp_path)
    python = _fake_python(tmp_path / "bin", "3.12")
    path = f"{tmp_path / 'bin'}:{tools}"
    alone = _pythons(tmp_path, {"PYENV_ROOT": str(tmp_path / "none"), "PATH": path})
    assert alone.returncode == 0, alone.stderr
    assert alone.stdout.splitlines() == [str(python)]
    assert "Python 3.10: not found" in alone.stderr
    assert f"python3 on PATH alone: {python}" in alone.stderr
    newest = _fake_python(tmp_path / "bin13", "3.13").rename(tmp_path / "bin13" / "python3.13")
    path = f"{tmp_path / 'bin13'}:{path}"
    one = _pythons(tmp_path, {"PYENV_ROOT": str(tmp_path / "none"), "PATH": path})
    assert one.stdout.splitlines() == [str(newest)]
    assert "Python 3.10: not found" in one.stderr and "(python3.13 on PATH)" in one.stderr


def test_ci_runs_demo_and_test_on_each_python_then_the_slow_tests_once(tmp_path: Path) -> None:
    """`.ci/run` in a copy of the checkout's CI files, with `make` and the Debian tools it installs
    (`chromium`, `curl`, `php`) stood in for:
    the calls it makes, in order."""
    work = tmp_path / "checkout"
    shutil.copytree(ROOT / ".ci", work / ".ci")
    shutil.copy(ROOT / "pyproject.toml", work)
    versions = tmp_path / "pyenv" / "versions"
    old = _fake_python(versions / "3.10.13" / "bin", "3.10")
    new = _fake_python(versions / "3.13.0" / "bin", "3.13")
    tools = _tools(tmp_path)
    for name in ("cat", "id"):
        found = shutil.which(name, path="/usr/bin:/bin")
        assert found is not None
        (tools / name).symlink_to(found)
    calls = tmp_path / "calls"
    (tools / "make").write_text(f'#!/bin/sh\necho "$@" >> {calls}\n')
    stand_ins = ("chromium", "curl", "php")  # what .ci/run installs when it is missing
    for tool in stand_ins:
        (tools / tool).write_text("#!/bin/sh\n")
    for tool in ("make", *stand_ins):
        (tools / tool).chmod(0o755)
    env = {
        "PATH": str(tools),
        "HOME": str(tmp_path),
        "PYENV_ROOT": str(tmp_path / "pyenv"),
    }
    done = subprocess.run(
        ["bash", str(work / ".ci" / "run")], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert calls.read_text().splitlines() == [
        "clean",
        f"demo PYTHON={old}",
        f"test PYTHON={old}",
        "clean",
        f"demo PYTHON={new}",
        f"test PYTHON={new}",
        "test-slow",
    ]


def test_the_makefile_names_every_interpreter_ci_may_use() -> None:
    """The Makefile's comment and the README give the range the classifiers do."""
    admitted = _admitted()
    span = f"{admitted[0]} to {admitted[-1]}"
    assert f"PYTHON picks the interpreter ({span})" in (ROOT / "Makefile").read_text()
    assert os.access(ROOT / ".ci" / "pythons", os.X_OK) and os.access(ROOT / ".ci" / "run", os.X_OK)
