"""``verify DIR`` skips what the ``.gitignore`` files on the way ignore (issue 29), as git does:
the port of git's rules (``spidercli/judging/gitignore.py``) against git itself on random trees and
patterns, and the command line's cases (a path named is always read, ``--no-ignore``)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import spidercli
from spidercli.judging.findlogs import find_logs
from spidercli.judging.gitignore import TooCostly, parse_pattern, wildmatch
from tests.helpers import ROOT, run

GIT = shutil.which("git")
needs_git = pytest.mark.skipif(GIT is None, reason="git is not installed")
LOG = (ROOT / "fixtures" / "example-spiderette-53.yaml").read_bytes()


def _git(repo: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[bytes]:
    assert GIT is not None
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(repo),  # no global excludes file: the repository's own rules alone
        "XDG_CONFIG_HOME": str(repo / ".xdg"),
        "GIT_CONFIG_NOSYSTEM": "1",
        "LC_ALL": "C",
    }
    return subprocess.run(
        [GIT, "-c", "core.quotePath=false", *args],
        cwd=repo,
        env=env,
        capture_output=True,
        check=check,
        timeout=60,
    )


def _untracked_logs(repo: Path) -> list[str]:
    """The logs git does not ignore (``ls-files --others --exclude-standard``), as find_logs
    would list them: ``*.yaml`` and ``*.yml``, no name starting with a dot."""
    out = _git(repo, "ls-files", "-z", "--others", "--exclude-standard").stdout
    names = [os.fsdecode(n) for n in out.split(b"\0") if n]
    return sorted(
        n
        for n in names
        if n.endswith((".yaml", ".yml")) and not any(p.startswith(".") for p in n.split("/"))
    )


def _found(repo: Path, gitignore: bool = True) -> list[str]:
    return sorted(os.path.relpath(p, repo) for p in find_logs([str(repo)], gitignore=gitignore))


# ------------------------------------------------------------------ against git, at random

FOLDERS = ["", "a", "a/b", "a/b/c", "logs", "logs/old", "x y", "[br]"]
NAMES = ["g.yaml", "h.yml", "a.yaml", "b.yaml", "old.yaml", "x y.yaml", "#c.yaml", "!d.yaml",
         "[e].yaml", "f*.yaml", "q?.yaml", "\\s.yaml", "é.yaml", "t.yaml ",
         "logs.yaml"]  # fmt: skip
# Pieces of patterns: names and parts of names, every wildcard, slashes, escapes, negation.
PIECES = ["*", "**", "?", "/", "a", "b", "c", "logs", "old", "g", "yaml", ".yaml", ".yml", "*.y*",
          "[a-c]", "[!a]", "[^g]", "[]a]", "[[:alpha:]]", "[[:digit:]]", "[a-]", "[z-a]",
          "\\*", "\\?", "\\[", "\\#", "\\!", "\\ ", " ", "x y", "é", "[", "\\", "#",
          "!"]  # fmt: skip


@st.composite
def _patterns(draw: st.DrawFn) -> str:
    lines = []
    for _ in range(draw(st.integers(1, 6))):
        line = "".join(draw(st.lists(st.sampled_from(PIECES), min_size=1, max_size=5)))
        if draw(st.integers(0, 4)) == 0:
            line = "!" + line
        if draw(st.integers(0, 4)) == 0:
            line = "/" + line
        if draw(st.integers(0, 4)) == 0:
            line += "/"
        lines.append(line)
    return "\n".join(lines) + draw(st.sampled_from(["\n", "", "\r\n"]))


@st.composite
def _trees(draw: st.DrawFn) -> tuple[list[str], dict[str, str]]:
    files = draw(
        st.lists(
            st.tuples(st.sampled_from(FOLDERS), st.sampled_from(NAMES)), min_size=1, max_size=14
        )
    )
    ignores = draw(
        st.dictionaries(st.sampled_from([*FOLDERS, ".git/info"]), _patterns(), max_size=3)
    )
    return [os.path.join(folder, name) for folder, name in files], ignores


def _make(repo: Path, files: list[str], ignores: dict[str, str]) -> None:
    """The tree in ``repo``, a repository made once (``git init`` is the slow part) and emptied
    of all but its ``.git`` folder for each tree."""
    if not (repo / ".git").is_dir():
        repo.mkdir(exist_ok=True)
        _git(repo, "init", "-q")
    for entry in repo.iterdir():
        if entry.name != ".git":
            shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
    (repo / ".git" / "info" / "exclude").unlink(missing_ok=True)
    for folder in FOLDERS:
        (repo / folder).mkdir(parents=True, exist_ok=True)
    for path in files:
        (repo / path).write_bytes(LOG)
    for folder, text in ignores.items():
        name = "exclude" if folder == ".git/info" else ".gitignore"
        (repo / folder).mkdir(parents=True, exist_ok=True)
        (repo / folder / name).write_text(text, encoding="utf-8")


def _check_against_git(tree: tuple[list[str], dict[str, str]], repo: Path) -> None:
    files, ignores = tree
    _make(repo, files, ignores)
    assert _found(repo) == _untracked_logs(repo), ignores
    # Started in a folder below the repository's top: the rules above it apply too (unless
    # they ignore the folder itself: a folder named is searched, where git would skip it).
    if _git(repo, "check-ignore", "-q", "a", check=False).returncode == 1:  # 1: not ignored
        want = [p for p in _untracked_logs(repo) if p.startswith("a/")]
        found = find_logs([str(repo / "a")], gitignore=True)
        assert sorted(os.path.relpath(p, repo) for p in found) == want, ignores


_SLOW_IS_FINE = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]


@needs_git
@settings(max_examples=25, deadline=None, suppress_health_check=_SLOW_IS_FINE)
@given(tree=_trees())
def test_the_walk_skips_what_git_ignores(
    tree: tuple[list[str], dict[str, str]], tmp_path: Path
) -> None:
    """Random trees and ``.gitignore`` files (and ``.git/info/exclude``): the logs found are the
    logs git leaves untracked and not ignored (``make test-slow``: ten times as many trees)."""
    _check_against_git(tree, Path(os.path.realpath(tmp_path)) / "repo")


@needs_git
@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=_SLOW_IS_FINE)
@given(tree=_trees())
def test_the_walk_skips_what_git_ignores_on_many_trees(
    tree: tuple[list[str], dict[str, str]], tmp_path: Path
) -> None:
    _check_against_git(tree, Path(os.path.realpath(tmp_path)) / "repo")


# ---------------------------------------------------------------------- the rules, by hand


@pytest.mark.parametrize(
    ("pattern", "text", "matches"),
    [
        ("*.yaml", "a.yaml", True),
        ("*.yaml", "a/b.yaml", False),  # "*" never crosses a "/"
        ("a/**/b", "a/b", True),  # "**/" matches no folder too
        ("a/**/b", "a/x/y/b", True),
        ("**/b", "x/y/b", True),
        ("a/**", "a/x/y", True),
        ("a/**", "a", False),
        ("a**b", "axb", True),  # "**" inside a name is a "*"
        ("a**b", "a/b", False),
        ("[!a]x", "bx", True),
        ("[^a]x", "ax", False),
        ("[]a]", "]", True),
        ("[a-]", "-", True),
        ("[[:digit:]]", "7", True),
        ("[[:nope:]]", "n", False),  # an unknown class: the pattern matches nothing
        ("[ab", "a", False),  # a set never closed: nothing
        ("\\*", "*", True),
        ("\\*", "a", False),
        ("a\\", "a", False),  # a backslash at the end: nothing
        ("?", "/", False),
        ("*a*a*a*a*a*a*a*a*a*b", "a" * 40, False),  # no place tried twice: at once
    ],
)
def test_wildmatch_reads_patterns_as_git_does(pattern: str, text: str, matches: bool) -> None:
    assert wildmatch(pattern.encode(), text.encode()) is matches


def test_a_gitignore_too_costly_to_match_is_refused_naming_it(tmp_path: Path) -> None:
    """git's own search takes time exponential in the stars of ``*a*a*a...b`` against a long
    name of ``a``; spidercli's is polynomial, and a name's matching has a budget of steps: past
    it, the .gitignore is refused (exit status 2) within a fraction of a second."""
    _logs(tmp_path, "a" * 150 + ".yaml")
    (tmp_path / ".gitignore").write_text("*" + "a*" * 14 + "b\n")
    result = run("verify", str(tmp_path))
    assert result.exit_code == 2
    assert result.stderr == (
        f"spidercli: error: {tmp_path}/.gitignore: its patterns take too long to match "
        f"'{'a' * 150}.yaml' (more than 100,000 steps); simplify them, or read every log with "
        "--no-ignore\n"
    )
    assert run("verify", str(tmp_path), "--no-ignore").exit_code == 0
    with pytest.raises(TooCostly):
        wildmatch(b"*" + b"a*" * 14 + b"b", b"a" * 150 + b".yaml")


def test_lines_are_read_as_git_reads_them() -> None:
    assert parse_pattern(b"# comment") is None
    assert parse_pattern(b"") is None
    assert parse_pattern(b"   ") is None
    assert parse_pattern(b"!") is None
    hash_name = parse_pattern(b"\\#name")
    assert hash_name is not None and hash_name.pattern == b"\\#name"
    spaced = parse_pattern(b"a  ")
    assert spaced is not None and spaced.pattern == b"a"  # trailing spaces dropped
    kept = parse_pattern(b"a\\ ")
    assert kept is not None and kept.pattern == b"a\\ "  # unless escaped
    folder = parse_pattern(b"!/logs/old/")
    assert folder is not None
    assert (folder.pattern, folder.negative, folder.folders_only, folder.by_name) == (
        b"logs/old",
        True,
        True,
        False,
    )


def _logs(root: Path, *paths: str) -> None:
    for path in paths:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(LOG)


def test_negation_anchoring_folders_and_depth(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git" / "info").mkdir(parents=True)  # a repository's top folder
    _logs(repo, "a.yaml", "keep.yaml", "logs/a.yaml", "logs/b.yaml", "logs/old/x.yaml", "b.yml")
    _logs(repo, "sub/logs/y.yaml", "deep/sub/z.yaml", "deep/sub/keep.yaml", "drafts/d.yaml")
    # "a.yaml" ignores it at any depth, "/sub/logs" only at the top, "old/" a folder at any depth;
    # deep/.gitignore takes "keep.yaml" back below it, and info/exclude ignores drafts/.
    (repo / ".gitignore").write_text("a.yaml\n!keep.yaml\n/sub/logs\nold/\n*.yml\n")
    (repo / "deep" / ".gitignore").write_text("*.yaml\n!keep.yaml\n")
    (repo / ".git" / "info" / "exclude").write_text("drafts/\n")
    assert _found(repo) == ["deep/sub/keep.yaml", "keep.yaml", "logs/b.yaml"]
    assert len(_found(repo, gitignore=False)) == 10


def test_a_path_named_is_read_even_when_ignored(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    _logs(repo, "drafts/d.yaml", "drafts/e.yaml", "ok.yaml")
    (repo / ".gitignore").write_text("drafts/\ne.yaml\n")
    assert _found(repo) == ["ok.yaml"]
    named = [str(repo / "drafts" / "e.yaml"), str(repo / "drafts")]
    # The file named is read; the folder named is searched, its entries matched one by one.
    assert [os.path.relpath(p, repo) for p in find_logs(named, gitignore=True)] == [
        "drafts/e.yaml",
        "drafts/d.yaml",
    ]
    globbed = list(find_logs([str(repo / "drafts" / "*.yaml")], gitignore=True))
    assert [os.path.basename(p) for p in globbed] == ["d.yaml", "e.yaml"]  # a glob's matches


def test_outside_a_repository_the_folder_s_own_gitignore_counts(tmp_path: Path) -> None:
    _logs(tmp_path, "logs/a.yaml", "logs/b.yaml", "logs/sub/c.yaml")
    (tmp_path / ".gitignore").write_text("a.yaml\n")  # above the folder, no repository: unread
    (tmp_path / "logs" / ".gitignore").write_text("b.yaml\n")
    (tmp_path / "logs" / "sub" / ".gitignore").write_text("*\n")
    found = find_logs([str(tmp_path / "logs")], gitignore=True)
    assert [os.path.relpath(p, tmp_path) for p in found] == ["logs/a.yaml"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_gitignore_that_is_no_regular_file_is_not_read(tmp_path: Path) -> None:
    """A FIFO named .gitignore would block the walk forever if it were opened to be read."""
    _logs(tmp_path, "a.yaml")
    os.mkfifo(tmp_path / ".gitignore")
    assert _found(tmp_path) == ["a.yaml"]


def test_verify_skips_ignored_logs_and_no_ignore_reads_them(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    _logs(repo, "a.yaml", "drafts/b.yaml")
    (repo / ".gitignore").write_text("drafts/\n")
    result = run("verify", str(repo), "-f", "concise", "-q")
    assert (result.exit_code, result.stderr) == (0, "spidercli: 1 log: 1 valid, 0 illegal, 0 "
                                                 "expect-failed, 0 invalid-input\n")  # fmt: skip
    every = run("verify", str(repo), "-f", "concise", "--no-ignore")
    assert "2 logs: 2 valid" in every.stderr
    assert len(list(spidercli.verify(repo))) == 1
    assert len(list(spidercli.verify(repo, gitignore=False))) == 2
    (repo / ".gitignore").write_text("*.yaml\n")
    nothing = run("verify", str(repo))
    assert nothing.exit_code == 2 and "no logs found" in nothing.stderr
