"""The docs' CI snippets run as written: each GitHub Actions job of docs/ci.md and docs/sweep.md,
step by step, in a temporary folder (a checkout is a copy of this checkout; ``pip install``
builds and installs it offline, with the suite's interpreter, into a folder of the test's own;
a sweep is stopped after its first records); the pre-commit config's ``rev:`` is a commit of the
repository with the hook; the release steps' commands tag a clone as pre-commit's ``rev:`` and a
checkout's ``ref:`` expect."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from spidercli.logs.schema import HOME
from tests.helpers import ROOT
from tests.processes import interruptible

GUARD = 300  # seconds: a hang fails the test instead of stopping the suite
REPOSITORY = HOME.removeprefix("https://github.com/")  # spidercli/spidercli
ADMITTED = ("3.10", "3.11", "3.12", "3.13")  # tests/test_ci.py checks the range
SWEEP_RECORDS = 3  # a sweep is stopped (Ctrl-C, as a job's time limit would) after these


def _blocks(doc: str, language: str) -> list[str]:
    """The fenced blocks of ``language`` in ``doc`` (a path under the checkout)."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    return re.findall(rf"^```{language}\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)


def _jobs(doc: str) -> list[tuple[str, dict[str, Any]]]:
    """The GitHub Actions jobs of ``doc``'s YAML blocks, by name."""
    found = []
    for block in _blocks(doc, "yaml"):
        workflow = yaml.safe_load(block)
        if isinstance(workflow, dict) and "jobs" in workflow:
            found += list(workflow["jobs"].items())
    return found


def _copy_checkout(target: Path) -> None:
    """This checkout's files as ``actions/checkout`` would give them: the tracked files (the
    sdist's files where there is no git)."""
    if (ROOT / ".git").exists():
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
        ).stdout
        for name in listed.decode().split("\0"):
            if name and (ROOT / name).is_file():
                (target / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / name, target / name)
        return
    ignored = shutil.ignore_patterns(
        ".venv", "build", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis", "*.so"
    )
    shutil.copytree(ROOT, target, ignore=ignored, dirs_exist_ok=True)


def _stand_ins(tmp_path: Path) -> tuple[Path, Path]:
    """A folder of commands for the jobs' shell lines, and the folder ``pip install`` installs
    into: ``pip`` is the suite's interpreter's, offline (no index, the build backend of this
    environment), installing into that folder; ``spidercli`` is what it installed there (a sweep
    given a budget of positions, so that each deal ends at once); ``python3`` is the suite's."""
    tools = tmp_path / "tools"
    site = tmp_path / "site"
    tools.mkdir()
    python = shlex.quote(sys.executable)
    scripts = {
        "pip": f'[ "$1" = install ] || exit 64\nexec {python} -m pip "$@" --quiet --no-index '
        f"--no-build-isolation --no-deps --target {shlex.quote(str(site))}",
        "spidercli": f'[ "$1" = sweep ] && set -- "$@" --max-states 300\n'
        f"PYTHONPATH={shlex.quote(str(site))} exec {python} "
        f'{shlex.quote(str(site / "bin" / "spidercli"))} "$@"',
        "python3": f'exec {python} "$@"',
    }
    for name, body in scripts.items():
        (tools / name).write_text(f"#!/bin/sh\n{body}\n")
        (tools / name).chmod(0o755)
    return tools, site


def _output_of(line: str) -> str | None:
    """The file a sweep line writes its records to (``-o FILE``), or None."""
    words = shlex.split(line)
    return words[words.index("-o") + 1] if "-o" in words else None


def _run_line(line: str, work: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """A job's ``run:`` line, by bash in ``work``; a sweep is stopped with Ctrl-C once it has
    written ``SWEEP_RECORDS`` records."""
    proc = subprocess.Popen(
        ["bash", "-e", "-c", line],
        cwd=work,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=interruptible,
    )
    try:
        output = _output_of(line) if "spidercli sweep" in line else None
        if output is not None:
            records = work / output
            deadline = time.monotonic() + GUARD
            while proc.poll() is None and time.monotonic() < deadline:
                if records.exists() and records.read_text().count("\n") >= SWEEP_RECORDS:
                    os.killpg(proc.pid, signal.SIGINT)
                    break
                time.sleep(0.05)
        out, err = proc.communicate(timeout=GUARD)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return subprocess.CompletedProcess(line, proc.returncode, out, err)


def _run_job(
    job: dict[str, Any], work: Path, tools: Path
) -> list[subprocess.CompletedProcess[str]]:
    """Each step of ``job`` in ``work``: checkouts copied, Python set up (this one), shell lines
    run (the matrix's first value for each of its variables), artifacts looked for."""
    matrix = {k: v[0] for k, v in job.get("strategy", {}).get("matrix", {}).items()}
    env = {"PATH": f"{tools}:/usr/bin:/bin", "HOME": str(work.parent), "LANG": "C.UTF-8"}
    ran = []
    for step in job["steps"]:
        given = step.get("with", {})
        uses = step.get("uses")
        if uses is None:
            line = re.sub(r"\$\{\{ *matrix\.(\w+) *\}\}", lambda m: str(matrix[m[1]]), step["run"])
            ran.append(_run_line(line, work, env))
        elif uses == "actions/checkout@v4" and given.get("repository") == REPOSITORY:
            _copy_checkout(work / given.get("path", "."))
        elif uses == "actions/checkout@v4":
            assert "repository" not in given, step  # the job's own repository: made by the test
        elif uses == "actions/setup-python@v5":
            assert str(given["python-version"]) in ADMITTED, step
        elif uses == "actions/upload-artifact@v4":
            path = re.sub(
                r"\$\{\{ *matrix\.(\w+) *\}\}", lambda m: str(matrix[m[1]]), given["path"]
            )
            assert (work / path).is_file(), f"nothing to upload at {path}"
        else:
            pytest.fail(f"a step this test cannot run: {step}")
    return ran


def test_the_verify_job_annotates_each_refusal(tmp_path: Path) -> None:
    ((name, job),) = _jobs("docs/ci.md")
    assert name == "verify"
    work = tmp_path / "work"
    shutil.copytree(ROOT / "fixtures" / "batch", work / "solutions")  # your repository's logs
    tools, site = _stand_ins(tmp_path)
    install, verify = _run_job(job, work, tools)
    assert install.args == "pip install ./.spidercli" and install.returncode == 0, install.stderr
    assert (site / "spidercli" / "__init__.py").is_file()
    assert verify.args == "spidercli verify solutions/ -f github"
    assert verify.returncode == 2, verify.stderr  # the batch has an unusable log
    annotations = [line for line in verify.stdout.splitlines() if line.startswith("::error ")]
    assert [a.split("::")[1] for a in annotations] == [  # each on its line, the rule its title
        "error file=solutions/b-illegal.yaml,line=5,title=same-column",
        "error file=solutions/c-expect-failed.yaml,line=4,title=expect-failed",
        "error file=solutions/d-unusable.yaml,line=3,title=invalid-input",
    ]


def test_every_job_installs_spidercli_from_its_checkout() -> None:
    """Each job checks spidercli out into a folder and installs that folder, as the verify job
    (above, run for real in make test) and the sweep job (below, in make test-slow) do: no
    `pip install spidercli`, which fails (it is on no index)."""
    jobs = _jobs("docs/ci.md") + _jobs("docs/sweep.md")
    assert [name for name, _ in jobs] == ["verify", "sweep"]
    for _, job in jobs:
        (checkout,) = [s for s in job["steps"] if s.get("with", {}).get("repository")]
        assert checkout["uses"] == "actions/checkout@v4"
        assert checkout["with"] == {"repository": REPOSITORY, "path": ".spidercli"}
        installs = [s["run"] for s in job["steps"] if s.get("run", "").startswith("pip ")]
        assert installs == ["pip install ./.spidercli"]


@pytest.mark.slow
def test_the_sweep_matrix_job_runs_its_shard(tmp_path: Path) -> None:
    ((name, job),) = _jobs("docs/sweep.md")
    assert name == "sweep"
    work = tmp_path / "work"
    work.mkdir()
    tools, _ = _stand_ins(tmp_path)
    install, sweep = _run_job(job, work, tools)
    assert install.args == "pip install ./.spidercli" and install.returncode == 0, install.stderr
    assert sweep.args.startswith("spidercli sweep PS4-1..32000 --timeout 60 --shard 1/8 -o ")
    assert sweep.returncode == 130, sweep.stderr  # stopped by Ctrl-C: every finished record kept
    records = [json.loads(line) for line in (work / "part-1.jsonl").read_text().splitlines()]
    assert len(records) >= SWEEP_RECORDS
    shard = [int(r["game"].removeprefix("PS4-")) for r in records]  # deals 1, 9, 17, ...
    assert all(n % 8 == 1 for n in shard) and len(set(shard)) == len(shard), shard


def test_the_pre_commit_rev_is_a_commit_with_the_hook(tmp_path: Path) -> None:
    """pre-commit clones ``repo`` at ``rev`` and runs the hook's ``entry`` on the files that
    ``files`` matches: the commit is here, its hook is this checkout's, and the hook refuses the
    batch's logs that are not valid."""
    (block,) = [b for b in _blocks("docs/ci.md", "yaml") if "repos:" in b]
    ((repo,),) = [yaml.safe_load(block)["repos"]]
    assert repo["repo"] == HOME
    ((hook_use,),) = [repo["hooks"]]
    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    hook = hooks[hook_use["id"]]
    if not (ROOT / ".git").exists():
        pytest.skip("no git repository (an sdist): the rev cannot be looked up")
    rev = repo["rev"]
    assert re.fullmatch(r"[0-9a-f]{40}|v\d+\.\d+\.\d+", rev), rev
    shown = subprocess.run(
        ["git", "show", f"{rev}:.pre-commit-hooks.yaml"], cwd=ROOT, capture_output=True, text=True
    )
    assert shown.returncode == 0, f"rev {rev} is not a commit of this repository: {shown.stderr}"
    assert {h["id"]: h for h in yaml.safe_load(shown.stdout)}[hook["id"]] == hook
    # The hook on a repository whose logs are where `files:` says.
    work = tmp_path / "yours"
    shutil.copytree(ROOT / "fixtures" / "batch", work / "solutions")
    (work / "README.md").write_text("not a log\n")
    files = sorted(
        str(p.relative_to(work))
        for p in work.rglob("*")
        if re.search(hook_use["files"], str(p.relative_to(work)))
    )
    assert files and all(f.startswith("solutions/") for f in files)
    entry = shlex.split(hook["entry"])
    assert entry[0] == "spidercli"
    result = subprocess.run(
        [sys.executable, "-m", "spidercli", *entry[1:], *files],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=GUARD,
    )
    assert result.returncode == 2 and "5 logs: 2 valid" in result.stdout + result.stderr


def test_the_release_steps_tag_the_version(tmp_path: Path) -> None:
    """The release's shell lines, in a clone of this repository: the tag they make is the one
    pre-commit's ``rev:`` and a checkout's ``ref:`` name (``git push``, the one line that needs a
    network, is left out)."""
    if not (ROOT / ".git").exists():
        pytest.skip("no git repository (an sdist)")
    (block,) = _blocks("docs/ci.md", "sh")
    lines = [line for line in block.splitlines() if line.strip()]
    assert lines[-1].startswith("git push origin ")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True, timeout=GUARD)
    tools, _ = _stand_ins(tmp_path)
    env = {
        "PATH": f"{tools}:/usr/bin:/bin",
        "HOME": str(tmp_path),
        "GIT_COMMITTER_NAME": "release",
        "GIT_COMMITTER_EMAIL": "release@example.invalid",
        "GIT_AUTHOR_NAME": "release",
        "GIT_AUTHOR_EMAIL": "release@example.invalid",
    }
    done = subprocess.run(
        ["bash", "-e", "-c", "\n".join(lines[:-1])],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    from spidercli import __version__

    tag = f"v{__version__}"
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=clone, capture_output=True, text=True)
    tagged = subprocess.run(
        ["git", "rev-parse", f"{tag}^{{commit}}"], cwd=clone, capture_output=True, text=True
    )
    assert tagged.returncode == 0 and tagged.stdout == head.stdout
    assert lines[-1] == 'git push origin "v$version"'
