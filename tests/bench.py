"""``make bench``: the engine's speed, a 117-action log's load-and-replay time, CLI start-up.

Figures go in the README. Run on an idle machine; each figure is the best (or median) of repeats.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

from spidercli.engine import Game, perft
from spidercli.movelog import load_log
from spidercli.replay import choose_rules, replay

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


def main() -> None:
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


if __name__ == "__main__":
    main()
