"""``spidercli sweep`` (``api.sweep``): solve many deals, one JSON record a deal, resumable,
spread over workers and over machines (``--shard K/N``), and a tournament manifest of the deals
won.

``open_sweep`` plans the deals (``plan``), checks the manifest's place and opens the output
file, reading its records back (resume); the ``Sweep`` it returns yields each new record as it
is made: ``to_solve`` takes the plan's codes in order and passes over those the output file has a
record of (counted in the tally) and those given twice; each deal is solved by
``records.solve_deal`` (in a worker process of ``pool.supervised``) into its record; each record
is written as it comes, one line, whole at once, before it is yielded.
"""

from __future__ import annotations

import errno
import itertools
import os
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from spidercli.errors import OutputError, unwritable
from spidercli.judging.pool import supervised
from spidercli.logs.files import check_replaceable, write_atomic
from spidercli.solver.proof import shared_memory
from spidercli.sweeps.plan import Item, Plan, plan
from spidercli.sweeps.records import (
    Done,
    Output,
    SweepTally,
    certificate_path,
    certificate_problem,
    manifest_text,
    record_line,
    solve_deal,
    worker_died,
    write_certificate,
)
from spidercli.text.messages import N_


def to_solve(
    planned: Plan,
    done: Done,
    tally: SweepTally,
    output: Output | None,
    on_earlier: Callable[[dict[str, Any]], None] | None = None,
) -> Iterator[str]:
    """The plan's deals still to solve, made as they are taken: a deal the output file has a
    record of is counted in ``tally`` and not solved again (a won record is read back again
    for ``on_earlier``: the certificates), nor is a deal given twice; each one given is kept in
    ``done`` (so, met again, it is passed over)."""
    for code in planned.codes():
        entry = done.find(code)
        if entry < 0:
            done.put(code, -1)
            tally.expect(code)
            yield code
            continue
        if done.met(entry):
            continue
        done.meet(entry)
        tally.add_earlier(code, done, entry)
        if on_earlier is not None and done.result(entry) == "won":
            assert output is not None  # only the output file's records are in ``done``, not met
            on_earlier(output.record_at(done.where(entry), code))


def solved_records(
    codes: Iterable[str], *, timeout: float, max_states: int | None, jobs: int
) -> Iterator[dict[str, Any]]:
    """Each deal's record as it is made: in this process (``jobs`` 1), else in ``jobs``
    workers, each record as soon as its worker has it. The workers share the compiled proof
    search's budget of memory (``proof.shared_memory()``: a quarter of the machine, what its
    container leaves): each of the ``min(jobs, deals)`` started may hold that share of it, so a
    sweep whose hardest deals reach the proof at once holds no more than one ``solve`` would
    (and each worker no more than its own limits leave it, ``proof.process_memory()``). (The
    pure Python proof search ignores the budget and stops at ``proof.MAX_POSITIONS``, about 1 GB,
    in each worker, or where memory runs out.) ``codes`` are taken as the workers want them."""
    many = jobs > 1 and hasattr(os, "fork")
    taken = iter(codes)
    if not many:
        for code in taken:
            yield solve_deal((code, timeout, max_states, None))
        return

    first = list(itertools.islice(taken, jobs))  # fewer than jobs: only those workers start
    memory = shared_memory() // max(len(first), 1)
    tasks = ((code, timeout, max_states, memory) for code in itertools.chain(first, taken))
    yield from supervised(tasks, jobs, solve_deal, worker_died, ordered=False)


class Sink:
    """Where the records go: the output file, or standard output (each record flushed as it
    is written)."""

    def __init__(self, out: IO[str] | Output) -> None:
        self.out = out

    def write(self, record: dict[str, Any]) -> None:
        if isinstance(self.out, Output):
            self.out.write(record)
            return
        self.out.write(record_line(record))
        self.out.flush()


def check_manifest(manifest: str, *, make: bool = True) -> None:
    """``OutputError`` at once for a manifest that could not be written when the sweep ends (a
    folder, a FIFO, a device, a folder that takes no file) or certificates that could not be.
    ``make``: the certificates' folder is made now (a sweep writes into it as it goes); without,
    nothing is made or left behind (``deals --pick``, which may still refuse the set or the
    count): each folder is checked as far as it exists."""
    if not manifest:
        raise OutputError(N_("--manifest needs a file's name, not an empty one"))
    if manifest.endswith(("/", os.sep)) or os.path.isdir(manifest):
        raise OutputError(N_("{file}: cannot be written: it is a folder", file=manifest))
    there = os.path.exists(manifest)
    if there:  # a device (or a link to one) makes no folder beside it
        _replaceable(manifest)
    folder = os.path.dirname(certificate_path(manifest, "-"))
    if not make:
        for needed in (folder, os.path.dirname(os.path.realpath(manifest))):
            _can_hold_files(needed)
        return
    try:  # before any deal is solved: a folder that cannot be made is said at once
        os.makedirs(folder, exist_ok=True)
    except OSError as err:
        raise unwritable(folder, err) from err
    if not there:  # its folder is there now
        _replaceable(manifest)


