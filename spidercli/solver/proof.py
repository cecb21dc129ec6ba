"""A search of the whole space of play, whose exhaustion proves that no win exists.

``ProofSearch`` plays every legal move (every count of every movable group onto every column
that takes it, empty ones included) and the deal when legal, depth first, and meets each
position once **up to one equivalence**: once the stock is out, two positions whose columns are
the same columns in another order are one position (no rule then tells one column from another:
a deal, the only action that does, is over). While cards remain to deal, positions are equal
only when every column is equal, in its place (the deal puts its cards column by column). A
position is its columns' cards, their face-down counts and the deals done (the cards gone
follow from the cards left).

When the search has met every position reachable from the start without meeting a win, no
line of play wins: ``Outcome.exhaustive``. It finds a win when there is one within its budget,
but not a short one (the beam does that); ``solution.search`` runs it only after every beam
pass failed without running out of budget. Each position met is kept as an exact key (never a
hash: a proof cannot rest on chance).

The search has two twins that search alike (the same actions in the same order, the same
equivalence, the same positions counted, so the same line or the same proof): the compiled one
(``spidercli/solver/_proof.c``, used when it was built, unless SPIDERCLI_PURE_PYTHON is set), which
holds 75-90 bytes a position (measured: its key, its slot in a table, its path), some 23 times
as fast, and gives up before it would hold more than ``default_memory()`` bytes (8 GiB, a
quarter of the machine's memory, or what the cgroup's limit or the process's own limits leave,
whichever is least); and the pure Python one here (``_run_python``), about 1 KB a position,
which gives up past ``MAX_POSITIONS`` (about 1 GB). Either gives up, ``stop`` ``"memory"``, when
an allocation fails (``MemoryError``: ``solver.Search.solve``). docs/solver.md, "Proofs", has
the figures.

Before searching, it asks ``lock.lock`` whether the start is locked (no run can ever be removed
from it, whatever is played): then it ends at once, unwinnable, having met one position.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from types import ModuleType

from spidercli.solver.beam import pure_python_reason
from spidercli.solver.lock import Lock, lock
from spidercli.solver.search import Position, Problem, Search, Solver, Step, _Budget, _fits

_compiled_proof: ModuleType | None
try:  # the compiled proof search (spidercli/solver/_proof.c, for proof.ProofSearch), built alike
    from spidercli.solver import _proof as _compiled_proof
except ImportError:  # pragma: no cover - depends on the build
    _compiled_proof = None


def compiled_proof_available() -> bool:
    """Whether the compiled proof search (``proof.ProofSearch``'s twin) was built and imports."""
    return _compiled_proof is not None


def compiled_proof_by_default() -> bool:
    """The proof search's default: compiled when built, unless SPIDERCLI_PURE_PYTHON is set."""
    return _compiled_proof is not None and pure_python_reason() != "asked"


def solver_pass() -> str:
    """The solver's pass in use, for ``--version`` (English, as the version line):
    ``solver: compiled pass`` or ``solver: pure Python pass (...)``, saying why; a compiled beam
    whose proof search (``proof.ProofSearch``) was not built says so too."""
    why = pure_python_reason()
    if why is None:
        if _compiled_proof is None:
            return (
                "solver: compiled pass (proofs in pure Python: their compiled search was not built)"
            )
        return "solver: compiled pass"
    if why == "asked":
        return "solver: pure Python pass (SPIDERCLI_PURE_PYTHON is set)"
    return "solver: pure Python pass (the compiled pass was not built)"


# The positions the pure Python search meets before it gives up: each costs about 1 KB (its key,
# and its place on the path the search holds; 429 MB for 438,090 positions measured), so some 1 GB.
MAX_POSITIONS = 1_000_000
# The most memory the compiled search may hold (its keys, their table, its path) before it gives
# up; default_memory() takes less where the machine, the container or the process has less.
MEMORY = 8 << 30
# What a search leaves of the memory a process may still take, for the rest of it (Python's
# own objects, the line found, a progress thread's stack): a quarter, and at least this much.
HEADROOM = 64 << 20
# A limit at or past this is no limit (cgroup v1 writes "no limit" as 2^63 less a page).
_UNLIMITED = 1 << 60


def default_memory() -> int:
    """The compiled search's budget of bytes when it is given none: the least of ``MEMORY``,
    ``shared_memory()`` (a quarter of the machine, what its container leaves) and
    ``process_memory()`` (what this process's limits leave it)."""
    return min(shared_memory(), process_memory())


def shared_memory() -> int:
    """The budget that every process of the machine or container shares (a sweep's workers
    divide it): ``MEMORY``, or a quarter of the machine's memory when that is less (a proof on
    a laptop leaves it room; ``MEMORY`` where the size is not known), or what the cgroup's
    limit leaves (``cgroup_room()``, less ``HEADROOM``) when that is less still."""
    budget = MEMORY
    ram = physical_memory()
    if ram is not None:
        budget = min(budget, ram // 4)
    room = cgroup_room()
    if room is not None:
        budget = min(budget, usable(room))
    return budget


def process_memory() -> int:
    """What this process may still take for a search, now: what ``RLIMIT_AS`` (``ulimit -v``)
    and ``RLIMIT_DATA`` (``ulimit -d``) leave beyond what it already holds, less ``HEADROOM``;
    ``MEMORY`` when neither limits it. Asked where the search begins (a sweep's worker asks in
    its own process)."""
    room = address_room()
    return MEMORY if room is None else min(MEMORY, usable(room))


def usable(room: int) -> int:
    """Of ``room`` bytes still free to a process, what a search may hold: all but a quarter, and
    all but ``HEADROOM`` at least."""
    return max(room - max(room // 4, HEADROOM), 0)


def physical_memory() -> int | None:
    """The machine's memory in bytes; None where it is not known."""
    try:
        ram = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # no sysconf (Windows), or not that name
        return None
    return ram if ram > 0 else None


def address_room(statm: str = "/proc/self/statm") -> int | None:
    """The bytes this process may still map under its soft ``RLIMIT_AS`` (less its size, as
    ``statm`` gives it) and ``RLIMIT_DATA`` (less its data); None when neither is set (or where
    there are no such limits)."""
    try:  # not on Windows
        import resource
    except ImportError:  # Windows
        return None
    try:
        with open(statm, encoding="ascii") as handle:
            fields = handle.read().split()
        page = os.sysconf("SC_PAGE_SIZE")
        size, data = int(fields[0]) * page, int(fields[5]) * page
    except (OSError, ValueError, IndexError, AttributeError):  # not Linux: none counted
        size = data = 0
    rooms = []
    for name, held in (("RLIMIT_AS", size), ("RLIMIT_DATA", data)):
        limit = resource.getrlimit(getattr(resource, name))[0] if hasattr(resource, name) else -1
        if limit != resource.RLIM_INFINITY and 0 <= limit < _UNLIMITED:
            rooms.append(max(limit - held, 0))
    return min(rooms) if rooms else None


def cgroup_room(root: str = "/") -> int | None:
    """What the memory limits of this process's cgroup and of each cgroup above it leave, the
    least of them (cgroup v2's ``memory.max`` less the memory its processes hold; v1's
    ``memory.limit_in_bytes`` alike); None when no cgroup limits it. ``root``: where the file
    system's root is (the tests give a made-up one)."""
    try:
        with open(os.path.join(root, "proc/self/cgroup"), encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    rooms = []
    for line in lines:
        _, controllers, path = [*line.split(":", 2), "", ""][:3]
        mounts: tuple[str, ...]
        if controllers == "":  # cgroup v2: 0::/path
            mounts = ("sys/fs/cgroup", "sys/fs/cgroup/unified")
            files = ("memory.max", "memory.current", "anon")
        elif "memory" in controllers.split(","):  # cgroup v1: N:memory:/path
            mounts = ("sys/fs/cgroup/memory",)
            files = ("memory.limit_in_bytes", "memory.usage_in_bytes", "total_rss")
        else:
            continue
        for mount in mounts:
            rooms += _cgroup_rooms(os.path.join(root, mount), path, *files)
    return min(rooms) if rooms else None


def _cgroup_rooms(mount: str, path: str, limit: str, usage: str, held: str) -> list[int]:
    """The room left under each limit from the cgroup ``path`` up to the mount's root (a cgroup
    namespace mounts the process's own cgroup there: then ``path`` is not found under it, and
    the root is that cgroup)."""
    rooms = []
    parts = [p for p in path.split("/") if p and p not in (".", "..")]
    for depth in range(len(parts), -1, -1):
        folder = os.path.join(mount, *parts[:depth])
        most = _read_number(os.path.join(folder, limit))
        if most is None or most >= _UNLIMITED:
            continue
        used = _held(os.path.join(folder, "memory.stat"), held)
        if used is None:
            used = _read_number(os.path.join(folder, usage)) or 0
        rooms.append(max(most - used, 0))
    return rooms


def _read_number(path: str) -> int | None:
    """The number a cgroup file holds; None for ``max``, a file not there or not a number."""
    try:
        with open(path, encoding="ascii") as handle:
            text = handle.read(64).strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None


def _held(stat: str, key: str) -> int | None:
    """The memory a cgroup's processes hold themselves (``memory.stat``'s ``key``: anonymous
    memory, not the file cache the kernel gives back when asked); None when not said."""
    try:
        with open(stat, encoding="ascii") as handle:
            for line in handle:
                name, _, value = line.partition(" ")
                if name == key and value.strip().isdigit():
                    return int(value)
    except (OSError, UnicodeDecodeError):
        return None
    return None


# A position's key: (columns, face-down counts, deals done) in place, or (None, the sorted
# (column, face-down count) pairs) once the stock is out.
Key = tuple[object, ...]


def position_key(node: Position, deals: int) -> Key:
    """The position's key under the search's equivalence (``deals``: the deals in all): its
    columns in place while cards remain to deal, their sorted list once the stock is out. The
    columns' ``bytes`` are shared with the positions, so a key costs little memory."""
    if node.dealt >= deals:
        return (None, tuple(sorted(zip(node.cols, node.down, strict=True))))
    return (node.cols, node.down, node.dealt)


def compiled_fits(problem: Problem) -> bool:
    """Whether the compiled search takes this problem: what the compiled beam takes
    (``solver._fits``: every deal spidercli plays), every column's top card face up."""
    start = problem.start
    return _fits(problem) and all(
        d < len(c) if c else d == 0 for c, d in zip(start.cols, start.down, strict=True)
    )


class ProofSearch(Search):
    """Depth first over every legal action, each position (under ``position_key``'s equivalence)
    once: a win's line, or, when the space is exhausted, the proof that none exists. Compiled
    (``spidercli/solver/_proof.c``) or in pure Python (``_run_python``), the same search."""

    def __init__(
        self,
        problem: Problem,
        *,
        compiled: bool | None = None,
        memory: int | None = None,
        locks: bool = True,
    ) -> None:
        """``compiled``: search compiled (True; an error when it was not built), in Python
        (False), or by default (None: see ``solver.compiled_proof_by_default``); a problem the
        compiled search does not take (``compiled_fits``) is searched in Python. ``memory``: the
        compiled search's budget of bytes (default ``default_memory()``). ``locks``: first ask
        ``lock.lock`` whether the start is locked (then no run can ever be removed: the search
        ends there, unwinnable, one position met, ``lock`` set); False searches it anyway."""
        super().__init__(problem)
        self.locks = locks
        self.lock: Lock | None = None  # what proved the start locked, when it is
        self._moves = Solver(problem).moves
        self.positions = 0  # the positions met (each equivalence class once)
        # The compiled search's last word on its path's length, the deals done where it stands,
        # and the bytes it holds (the pure Python search leaves them at 0).
        self.depth = 0
        self.dealt = 0
        self.memory = 0
        if compiled and _compiled_proof is None:
            raise RuntimeError("the compiled proof search (spidercli.solver._proof) was not built")
        use = compiled_proof_by_default() if compiled is None else compiled
        self.compiled = use and compiled_fits(problem)
        self.max_bytes = default_memory() if memory is None else memory

    def _children(self, node: Position) -> Iterator[tuple[Step, Position]]:
        for step in self._moves(node, True):
            yield step, (self.after_deal(node) if step is None else self.after_move(node, *step))

    def _run(self, budget: _Budget) -> tuple[list[Step] | None, bool]:
        root = self.p.start
        if self.locks and root.runs < self.p.runs_to_win:
            self.lock = lock(self.p)
            if self.lock is not None:  # no run can ever be removed: nothing to search
                budget.progress.phase = "proof"
                self.positions = 1
                budget.tick()  # the start, met (a spent budget stops here, and proves nothing)
                self.locked = self.lock.ranks
                return None, True
        if self.compiled:
            return self._run_compiled(budget)
        return self._run_python(budget)

    def _run_compiled(self, budget: _Budget) -> tuple[list[Step] | None, bool]:
        compiled = _compiled_proof
        assert compiled is not None
        budget.progress.phase = "proof"
        # What this process may still take, asked now (a sweep's worker, a thread's stack):
        # never more than the limits leave, whatever budget was given.
        most = min(self.max_bytes, process_memory())
        line, exhaustive = compiled.search(
            *self.p.compiled_args(),
            -1,
            min(max(most, 0), _C_LONG_LONG_MAX),
            budget.grant,
            budget.progress,
            self,
        )
        if line is None and not exhaustive:
            raise budget.stop("memory")  # its memory spent
        return line, exhaustive

    def _run_python(self, budget: _Budget) -> tuple[list[Step] | None, bool]:
        p = self.p
        goal = p.runs_to_win
        root = p.start
        if root.runs >= goal:
            return [], False
        deals = len(p.chunks)
        progress = budget.progress
        progress.phase = "proof"
        seen = {position_key(root, deals)}
        self.positions = 1
        tick = budget.tick
        tick()
        stack = [self._children(root)]
        path: list[Step] = []
        while stack:
            found = next(stack[-1], None)
            if found is None:
                stack.pop()
                if path:
                    path.pop()
                continue
            step, child = found
            if child.runs >= goal:
                return [*path, step], False
            key = position_key(child, deals)
            if key in seen:
                continue
            if len(seen) >= MAX_POSITIONS:
                raise budget.stop("memory")
            tick()
            seen.add(key)
            self.positions = len(seen)
            if child.runs > progress.best_runs:
                progress.best_runs = child.runs
            if child.dealt > progress.best_deals:
                progress.best_deals = child.dealt
            stack.append(self._children(child))
            path.append(step)
        return None, True


_C_LONG_LONG_MAX = (1 << 63) - 1  # the compiled search's budget of bytes is a C long long

__all__ = [
    "HEADROOM",
    "MAX_POSITIONS",
    "MEMORY",
    "Key",
    "ProofSearch",
    "address_room",
    "cgroup_room",
    "compiled_fits",
    "compiled_proof_available",
    "compiled_proof_by_default",
    "default_memory",
    "physical_memory",
    "position_key",
    "process_memory",
    "shared_memory",
    "solver_pass",
    "usable",
]
