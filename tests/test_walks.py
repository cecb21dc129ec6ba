"""The change walks of docs/architecture.md, done: each walk's "as a program does it" block is
read from the doc and applied, line for line, to a scratch copy of the package, and the commands
the walk promises will follow are run on the copy (``python -m spidercli`` with the copy first on
``PYTHONPATH``). A walk that misses a step (the language walk once named no number marks, and
``--lang sk`` ended in ``internal error: KeyError: 'sk'``) fails here.

The cheap form of each walk runs in ``make test`` (a few commands each); the slow form
(``make test-slow``) also runs the walk's tests on the copy, with the snapshots the walk's
``make snapshots`` step would add. The legality walk names the code a rule lives in: each file
and name it gives must exist, and a rule changed in the reference path alone must fail the
tests the walk says keep its copies equal.
"""

from __future__ import annotations

import ast
import functools
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers import ROOT

ARCHITECTURE = ROOT / "docs" / "architecture.md"
# What the copy needs besides the package and the fixtures to run the checkout's tests on it.
CHECKOUT = ("tests", "docs", "pyproject.toml", "MANIFEST.in", "README.md")


@dataclass(frozen=True)
class Block:
    """One fenced block of a walk: its language (``sh``, ``python``) and its text, and for a
    Python block the file it is appended to (the last path the walk names before it)."""

    language: str
    text: str
    target: str


def walk(title: str) -> tuple[str, list[Block]]:
    """The walk titled ``**title**`` in docs/architecture.md: its text and its blocks."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("\n## Change walks\n", 1)[1].split("\n## ", 1)[0]
    body = section.split(f"\n**{title}**", 1)[1].split("\n**", 1)[0]
    blocks = []
    for m in re.finditer(r"(?ms)^```(\w+)\n(.*?)^```$", body):
        before = re.findall(r"`(spidercli/[\w/]+\.py)`", body[: m.start()])
        blocks.append(Block(m.group(1), m.group(2), before[-1] if before else ""))
    return body, blocks


def scratch(tmp_path: Path, *more: str) -> Path:
    """A copy of the checkout's package (its compiled passes too) and fixtures, and of ``more``
    (``tests``, ``pyproject.toml``), in ``tmp_path``."""
    skip = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for name in ("spidercli", "fixtures", *more):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=skip)
        else:
            shutil.copy(source, tmp_path / name)
    return tmp_path


def apply(blocks: list[Block], copy: Path) -> None:
    """Do the walk's blocks in ``copy``: each line of a ``sh`` block run there, each ``python``
    block appended to the file the walk names before it."""
    assert blocks, "the walk has no block a program can do"
    for block in blocks:
        if block.language == "sh":
            for line in block.text.splitlines():
                subprocess.run(["/bin/sh", "-ec", line], cwd=copy, check=True)
        elif block.language == "python":
            path = copy / block.target
            assert path.is_file(), f"the walk appends to {block.target!r}, which is not a file"
            path.write_text(path.read_text(encoding="utf-8") + "\n\n" + block.text, "utf-8")
        else:
            pytest.fail(f"a walk's block of {block.language!r}, which no program here does")


def _env(copy: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "SPIDERCLI_"))}
    return {**env, "PYTHONPATH": str(copy), "COLUMNS": "100", "LANG": "C"}


def cli(copy: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``spidercli ARGS`` run from ``copy`` (its package, not the checkout's)."""
    return subprocess.run(
        [sys.executable, "-m", "spidercli", *args],
        cwd=copy,
        env=_env(copy),
        capture_output=True,
        text=True,
        timeout=300,
    )


