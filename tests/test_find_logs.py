"""``find_logs`` walks a folder with ``os.scandir`` and resolves the folder once, not each file:
over random trees of logs, folders and symbolic links (to files, to folders, loops, dangling),
given as any mix of folders, files and links, it finds the same paths in the same order as the
walk that resolves every file's path (``os.path.realpath``), kept here as the reference."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spidercli.judging import findlogs
from spidercli.judging.findlogs import find_logs


def reference_walk(
    directory: str, seen: set[str], folders: set[tuple[int, int]], rules: None = None
) -> Iterator[str]:
    """The walk before: ``listdir``, ``isdir`` and ``realpath`` for each file (no ignore rules:
    ``find_logs`` without ``gitignore`` passes none)."""
    assert rules is None
    try:
        info = os.stat(directory)
        names = sorted(os.listdir(directory))
    except OSError:
        yield from findlogs._once(directory, seen)
        return
    folder = (info.st_dev, info.st_ino)
    if folder in folders:
        return
    folders.add(folder)
    for name in names:
        if name.startswith("."):
            continue
        full = os.path.join(directory, name)
        if os.path.isdir(full):
            yield from reference_walk(full, seen, folders)
        elif name.endswith((".yaml", ".yml")):
            yield from findlogs._once(full, seen)


NAMES = ["a.yaml", "b.yml", "c.txt", ".d.yaml", "e", "f"]
FOLDERS = ["", "sub", "sub/deep", "other", ".hidden"]


@st.composite
def trees(draw: st.DrawFn) -> list[tuple[str, str, str]]:
    """What to make, in order: ("dir", path, ""), ("file", path, ""), ("link", path, target)."""
    made: list[tuple[str, str, str]] = [("dir", folder, "") for folder in FOLDERS if folder]
    for _ in range(draw(st.integers(1, 10))):
        where = draw(st.sampled_from(FOLDERS))
        path = os.path.join(where, draw(st.sampled_from(NAMES)))
        kind = draw(st.sampled_from(["file", "file", "link"]))
        target = ""
        if kind == "link":  # relative, to anything (a file, a folder, its own folder, nothing)
            target = draw(
                st.sampled_from(["a.yaml", "../a.yaml", "..", ".", "sub", "../other", "nowhere"])
            )
        made.append((kind, path, target))
    return made


def build(root: Path, made: list[tuple[str, str, str]]) -> None:
    for kind, path, target in made:
        full = root / path
        if full.exists() or full.is_symlink():
            continue
        if kind == "dir":
            full.mkdir(parents=True)
        elif kind == "file":
            full.write_text("game: SP1-S1C-AAAAABD\nmoves: []\n")
        else:
            full.symlink_to(target)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    trees(),
    st.lists(st.sampled_from(["", "sub", "other/e", "a.yaml", "sub/a.yaml", "sub/f"]), max_size=3),
)
def test_the_walk_finds_what_resolving_each_file_finds(
    made: list[tuple[str, str, str]], given_paths: list[str]
) -> None:
    base = Path(tempfile.mkdtemp())
    root = base / "tree"  # a link to ".." at the top leads to ``base``, which holds only this
    root.mkdir()
    try:
        build(root, made)
        args = [str(root / p) if p else str(root) for p in ["", *given_paths]]
        found = list(find_logs(args))
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(findlogs, "_walk", reference_walk)
            expected = list(find_logs(args))
        assert found == expected
    finally:
        shutil.rmtree(base)


def test_a_file_given_again_by_its_own_path_after_its_folder_by_a_link(tmp_path: Path) -> None:
    """The folder walked through a link resolves to the same file as the file's own path."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.yaml").write_text("game: SP1-S1C-AAAAABD\nmoves: []\n")
    (tmp_path / "via").symlink_to("sub")
    args = [str(tmp_path / "via"), str(tmp_path / "sub" / "a.yaml")]
    assert list(find_logs(args)) == [str(tmp_path / "via" / "a.yaml")]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(findlogs, "_walk", reference_walk)
        assert list(find_logs(args)) == [str(tmp_path / "via" / "a.yaml")]
