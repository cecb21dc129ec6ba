"""``make bench-serve``: ``spidercli serve`` under load, on loopback only, with wrk (a real HTTP
load generator, Debian's package), beside the in-process API in the same run.

For each workload (the 117-move example; a mix of the fixtures' logs, illegal ones included) and
each number of concurrent clients (1, 16, 64, keep-alive), wrk posts logs to ``/v1/verify`` for
``--seconds``; the table gives the requests a second, the latency's median and 99th percentile
as wrk measured them, and the CPU the server's processes (the server and its judges, from /proc)
spent, so the verifications a CPU-second, which the machine's other load does not change much;
then the same work in-process (``verdict.verify_one``, what ``spidercli.verify`` does for a log
given as bytes), and the ratio. Then each of the worst 1 MiB logs (tests/tools/limits.py) once,
against the CPU budget. The load average before and after is printed: run it with as little else
running as can be.

    python -m tests.bench_serve [--seconds 5] [--judges N] [--clients 1,16,64]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from spidercli.judging.verdict import verify_one
from tests.served import Server, cpu_ticks

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "fixtures" / "example-spider-1suit-117.yaml"
MIX = sorted((ROOT / "fixtures").glob("*.yaml")) + sorted(
    (ROOT / "fixtures" / "illegal").glob("*.yaml")
)
TICK = os.sysconf("SC_CLK_TCK")

_LUA = """
local bodies = { %s }
local i = 0
request = function()
  i = i %% #bodies + 1
  return wrk.format("POST", "/v1/verify", {["Content-Type"] = "application/yaml"}, bodies[i])
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '\\nRESULT {"requests": %%d, "seconds": %%f, "errors": %%d, "non2xx": %%d, ' ..
    '"p50": %%f, "p99": %%f, "max": %%f}\\n',
    summary.requests, summary.duration / 1e6, e.connect + e.read + e.write + e.timeout,
    e.status, latency:percentile(50) / 1e3, latency:percentile(99) / 1e3, latency.max / 1e3))
end
"""


def _lua(bodies: list[bytes]) -> str:
    quoted = []
    for body in bodies:
        level = "=" * 4
        while f"]{level}]".encode() in body:
            level += "="
        quoted.append(f"[{level}[{body.decode()}]{level}]")
    return _LUA % ", ".join(quoted)


def in_process(bodies: list[bytes], seconds: float) -> float:
    """Verifications a CPU-second, in this process, as the judges make them."""
    done = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for body in bodies:
            verify_one("request", None, True, 1 << 20, content=body)
        done += len(bodies)
    return done / (time.process_time() - start)


def server_ticks(server: Server) -> tuple[int, int]:
    """The CPU ticks of the server process and of its judges."""
    return cpu_ticks(server.pid), sum(cpu_ticks(pid) for pid in server.judges())


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def run_wrk(server: Server, script: Path, clients: int, seconds: float) -> dict[str, float]:
    url = f"http://{server.host}:{server.port}/v1/verify"
    before = server_ticks(server)
    done = subprocess.run(
        [
            "wrk",
            "-t1",
            f"-c{clients}",
            f"-d{max(1, round(seconds))}s",
            "--timeout",
            "10s",
            "-s",
            str(script),
            url,
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=seconds + 60,
    )
    after = server_ticks(server)
    cpu = (after[0] + after[1] - before[0] - before[1]) / TICK
    line = next(x for x in done.stdout.splitlines() if x.startswith("RESULT "))
    result: dict[str, float] = json.loads(line[len("RESULT ") :])
    result["cpu"] = cpu
    result["server_cpu"] = (after[0] - before[0]) / TICK
    result["judges_cpu"] = (after[1] - before[1]) / TICK
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--judges", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--clients", default="1,16,64")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("bench_serve: needs wrk, a load generator (Debian: apt-get install wrk)")
    clients = [int(c) for c in args.clients.split(",")]
    workloads = {
        "117-move example": [EXAMPLE.read_bytes()],
        f"mix of {len(MIX)} fixtures' logs": [p.read_bytes() for p in MIX],
    }
    print(f"load average before: {load()} ({os.cpu_count()} cores)")
    # In this process's session: Linux's scheduler (autogroups, one a session) then counts the
    # server with the load generator as one job, as on a machine where nothing else runs; in a
    # session of its own, on a shared machine, it gets a share as small as any other job's.
    server = Server("--judges", str(args.judges), session=False)
    rows = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for name, bodies in workloads.items():
                script = Path(tmp) / "post.lua"
                script.write_text(_lua(bodies))
                local = in_process(bodies, 2.0)
                for count in clients:
                    r = run_wrk(server, script, count, args.seconds)
                    assert r["non2xx"] == 0 and r["errors"] == 0, r
                    rate = r["requests"] / r["seconds"]
                    per_cpu = r["requests"] / r["cpu"] if r["cpu"] else float("nan")
                    split = (
                        1000 * r["server_cpu"] / r["requests"],
                        1000 * r["judges_cpu"] / r["requests"],
                    )
                    rows.append((name, count, rate, r["p50"], r["p99"], split, per_cpu, local))
        worst = worst_cases(server)
    finally:
        server.stop()
    print(f"load average after: {load()}")
    print(
        f"\nspidercli serve, 1 server process and {args.judges} judging processes, wrk -t1, "
        f"keep-alive, {args.seconds:g} s a row:\n"
    )
    print(
        "| logs | clients | requests/s | p50 ms | p99 ms | CPU ms a request: server + judges "
        "| verifications a CPU-second: served | in-process | ratio |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name, count, rate, p50, p99, split, per_cpu, local in rows:
        print(
            f"| {name} | {count} | {rate:,.0f} | {p50:.2f} | {p99:.2f} "
            f"| {split[0]:.2f} + {split[1]:.2f} | {per_cpu:,.0f} | {local:,.0f} "
            f"| {local / per_cpu:.1f} |"
        )
    print("\nThe worst 1 MiB logs (tests/tools/limits.py), each posted once (CPU budget 2 s):\n")
    print("| log | status | seconds | message |")
    print("|---|---|---|---|")
    for name, status, seconds, message in worst:
        print(f"| {name} | {status} | {seconds:.2f} | {message} |")


def worst_cases(server: Server) -> list[tuple[str, int, float, str]]:
    from tests.tools.limits import limit_logs

    found = []
    for name, text in limit_logs().items():
        start = time.monotonic()
        got = server.call("POST", "/v1/verify", text.encode(), timeout=120)
        seconds = time.monotonic() - start
        record = got.json()
        message = record.get("error", {}).get("message", record.get("status", ""))
        found.append((name, got.status, seconds, message.split(": ", 1)[-1][:70]))
    return found


if __name__ == "__main__":
    main()