def _can_hold_files(folder: str) -> None:
    """``OutputError`` unless ``folder`` is a folder files can be made in, or could be made: its
    nearest part that exists is a folder this process may write in."""
    there = os.path.abspath(folder or ".")
    while not os.path.lexists(there) and os.path.dirname(there) != there:
        there = os.path.dirname(there)
    if not os.path.isdir(there):
        raise unwritable(folder, NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR)))
    if not os.access(there, os.W_OK | os.X_OK):
        raise unwritable(folder, PermissionError(errno.EACCES, os.strerror(errno.EACCES)))


def _replaceable(path: str) -> None:
    try:
        check_replaceable(path)
    except OSError as err:
        raise unwritable(path, err) from err


def open_sweep(
    items: Iterable[Item],
    *,
    shard: tuple[int, int] = (1, 1),
    timeout: float,
    max_states: int | None = None,
    jobs: int = 1,
    output: str | IO[str] | None = None,
    manifest: str | None = None,
) -> Sweep:
    """A sweep of ``items`` ready to run: its plan made (``InputError`` past ``MAX_DEALS``), the
    manifest's place checked (``OutputError`` at once), and ``output`` opened: a file's name
    (appended to, its records read back first, and the deals they hold not solved again), or a
    text stream (each record written and flushed). Close it (or use it in a ``with``) to close
    the file."""
    planned = plan(items, shard)
    if manifest is not None:
        check_manifest(manifest)
    out = Output.open(output) if isinstance(output, str) else None
    try:
        return Sweep(planned, output if out is None else out, manifest, timeout, max_states, jobs)
    except BaseException:
        if out is not None:
            out.close()
        raise


class Sweep:
    """A sweep under way: iterate it for each new record (a ``dict``, the JSON of one line of the
    output) as it is made, in the order the deals finish. ``size``: the plan's deals; ``tally``:
    the records counted so far, those read back included; ``note``: what reading the output file
    back found to say (a last line cut short, mended), or None. ``write_manifest`` ends a sweep
    that has one; ``close`` closes the output file."""

    def __init__(
        self,
        planned: Plan,
        output: Output | IO[str] | str | None,
        manifest: str | None,
        timeout: float,
        max_states: int | None,
        jobs: int,
    ) -> None:
        self.size = planned.size
        self.tally = SweepTally(manifest is not None)
        self.note: str | None = None
        self._plan = planned
        assert not isinstance(output, str)  # a file's name is opened by open_sweep
        self._output = output
        self._manifest = manifest
        self._budget = (timeout, max_states, jobs)
        self._done = Done()
        if isinstance(output, Output):
            # With a manifest, every record read back must hold before any enters it.
            check = certificate_problem if manifest is not None else None
            self.note = output.read(self._done, check)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        timeout, max_states, jobs = self._budget
        out = self._output if isinstance(self._output, Output) else None
        todo = to_solve(self._plan, self._done, self.tally, out, self._certify_earlier())
        for record in solved_records(todo, timeout=timeout, max_states=max_states, jobs=jobs):
            self._write(record)
            if self._manifest is not None:
                write_certificate(self._manifest, record)
            self.tally.add(record["game"], record)
            yield record

    def _certify_earlier(self) -> Callable[[dict[str, Any]], None] | None:
        manifest = self._manifest
        if manifest is None:
            return None
        return lambda record: write_certificate(manifest, record)

    def _write(self, record: dict[str, Any]) -> None:
        if isinstance(self._output, Output):
            self._output.write(record)
        elif self._output is not None:
            self._output.write(record_line(record))
            self._output.flush()

    def write_manifest(self) -> bool:
        """Write the manifest of the deals won (a sweep with a manifest, run to its
        end); False when no deal was won (no manifest is written). ``OutputError`` when it
        cannot be written."""
        manifest = self._manifest
        assert manifest is not None and self.tally.won is not None
        timeout, max_states, _ = self._budget
        budget = f"{timeout:g} s" + ("" if max_states is None else f" or {max_states:,} states")
        won = [(code, *known) for code, known in self.tally.won.items() if known is not None]
        text = manifest_text(won, self.size, budget)
        if text is None:
            return False
        try:
            write_atomic(manifest, text)
        except OSError as err:
            raise unwritable(manifest, err) from err
        return True

    def close(self) -> None:
        if isinstance(self._output, Output):
            self._output.close()

    def __enter__(self) -> Sweep:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["Sweep", "check_manifest", "open_sweep", "solved_records", "to_solve"]
