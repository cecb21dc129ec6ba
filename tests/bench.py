"""``make bench``: the engine's speed, a 117-action log's load-and-replay time, CLI start-up.

Figures go in docs/benchmarks.md. Run on an idle machine; each figure is the best (or median) of
repeats. The three ratios are measured side by side in one run.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from spidercli.game.engine import Game, perft
from spidercli.logs.reader import load_log, parse_log
from spidercli.play.replay import choose_rules, replay

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[1]
FIXTURES = sorted((ROOT / "fixtures").glob("*.yaml"))


def bench_engine(seconds: float = 3.0) -> float:
    """Actions per second through ``Game.play`` (the public, checked path), fixture games."""
    games = []
    for path in FIXTURES:
        log = load_log(path)
        rules = choose_rules(log)
        games.append((log.deal, rules, [e.action for e in log.entries]))
    done = 0
    spent = 0.0
    while spent < seconds:
        for deal, rules, actions in games:
            game = Game.from_setup(deal, rules)
            play = game.play
            start = time.perf_counter()
            for action in actions:
                play(action)
            spent += time.perf_counter() - start
            done += len(actions)
    return done / spent


def bench_perft() -> float:
    """Generated moves made and unmade per second (perft, depth 4)."""
    log = load_log(ROOT / "fixtures" / "spider-4suit-permissive.yaml")
    game = Game.from_setup(log.deal, choose_rules(log))
    start = time.perf_counter()
    nodes = sum(perft(game, d) for d in (1, 2, 3, 4))
    return nodes / (time.perf_counter() - start)


def bench_log(repeats: int = 2000) -> tuple[float, int]:
    """Median milliseconds to read, parse and replay the 117-move worked example."""
    path = ROOT / "fixtures" / "example-spider-1suit-117.yaml"
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        report = replay(load_log(path))
        times.append(time.perf_counter() - t0)
    assert report.ok
    return statistics.median(times) * 1000, len(report.log.entries)


def bench_help(repeats: int = 15) -> float:
    exe = Path(sys.executable).parent / "spidercli"
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        subprocess.run([str(exe), "--help"], capture_output=True, check=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def bench_verify(count: int, jobs: int = 2) -> tuple[float, int]:
    """``spidercli verify DIR --format jsonl --jobs N`` on ``count`` copies of the 117-move worked
    example, as a whole process: logs per second, and the peak resident memory (KiB) of the
    largest process (parent or worker), measured from a fresh wrapper process."""
    import shutil
    import tempfile

    source = ROOT / "fixtures" / "example-spider-1suit-117.yaml"
    exe = Path(sys.executable).parent / "spidercli"
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(count):
            shutil.copyfile(source, Path(tmp) / f"log-{i:06d}.yaml")
        wrapper = (
            "import resource, subprocess, sys, time\n"
            "t = time.perf_counter()\n"
            f"r = subprocess.run([{str(exe)!r}, 'verify', {tmp!r}, '-f', 'jsonl', '-j', "
            f"'{jobs}'], stdout=subprocess.DEVNULL)\n"
            "print(time.perf_counter() - t, r.returncode,"
            " resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        )
        out = subprocess.run(
            [sys.executable, "-c", wrapper], capture_output=True, text=True, check=True
        )
    seconds, code, rss = out.stdout.split()
    assert code == "0", out
    return count / float(seconds), int(rss)


def _child_usage(args: list[str], stdout: int | None = subprocess.DEVNULL) -> tuple[float, int]:
    """CPU seconds (user + system) and peak resident KiB of one child process, measured from a
    fresh wrapper process so that nothing else is counted."""
    wrapper = (
        "import resource, subprocess, sys\n"
        f"r = subprocess.run({args!r}, stdout=subprocess.DEVNULL)\n"
        "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "print(u.ru_utime + u.ru_stime, u.ru_maxrss, r.returncode)\n"
    )
    out = subprocess.run([sys.executable, "-c", wrapper], capture_output=True, text=True)
    cpu, rss, _ = out.stdout.split()
    return float(cpu), int(rss)


_COMPOSE = """import sys, pathlib, yaml
for p in sorted(pathlib.Path(sys.argv[1]).glob('*.yaml')):
    yaml.compose(p.read_bytes(), Loader=yaml.CSafeLoader)