def pytest_on(copy: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The copy's tests, run on the copy's package."""
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", *args],
        cwd=copy,
        env={**_env(copy), "SPIDERCLI_REQUIRE_COMPILED": "0"},
        capture_output=True,
        text=True,
        timeout=1200,
    )


def test_the_copy_runs_its_own_package(tmp_path: Path) -> None:
    """The commands below run the copy's code: a copy broken on purpose breaks them."""
    copy = scratch(tmp_path)
    (copy / "spidercli" / "cli" / "app.py").write_text("raise SystemExit(42)\n", encoding="utf-8")
    assert cli(copy, "--help").returncode == 42


# ------------------------------------------------------------------------------ add a language


def test_add_a_language(tmp_path: Path) -> None:
    _, blocks = walk("Add a language")
    copy = scratch(tmp_path)
    apply(blocks, copy)
    page = copy / "sk.html"
    log = "fixtures/illegal/build-one-higher.yaml"
    sk = cli(copy, "replay", log, "--lang", "sk", "--html", str(page))
    cs = cli(copy, "replay", log, "--lang", "cs")
    assert "Traceback" not in sk.stderr and "internal error" not in sk.stderr, sk.stderr
    assert (sk.returncode, sk.stdout) == (cs.returncode, cs.stdout) == (1, cs.stdout)
    assert "Záznam" in sk.stdout  # the copied catalog's words, numbers in its marks
    assert '<html lang="sk">' in page.read_text(encoding="utf-8")
    verify = cli(copy, "verify", "fixtures/batch", "-j", "2", "--lang", "sk")  # in the workers
    assert (verify.returncode, verify.stderr) == (2, "")
    assert "5 záznamů: 2 platné, 1 odmítnutý" in verify.stdout
    assert "sk" in " ".join(cli(copy, "deal", "--help").stdout.split())


@pytest.mark.slow
def test_add_a_language_and_run_its_tests(tmp_path: Path) -> None:
    """The walk's step 4 on the copy: its tests of languages (the glossary's table in
    docs/i18n.md left out, the walk's step 3, which a copy of Czech does not write), the new
    language's snapshots added as ``make snapshots`` adds them."""
    _, blocks = walk("Add a language")
    copy = scratch(tmp_path, *CHECKOUT)
    apply(blocks, copy)
    ran = pytest_on(
        copy,
        "tests/test_words.py",
        "tests/test_i18n_numbers.py",
        "tests/test_i18n_catalogs.py",
        "tests/test_glossary.py",
        "tests/test_i18n.py",
        "-k",
        "not the_docs_glossary",
        "--snapshot-update",
    )
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    listed = pytest_on(copy, "tests/test_i18n_numbers.py", "--collect-only").stdout
    assert "test_separators_are_the_cldr_ones[sk]" in listed


# ------------------------------------------------------------------------------- add a ruleset


def test_add_a_ruleset(tmp_path: Path) -> None:
    _, blocks = walk("Add a ruleset")
    copy = scratch(tmp_path)
    apply(blocks, copy)
    log = "fixtures/example-spider-1suit-117.yaml"
    mobile = cli(copy, "replay", log, "--rules", "mobile", "--show", "none")
    assert mobile.returncode == 1, mobile.stdout + mobile.stderr  # the expected score is classic's
    assert "mobile: a mobile app's rules, 500 points, -2 a move" in mobile.stdout
    # 1183 under classic; its 112 moves score -2 each (its 5 deals -1, as before)
    assert "Expect   score: expected 1183, got 1071" in mobile.stdout
    assert "mobile" in " ".join(cli(copy, "replay", "--help").stdout.split())


# ------------------------------------------------------------------------ add an output format


def test_add_an_output_format(tmp_path: Path) -> None:
    _, blocks = walk("Add an output format")
    copy = scratch(tmp_path)
    apply(blocks, copy)
    statuses = "VALID\nILLEGAL\nEXPECT-FAILED\nINVALID-INPUT\nVALID\n"
    shout = cli(copy, "verify", "fixtures/batch", "-f", "shout", "-j", "2")  # in the workers too
    assert (shout.returncode, shout.stdout) == (2, statuses), shout.stderr
    assert "shout (statuses in capitals)" in " ".join(cli(copy, "verify", "--help").stdout.split())


@pytest.mark.slow
def test_add_a_format_or_a_ruleset_and_run_the_tests_that_list_them(tmp_path: Path) -> None:
    """Both walks' last step on one copy: the tests that list every format and every ruleset
    take the new ones, with the snapshots ``make snapshots`` would add."""
    copy = scratch(tmp_path, *CHECKOUT)
    apply(walk("Add a ruleset")[1] + walk("Add an output format")[1], copy)
    ran = pytest_on(
        copy,
        "tests/test_verify.py",
        "tests/test_conventions.py",
        "tests/test_schema.py",
        "tests/test_report_json.py",
        "--snapshot-update",
    )
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    listed = pytest_on(copy, "tests/test_verify.py", "--collect-only").stdout
    assert "[shout]" in listed


# ---------------------------------------------------------------------- change a legality rule


@functools.cache
def _definitions() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Every module's top-level names (by module name: ``lines``, ``refusals``) and every
    class's (by class name: ``Game``), in the package and the tests."""
    modules: dict[str, set[str]] = {}
    classes: dict[str, set[str]] = {}
    for path in [*(ROOT / "spidercli").rglob("*.py"), *(ROOT / "tests").rglob("*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = modules.setdefault(path.stem, set())
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                names.add(node.name)
                classes.setdefault(node.name, set()).update(
                    getattr(item, "name", "") for item in node.body
                )
            elif isinstance(node, ast.FunctionDef):
                names.add(node.name)
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names.update(t.id for t in targets if isinstance(t, ast.Name))
    return modules, classes


def legality_names() -> tuple[list[str], list[str]]:
    """What the legality walk names: its files (``tests/test_engine.py``, ``game/engine.py``,
    ``search.py``) and its dotted and capitalised names (``Game._check_target``,
    ``lines.proves_under``, ``RULE_IDS``)."""
    body, _ = walk("Change a legality rule")
    quoted = [q.split("(")[0] for q in re.findall(r"`([^`]+)`", body)]
    files = [q for q in quoted if re.fullmatch(r"[\w/.<>-]+\.(py|c|h|yaml)", q)]
    names = [
        q
        for q in quoted
        if q not in files
        and (
            re.fullmatch(r"[A-Za-z_][\w/]*\.[A-Za-z_]\w*", q) or re.fullmatch(r"[A-Z][A-Za-z_]*", q)
        )
    ]
    return files, sorted(set(names))


def _file_found(name: str) -> bool:
    if "<" in name:  # fixtures/illegal/<rule>.yaml: one at least
        return any(ROOT.glob(re.sub(r"<[^>]*>", "*", name)))
    if "/" not in name:  # search.py, as the step names it beside its folder
        return any((ROOT / "spidercli").rglob(name))
    return (ROOT / name).is_file() or (ROOT / "spidercli" / name).is_file()


def test_the_legality_walk_names_what_exists() -> None:
    files, names = legality_names()
    assert files and names
    assert [f for f in files if not _file_found(f)] == []
    modules, classes = _definitions()
    missing = []
    for name in names:
        *owner, last = re.split(r"[./]", name)
        if not owner:
            found = any(last in defined for defined in modules.values())
        else:
            found = last in classes.get(owner[-1], set()) or last in modules.get(owner[-1], set())
        if not found:
            missing.append(name)
    assert missing == []


def test_the_legality_walk_names_the_compiled_passes_functions() -> None:
    """A step that names a compiled pass (``_beam.c``) names its functions (``expand``,
    ``apply_move``): each is a function of that file."""
    body, _ = walk("Change a legality rule")
    steps = re.split(r"(?m)^\d+\. ", body)[1:]
    named = 0
    for step in steps:
        sources = re.findall(r"`(spidercli/[\w/]+\.c)`", step)
        if not sources:
            continue
        code = "".join((ROOT / source).read_text(encoding="utf-8") for source in sources)
        for name in re.findall(r"`([a-z_]+)`", step):
            named += 1
            assert re.search(rf"\b{name}\s*\(", code), (sources, name)
    assert named


def test_a_name_the_code_has_lost_is_found() -> None:
    _, classes = _definitions()
    assert "_check_target" in classes["Game"] and "proves_under" not in classes["Game"]
    assert not _file_found("tests/test_legality_walk.py") and _file_found("search.py")


# The reference path's target rule ("one rank higher, or a column that takes anything"), found
# in ``Game._takes``, which a move (``Game._check_target``) and a tap both ask: its return.
_TARGET_RULE = re.compile(r"(def _takes\b.*?\n\s+return )([^\n]+)(\n)", re.S)


@pytest.mark.slow
def test_a_rule_changed_in_the_reference_path_alone_fails_the_walk_s_tests(
    tmp_path: Path,
) -> None:
    """The walk's step 3: the reference path's rules are followed by the engine's fused
    path (``Game._plainly_legal``, kept equal by ``tests/test_fused_move.py``) and its move
    generator (``Game.legal_moves``: ``tests/test_properties.py``). Change the target rule in
    ``Game._takes`` alone (no card may be built on, only an empty column takes a group) and
    each of those tests fails, as the walk promises."""
    body, _ = walk("Change a legality rule")
    tests = ("tests/test_fused_move.py", "tests/test_properties.py")
    for named in ("Game._takes", "Game._plainly_legal", "Game.legal_moves", *tests):
        assert f"`{named}`" in body, named
    copy = scratch(tmp_path, "tests", "pyproject.toml")
    engine = copy / "spidercli" / "game" / "engine.py"
    changed, count = _TARGET_RULE.subn(
        r"\1self._takes_anything(t)\3", engine.read_text(encoding="utf-8")
    )
    assert count == 1, "Game._takes's rule moved: this test must follow it"
    engine.write_text(changed, encoding="utf-8")
    for test in tests:
        ran = pytest_on(copy, test, "-x")
        assert ran.returncode == 1 and " failed" in ran.stdout, (test, ran.stdout[-2000:])
