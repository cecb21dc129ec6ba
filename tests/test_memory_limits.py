"""The proof search's budget of memory under the limits of the process and of its container
(issue 29, item 9): ``proof.default_memory()`` is the least of a quarter of the machine, what the
cgroup's limit leaves and what ``RLIMIT_AS`` leaves, and a search that runs out of memory all
the same (a beam, the compiled or the Python proof) gives up, ``stopped_by`` ``"memory"``, never
an internal error. The searches run for real, in a child process under ``setrlimit``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from spidercli.solver import proof
from spidercli.solver.proof import compiled_proof_by_default
from tests.processes import run_guarded

GUARD = 180.0
needs_limits = pytest.mark.skipif(
    not (sys.platform.startswith("linux") and Path("/proc/self/statm").exists()),
    reason="RLIMIT_AS and /proc/self/statm are Linux's",
)
needs_compiled = pytest.mark.skipif(
    not compiled_proof_by_default(), reason="compiled, seconds; in Python, minutes"
)

# A 4-suit Spiderette deal no beam wins (0.2 s), whose proof meets 528,629 positions (some 45 MB
# compiled, 1.1 s: docs/solver.md, "Proofs"); and one that a beam wins at once.
PROOF = "SD4-S1-FPAHRPB"
WON = "SD1-S1-AAAAAAB"

# A child that loads everything a search needs (a limit set first could make the compiled
# passes' import fail, and spidercli would search in Python), then lets itself map only ROOM MiB
# more than it holds, and runs the command line or the API.
CHILD = """
import json, resource, sys
import spidercli, spidercli.cli.app, spidercli.cli.commands.solve, spidercli.cli.commands.sweep
spidercli.solve("SD1-S1-AAAAAAB", max_states=2000)  # every module of a search loaded
room, mode, *args = sys.argv[1:]
with open("/proc/self/statm") as statm:
    size = int(statm.read().split()[0]) * resource.getpagesize()
hard = resource.getrlimit(resource.RLIMIT_AS)[1]
resource.setrlimit(resource.RLIMIT_AS, (size + (int(room) << 20), hard))
if mode == "api":
    found = spidercli.solve(args[0], timeout=60)
    print(json.dumps({"result": found.result, "stopped_by": found.stopped_by}))
elif mode == "budget":
    from spidercli.solver import proof
    print(json.dumps([proof.process_memory(), proof.default_memory(), proof.address_room()]))
else:
    sys.argv = ["spidercli", *args]
    spidercli.cli.app.main()
"""


def limited(room_mib: int, mode: str, *args: str) -> tuple[int, str, str]:
    """The child's exit status, stdout and stderr, under a limit of ``room_mib`` MiB of address
    space beyond what it held when it set it."""
    done = run_guarded([sys.executable, "-c", CHILD, str(room_mib), mode, *args], GUARD)
    return done.returncode, done.stdout, done.stderr


@needs_limits
@needs_compiled
def test_solve_under_ulimit_v_gives_up_on_memory() -> None:
    """70 MiB: the beams fit, the proof (some 45 MB) does not; it gives up within its budget
    (what RLIMIT_AS leaves, less HEADROOM), where it ran out of memory mid-search and said
    "internal error: MemoryError"."""
    status, out, err = limited(70, "cli", "solve", PROOF, "--timeout", "60")
    assert "internal error" not in err, err
    assert status == 1, err
    assert err.splitlines()[-1].startswith(
        f"spidercli: no win found for {PROOF} before the search's memory was spent ("
    )
    assert out == ""


@needs_limits
@pytest.mark.parametrize("room", [16, 30])
def test_a_search_that_runs_out_of_memory_gives_up(room: int) -> None:
    """So little room that the beams' own allocations fail (compiled or in Python): a give-up on
    memory, the API's ``stopped_by``, never a ``MemoryError``."""
    status, out, err = limited(room, "api", PROOF)
    assert status == 0, err
    assert json.loads(out) == {"result": "gave-up", "stopped_by": "memory"}


@needs_limits
@needs_compiled
def test_a_sweeps_workers_keep_within_their_own_limits() -> None:
    """Each worker inherits the limit, and clamps its share of the budget to it where the search
    begins: the deal whose proof does not fit gives up (no ``error``: it was "internal error:
    MemoryError"), the other is won."""
    status, out, err = limited(70, "cli", "sweep", PROOF, WON, "--timeout", "60", "--jobs", "2")
    assert status == 0, err
    records = {r["game"]: r for r in map(json.loads, out.splitlines())}
    assert records[PROOF]["result"] == "gave-up" and records[PROOF]["states"] > 0
    assert records[WON]["result"] == "won"
    assert all("error" not in r for r in records.values()), records


@needs_limits
def test_the_budget_follows_rlimit_as() -> None:
    """Under a limit, what the process may still take, less a quarter (at least HEADROOM), is
    the budget, and the default is no more."""
    status, out, err = limited(512, "budget")
    assert status == 0, err
    process, default, room = json.loads(out)
    assert room is not None and 500 << 20 < room <= 512 << 20  # a few pages mapped meanwhile
    assert process == proof.usable(room) == room - room // 4
    assert default <= process