"""


def _alternating(
    measure: Callable[[list[str]], float], a: list[str], b: list[str], repeats: int
) -> tuple[list[float], list[float]]:
    """``measure`` of the commands ``a`` and ``b``, ``repeats`` times each, alternating (a b a
    b ...), so that a change in the machine's load falls on both sides alike."""
    first: list[float] = []
    second: list[float] = []
    for _ in range(repeats):
        first.append(measure(a))
        second.append(measure(b))
    return first, second


def ratio_verify_compose(count: int = 2_000, repeats: int = 5) -> tuple[float, float, float]:
    """``verify --jobs 1`` CPU against only composing the same files with libyaml (each the best
    of ``repeats``, the two alternating): (verify s, compose s, ratio). The logs are the fixture
    games, repeated."""
    import shutil
    import tempfile

    exe = str(Path(sys.executable).parent / "spidercli")
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(count):
            shutil.copyfile(FIXTURES[i % len(FIXTURES)], Path(tmp) / f"log-{i:06d}.yaml")
        verifies, composes = _alternating(
            lambda args: _child_usage(args)[0],
            [exe, "verify", tmp, "-f", "jsonl", "-j", "1"],
            [sys.executable, "-c", _COMPOSE, tmp],
            repeats,
        )
    verify, compose = min(verifies), min(composes)
    return verify, compose, verify / compose


def verify_breakdown(count: int = 2_000, repeats: int = 3) -> dict[str, float]:
    """Where ``verify --jobs 1``'s CPU goes on the logs of ``ratio_verify_compose``: a one-log
    verify process (start-up), then, in this process over the ``count`` logs, reading the files,
    parsing them, replaying them, and writing each JSON record (each the best of ``repeats``,
    CPU seconds)."""
    import gc
    import shutil
    import tempfile

    from spidercli.judging.findlogs import find_logs
    from spidercli.logs.yamlreader import display_name, read_text

    exe = str(Path(sys.executable).parent / "spidercli")
    one = str(ROOT / "fixtures" / "example-spider-1suit-117.yaml")
    figures = {
        "start-up (a one-log verify process)": min(
            _child_usage([exe, "verify", one, "-f", "jsonl", "-j", "1"])[0] for _ in range(repeats)
        )
    }

    def best(step: Callable[[], list[T]]) -> tuple[float, list[T]]:
        spent, result = float("inf"), []
        for _ in range(repeats):
            start = time.process_time()
            result = step()
            spent = min(spent, time.process_time() - start)
        return spent, result

    thresholds = gc.get_threshold()
    gc.set_threshold(50_000, 20, 20)  # as verify's batch does
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for i in range(count):
                shutil.copyfile(FIXTURES[i % len(FIXTURES)], Path(tmp) / f"log-{i:06d}.yaml")
            paths = list(find_logs([tmp]))
            named = [(path, display_name(path)) for path in paths]
            spent, texts = best(lambda: [(read_text(path), name) for path, name in named])
            figures["reading the files"] = spent
            spent, logs = best(lambda: [parse_log(text, name) for text, name in texts])
            figures["parsing (plain lists and heads; YAML for the rest)"] = spent
            spent, reports = best(lambda: [(replay(log), log.path) for log in logs])
            figures["replaying (the engine, the result, the expect block)"] = spent
            spent, _ = best(lambda: [r.json_text(file=p, status=r.status) for r, p in reports])
            figures["the JSON records"] = spent
    finally:
        gc.set_threshold(*thresholds)
    return figures


