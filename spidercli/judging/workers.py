"""Verifying many logs in worker processes: ``verdicts`` checks the ruleset's name and finds the
logs, ``verify_all`` hands them to ``jobs`` workers (``pool.supervised``) and yields their
verdicts in the order the files were given.

Each worker reads, parses and replays one log (``verdict.verify_one``) and sends back a small
``Verdict`` with the JSON text already made when the format needs it, so the parent only writes.
Nothing is kept per log after it is taken: memory does not grow with the number of logs (beyond
the set of paths seen).
"""

from __future__ import annotations

import gc
import itertools
import os
import time
from collections.abc import Generator, Iterable, Iterator
from dataclasses import replace

from spidercli.errors import InputError
from spidercli.game.rules import lookup_ruleset, unknown_ruleset
from spidercli.judging.findlogs import find_logs, no_logs
from spidercli.judging.pool import GC_THRESHOLDS, supervised, worker_death
from spidercli.judging.verdict import Verdict, invalid, verify_one
from spidercli.logs.files import MAX_LOG_BYTES, STDIN, Unreadable, read_stdin
from spidercli.text.messages import located, quoted, shown

LogTask = tuple[str, "str | None", bool, "int | None", "bytes | str | None", "str | None"]


def _verify_star(task: LogTask) -> Verdict:
    """One task in a worker: whatever happens, a verdict for this file alone (a bug met on one
    file never costs another file's verdict)."""
    start = time.perf_counter()
    try:
        verdict = verify_one(*task)
    except Exception as err:  # a bug, not the input's fault: say so, and go on
        message = located(
            task[0],
            None,
            f"internal error: {type(err).__name__}: {shown(str(err))}. Please report it with "
            "this log.",
        )
        verdict = invalid(task[0], message, None, task[2])
    return replace(verdict, seconds=time.perf_counter() - start)


def _tasks(
    paths: Iterable[str],
    rules: str | None,
    want_json: bool,
    max_bytes: int | None,
    html_dir: str | None,
) -> Iterator[LogTask]:
    """The workers' tasks; standard input (``-``) is read here, by the parent."""
    for path in paths:
        data: bytes | str | None = None
        if path == STDIN:
            limit = MAX_LOG_BYTES if max_bytes is None else max_bytes
            try:
                data = read_stdin(limit)
            except Unreadable as err:
                data = err.message  # its verdict says why
        yield (path, rules, want_json, max_bytes, data, html_dir)


def verify_all(
    paths: Iterable[str],
    *,
    rules: str | None,
    jobs: int,
    want_json: bool,
    max_bytes: int | None = None,
    html_dir: str | None = None,
) -> Generator[Verdict, None, None]:
    """Verdicts in the order of ``paths``, from ``jobs`` worker processes (1, or a system
    without ``fork``: in this one).

    ``paths`` is consumed lazily, and never more than ``_WINDOW`` logs ahead of the verdict
    written last, so neither the paths nor the results pile up. A worker that dies (killed by a
    signal, the system's out-of-memory killer, a crash) costs one verdict: the log it was
    verifying gets an internal error naming the signal, a new worker takes its place, and the
    logs it had not begun go to the workers again. Ctrl-C or SIGTERM in the parent ends the
    workers (none is left behind) and is raised on: ``KeyboardInterrupt``, or ``SystemExit``
    with status 143."""
    tasks = _tasks(paths, rules, want_json, max_bytes, html_dir)
    if jobs <= 1 or not hasattr(os, "fork"):
        thresholds = gc.get_threshold()
        gc.set_threshold(*GC_THRESHOLDS)
        try:
            for task in tasks:
                yield _verify_star(task)
        finally:
            gc.set_threshold(*thresholds)
        return
    yield from supervised(tasks, jobs, _verify_star, _died)


def verdicts(
    paths: Iterable[str],
    *,
    rules: str | None = None,
    jobs: int = 1,
    want_json: bool = True,
    max_bytes: int | None = None,
    html_dir: str | None = None,
    gitignore: bool = True,
) -> Generator[Verdict, None, None]:
    """``verify``: the logs ``paths`` lead to (``find_logs``; ``gitignore``: skipping what the
    ``.gitignore`` files on the way ignore), verified by ``verify_all``. An unknown ruleset, or
    paths that lead to no log, raise ``InputError`` here, before any log is verified; ``paths``
    is read as far as the first log, the rest as the verdicts are taken."""
    if rules is not None and lookup_ruleset(rules) is None:
        raise InputError(unknown_ruleset("--rules", quoted(rules), rules))
    given: list[str] | None = []  # the paths, kept only until a log is found (for the error)

    def noted() -> Iterator[str]:
        for path in paths:
            if given is not None:
                given.append(path)
            yield path

    found = find_logs(noted(), gitignore=gitignore)
    first = next(found, None)
    if first is None:
        raise no_logs(given or [])
    given = None
    return verify_all(
        itertools.chain([first], found),
        rules=rules,
        jobs=jobs,
        want_json=want_json,
        max_bytes=max_bytes,
        html_dir=html_dir,
    )


def _died(task: LogTask, status: int | None) -> Verdict:
    """The verdict of the log a worker was verifying when it died (``status``: ``waitpid``'s,
    None when it could not be had)."""
    message = located(
        task[0],
        None,
        f"internal error: the worker process verifying this log {worker_death(status)}. "
        "Please report it with this log.",
    )
    return invalid(task[0], message, None, task[2])