def test_usable_leaves_a_quarter_and_at_least_the_headroom() -> None:
    assert proof.usable(4 << 30) == 3 << 30
    assert proof.usable(200 << 20) == (200 << 20) - proof.HEADROOM
    assert proof.usable(proof.HEADROOM) == 0
    assert proof.usable(0) == 0


def _tree(root: Path, files: dict[str, str]) -> str:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return str(root)


def test_cgroup_v2_limits_up_the_tree(tmp_path: Path) -> None:
    """cgroup v2: the least room under ``memory.max`` of the process's cgroup and of each above
    it, less what its processes hold (``anon``, not the file cache; ``memory.current`` when
    ``memory.stat`` does not say); ``max`` is no limit."""
    g = 1 << 30
    root = _tree(
        tmp_path,
        {
            "proc/self/cgroup": "0::/user.slice/job\n",
            "sys/fs/cgroup/user.slice/memory.max": f"{4 * g}\n",
            "sys/fs/cgroup/user.slice/memory.current": f"{3 * g}\n",
            "sys/fs/cgroup/user.slice/memory.stat": f"anon {g}\nfile {2 * g}\n",
            "sys/fs/cgroup/user.slice/job/memory.max": "max\n",
            "sys/fs/cgroup/user.slice/job/memory.current": f"{g}\n",
        },
    )
    assert proof.cgroup_room(root) == 3 * g  # 4 GiB less 1 GiB held (the cache given back)
    _tree(tmp_path, {"sys/fs/cgroup/user.slice/job/memory.max": f"{2 * g}\n"})
    assert proof.cgroup_room(root) == g  # the job's: 2 GiB less its 1 GiB (no memory.stat)


def test_cgroup_v1_and_a_namespaced_mount(tmp_path: Path) -> None:
    """cgroup v1's ``memory.limit_in_bytes`` (its "no limit" is 2^63 less a page); a cgroup
    namespace mounts the process's own cgroup at the root, where its path is not found."""
    g = 1 << 30
    root = _tree(
        tmp_path,
        {
            "proc/self/cgroup": "9:name=systemd:/\n4:memory:/docker/abc\n0::/\n",
            "sys/fs/cgroup/memory/memory.limit_in_bytes": f"{2 * g}\n",
            "sys/fs/cgroup/memory/memory.usage_in_bytes": f"{g // 2}\n",
        },
    )
    assert proof.cgroup_room(root) == 2 * g - g // 2
    _tree(tmp_path, {"sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n"})
    assert proof.cgroup_room(root) is None
    assert proof.cgroup_room(str(tmp_path / "nowhere")) is None


def test_the_default_is_the_least_of_the_three(monkeypatch: pytest.MonkeyPatch) -> None:
    g = 1 << 30
    monkeypatch.setattr(proof, "physical_memory", lambda: 32 * g)
    monkeypatch.setattr(proof, "cgroup_room", lambda: None)
    monkeypatch.setattr(proof, "address_room", lambda: None)
    assert proof.default_memory() == proof.shared_memory() == proof.MEMORY
    monkeypatch.setattr(proof, "cgroup_room", lambda: 4 * g)
    assert proof.default_memory() == proof.shared_memory() == 3 * g
    monkeypatch.setattr(proof, "address_room", lambda: 2 * g)
    assert proof.default_memory() == proof.process_memory() == 3 * g // 2
    assert proof.shared_memory() == 3 * g  # a sweep's workers share this, each clamped after
    monkeypatch.setattr(proof, "physical_memory", lambda: 2 * g)
    assert proof.default_memory() == g // 2


def test_the_compiled_search_is_clamped_where_it_begins(monkeypatch: pytest.MonkeyPatch) -> None:
    """A budget given (a sweep's share) is never more than what the process may take when the
    search begins."""
    from spidercli.game.codes import parse_code
    from spidercli.game.engine import Game
    from spidercli.game.rules import CLASSIC
    from spidercli.solver.search import problem_from_game

    if not compiled_proof_by_default():
        pytest.skip("the compiled proof search was not built")
    problem = problem_from_game(Game.from_code(parse_code(PROOF), CLASSIC))
    monkeypatch.setattr(proof, "process_memory", lambda: 1 << 20)  # 1 MiB
    search = proof.ProofSearch(problem, memory=1 << 30, locks=False)
    outcome = search.solve()
    assert outcome.progress.stop == "memory" and not outcome.exhaustive
    assert search.memory <= 1 << 20


def test_a_sweeps_deal_out_of_memory_past_the_search_is_not_a_bug(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A MemoryError past the search (writing the line, say) gives the deal up saying so, not as
    an internal error to report."""
    from spidercli.sweeps import records as sweep_records

    def no_memory(*args: object, **kwargs: object) -> None:
        raise MemoryError

    monkeypatch.setattr(sweep_records, "solve_game", no_memory)
    record = sweep_records.solve_deal((WON, 60.0, 1000, None))
    assert record["result"] == "gave-up"
    assert record["error"].startswith("out of memory: ")