def ratio_replay_help(repeats: int = 15) -> tuple[float, float, float]:
    """``spidercli replay LOG`` against ``spidercli --help``, whole processes, median wall ms
    (the two alternating)."""
    exe = str(Path(sys.executable).parent / "spidercli")
    log = str(ROOT / "fixtures" / "example-spider-1suit-117.yaml")

    def wall(args: list[str]) -> float:
        t0 = time.perf_counter()
        subprocess.run(args, capture_output=True)
        return time.perf_counter() - t0

    replays, helps = _alternating(wall, [exe, "replay", log], [exe, "--help"], repeats)
    replay_ms, help_ms = statistics.median(replays) * 1000, statistics.median(helps) * 1000
    return replay_ms, help_ms, replay_ms / help_ms


def ratio_show_every(actions: int = 100_000) -> tuple[int, int, float]:
    """Peak memory (KiB) of ``replay --show every`` against ``--show final`` on a log of
    ``actions`` legal actions (a move and its undo, repeated)."""
    import tempfile

    exe = str(Path(sys.executable).parent / "spidercli")
    first = load_log(ROOT / "fixtures" / "example-spider-1suit-117.yaml").entries[0].text
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "long.yaml"
        moves = "".join(f"  - {first}\n  - undo\n" for _ in range(actions // 2))
        log.write_text(f"game: SP1-S1C-AAAAABD\nmoves:\n{moves}")
        every = _child_usage([exe, "replay", str(log), "--show", "every"])[1]
        final = _child_usage([exe, "replay", str(log), "--show", "final"])[1]
    return every, final, every / final


def warm_bytecode() -> None:
    """Write the modules' bytecode caches once, as any first run does where writing is allowed
    (PYTHONDONTWRITEBYTECODE would otherwise make every process compile spidercli anew and time
    the compiler, not the program; it stops only the writing, so the timed processes read the
    caches written here). Runs replay, verify and solve (one position), which between them import
    every module the benchmarks time; ``make bench-kpat`` calls it too."""
    import os

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    exe = str(Path(sys.executable).parent / "spidercli")
    log = str(ROOT / "fixtures" / "example-spider-1suit-117.yaml")
    subprocess.run([exe, "replay", log], capture_output=True, env=env)
    subprocess.run([exe, "verify", log, "-f", "jsonl", "-j", "1"], capture_output=True, env=env)
    solve = [exe, "solve", "KP4-1", "--max-states", "1", "-o", os.devnull]
    subprocess.run(solve, capture_output=True, env=env)


def main() -> None:
    warm_bytecode()
    print(f"engine, Game.play on fixture games: {bench_engine():,.0f} actions/s")
    print(f"engine, perft make/unmake:          {bench_perft():,.0f} nodes/s")
    ms, n = bench_log()
    print(f"load + replay a {n}-action log:     {ms:.3f} ms (median)")
    print(f"spidercli --help, whole process:    {bench_help():.0f} ms (median)")
    for count in (2_000, 20_000):
        rate, rss = bench_verify(count)
        print(
            f"verify {count:,} logs of 117 actions, --jobs 2: {rate:,.0f} logs/s, "
            f"peak memory {rss / 1024:.0f} MiB"
        )
    verify, compose, ratio = ratio_verify_compose()
    print(
        f"verify --jobs 1 CPU / libyaml compose CPU, 2,000 logs: {verify:.2f} s / "
        f"{compose:.2f} s = {ratio:.2f}x (target 1.5x)"
    )
    for what, seconds in verify_breakdown().items():
        print(f"  {what}: {seconds:.3f} s")
    replay_ms, help_ms, ratio = ratio_replay_help()
    print(
        f"replay LOG / --help, whole process: {replay_ms:.0f} ms / {help_ms:.0f} ms = "
        f"{ratio:.2f}x (target 1.6x)"
    )
    every, final, ratio = ratio_show_every()
    print(
        f"replay --show every / --show final peak memory, 100,000 actions: "
        f"{every / 1024:.0f} MiB / {final / 1024:.0f} MiB = {ratio:.2f}x (target 1.3x)"
    )


if __name__ == "__main__":
    main()
