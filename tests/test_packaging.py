"""Packaging: an install prints no warning, and the sdist carries every file its tests need."""

from __future__ import annotations

import fnmatch
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.helpers import ROOT, run

# Folders whose files the sdist must carry for its test suite to run (MANIFEST.in).
CARRIED = ("docs", "fixtures", "tests")
LEFT_BEHIND = {"__pycache__", ".pytest_cache", ".hypothesis", ".mypy_cache", ".ruff_cache"}


def _manifest_patterns() -> dict[str, list[str]]:
    """``recursive-include DIR PATTERN...`` lines of MANIFEST.in, by folder."""
    patterns: dict[str, list[str]] = {}
    for line in (ROOT / "MANIFEST.in").read_text().splitlines():
        words = line.split("#", 1)[0].split()
        if words[:1] == ["recursive-include"]:
            patterns.setdefault(words[1], []).extend(words[2:])
    return patterns


def test_the_sdist_carries_every_file_the_tests_need() -> None:
    """MANIFEST.in names files by kind: a file of a new kind under docs/, fixtures/ or tests/
    must have its kind added there, or the sdist's test suite would miss it."""
    patterns = _manifest_patterns()
    missing = []
    for folder in CARRIED:
        for dirpath, dirnames, filenames in os.walk(ROOT / folder):
            dirnames[:] = [d for d in dirnames if d not in LEFT_BEHIND]
            for name in filenames:
                if name.endswith((".pyc", ".pyo")):
                    continue
                if not any(fnmatch.fnmatch(name, p) for p in patterns.get(folder, [])):
                    missing.append(str(Path(dirpath, name).relative_to(ROOT)))
    assert not missing, f"MANIFEST.in does not carry: {missing}"


def test_building_a_wheel_prints_no_warning(tmp_path: Path) -> None:
    """`pip wheel -v` (and so every install) says nothing of package data left out, of
    byte-compiling or of editable installs: a warning there is a fault to fix, not noise."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "-w", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    if done.returncode != 0 and "No matching distribution" in done.stderr:
        pytest.skip("no package index to fetch setuptools from")  # pragma: no cover
    assert done.returncode == 0, done.stderr
    warnings = [
        line for line in (done.stdout + done.stderr).splitlines() if "warning" in line.lower()
    ]
    assert not warnings, warnings


def test_the_pre_commit_hook_is_quiet_and_runs_once() -> None:
    """The hook lists only the logs that are not valid and prints one summary for all the files
    pre-commit hands it: `verify -q`, in one process (`require_serial`)."""
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    (hook,) = hooks
    assert hook["id"] == "spidercli-verify"
    assert hook["require_serial"] is True
    entry = hook["entry"].split()
    assert entry[:2] == ["spidercli", "verify"]
    logs = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "fixtures" / "batch").rglob("*.y*ml"))
    result = run(*entry[1:], *logs)
    lines = result.stdout.splitlines()
    assert not any(line.lstrip().startswith("valid") for line in lines), lines
    listed = [log for log in logs if any(log in line for line in lines)]
    assert listed == [log for log in logs if "valid" not in Path(log).name.split("-", 1)[1]]


def test_the_changelog_lists_every_version_down_from_this_one() -> None:
    """CHANGELOG.md, which the sdist carries, has a section for the version the package reports
    (the newest first), each with its changes to the contract. (pre-commit's `rev:` example, in
    docs/ci.md, names a commit that exists: tests/test_ci_snippets.py.)"""
    from spidercli import __version__

    assert "CHANGELOG.md" in (ROOT / "MANIFEST.in").read_text().split()
    text = (ROOT / "CHANGELOG.md").read_text()
    sections = text.split("\n## ")[1:]
    versions = [section.split()[0] for section in sections]
    assert versions[0] == __version__
    numbers = [tuple(map(int, v.split("."))) for v in versions]
    assert numbers == sorted(numbers, reverse=True) and numbers[-1] == (0, 1, 0)
    assert all("\n### The contract\n" in section for section in sections)
