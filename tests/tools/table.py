"""Build the settled table (spidercli/sweeps/tables/SET.txt.xz) from sweep records, and report on
it.

    python -m tests.tools.table build PS4 ps4.jsonl [more.jsonl ...] [--grades grades.jsonl]
    python -m tests.tools.table unknown PS4      # the deals left unknown, with what was tried
    python -m tests.tools.table stats PS4        # sizes, moves, gaps
    python -m tests.tools.table gave-up PS4 ps4.jsonl ps4-retry.jsonl   # the deals to sweep again
    python -m tests.tools.table grade PS4 --seed 0 --count 500 -o grades.jsonl   # fair grades

``build`` reads every record of the set's deals in the files given (``spidercli sweep
PS4-1..32000 -o ps4.jsonl``; several files, as shards concatenated, or a retry with a longer
budget), checks each (a won record's log must be the log of its own deal, and replay as a win
with the moves it says; an unwinnable one must be proven again: a lock found now, or the search's
record kept), keeps for each deal the best: won with the fewest moves, else unwinnable, else the
longest budget tried; then writes the table, replacing the file only when everything checked.
A won and an unwinnable record of one deal stop the build: one of them is wrong.
"""

from __future__ import annotations

import argparse
import json
import lzma
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from spidercli import api
from spidercli.game.codes import Setup, parse_code
from spidercli.game.engine import Game
from spidercli.game.rules import CLASSIC
from spidercli.solver.grades import Grade
from spidercli.solver.lock import lock
from spidercli.solver.search import problem_from_game
from spidercli.sweeps.table import SETS, DealSet, SetInfo, deal_set, held, shuffled, split_code
from spidercli.text.words import GRADES

ROOT = Path(__file__).resolve().parents[2]


def records(paths: list[str]) -> Iterator[tuple[str, int, dict[str, Any]]]:
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for i, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except ValueError:
                    print(f"{path}:{i}: skipped: not JSON (a line cut short?)", file=sys.stderr)
                    continue
                yield path, i, record


def line_of(record: dict[str, Any], code: str, where: str) -> tuple[str, ...]:
    """A won record's line, checked: the log is its own deal's and wins in its moves."""
    log = api.parse_log(record["log"], name=where)
    if log.code is None or log.code.canonical != code:
        raise SystemExit(f"{where}: the log is of {log.code and log.code.canonical}, not {code}")
    report = api.replay(log)
    if report.result != "won" or report.game.moves != record["moves"] or report.illegal:
        raise SystemExit(f"{where}: the log does not win {code} in {record['moves']} moves")
    return tuple(e.text.replace(" ", "") for e in log.entries)


def locked_ranks(code: str) -> tuple[int, ...] | None:
    found = lock(problem_from_game(Game.from_setup(Setup.from_code(parse_code(code)), CLASSIC)))
    return None if found is None else tuple(sorted(found.ranks))


def build(info: SetInfo, paths: list[str], grades: dict[str, Grade], out: Path) -> None:
    best: dict[int, str] = {}
    kind: dict[int, str] = {}
    moves: dict[int, int] = {}
    budget: dict[int, float] = {}
    checked = 0
    started = time.monotonic()
    for path, i, r in records(paths):
        code = r.get("game")
        if not isinstance(code, str):
            continue
        name, n = split_code(code)
        if name != info.name or not info.first <= n <= info.last:
            continue
        where = f"{path}:{i}"
        if r.get("rules") != "classic":
            raise SystemExit(f"{where}: a record under {r.get('rules')!r}, not classic")
        result = r.get("result")
        grade = grades.get(code)
        g = "-" if grade is None else f"{grade.wins}/{grade.playouts}"
        if result == "won":
            if kind.get(n) == "unwinnable":
                raise SystemExit(f"{where}: {code} is won here and proven unwinnable elsewhere")
            if kind.get(n) == "won" and moves[n] <= r["moves"]:
                continue
            line = line_of(r, code, where)
            checked += 1
            kind[n], moves[n] = "won", r["moves"]
            best[n] = f"{n} won {r['moves']} {r['lower_bound']} {g} {' '.join(line)}"
        elif result == "unwinnable":
            if kind.get(n) == "won":
                raise SystemExit(f"{where}: {code} is proven unwinnable here and won elsewhere")
            ranks = locked_ranks(code)
            if ranks is not None:
                proof = "lock " + " ".join(map(str, ranks))
            elif r.get("states") == 1:
                raise SystemExit(f"{where}: {code}: an unwinnable record of 1 state, but no lock")
            else:
                proof = f"search {r['states']}"
            kind[n] = "unwinnable"
            best[n] = f"{n} unwinnable - - - {proof}"
        elif result == "gave-up":
            if kind.get(n) in ("won", "unwinnable"):
                continue
            seconds = float(r.get("budget_seconds") or r.get("seconds") or 0)
            if n in budget and budget[n] >= seconds:
                continue
            budget[n] = seconds
            kind[n] = "unknown"
            bound = r.get("lower_bound")
            what = "error" if r.get("error") else f"gave-up {round(seconds)}"
            best[n] = f"{n} unknown - {'-' if bound is None else bound} {g} {what}"
    counts = {k: sum(1 for v in kind.values() if v == k) for k in ("won", "unwinnable", "unknown")}
    header = [
        f"# set {info.name}",
        f"# title {info.title}",
        f"# deals {info.first} {info.last}",
        f"# made {time.strftime('%Y-%m-%d')} from spidercli sweep records "
        f"({counts['won']} won, {counts['unwinnable']} unwinnable, "
        f"{info.size - counts['won'] - counts['unwinnable']} unknown)",
        "# deal result moves lower_bound grade line|proof|tried",
    ]
    text = "\n".join(header + [best[n] for n in sorted(best)]) + "\n"
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    tmp.write_bytes(lzma.compress(text.encode(), preset=9 | lzma.PRESET_EXTREME))
    os.replace(tmp, out)
    print(
        f"{info.name}: {counts['won']} won ({checked} certificates replayed), "
        f"{counts['unwinnable']} unwinnable, {info.size - counts['won'] - counts['unwinnable']} "
        f"unknown; {out} {out.stat().st_size:,} bytes ({time.monotonic() - started:.1f} s)"
    )


def read_grades(paths: list[str]) -> dict[str, Grade]:
    """Grades' records (``grade`` below, or ``make bench-fair``'s ``--grades``): the last of
    each deal."""
    out: dict[str, Grade] = {}
    for _path, _i, r in records(paths):
        playouts = int(r["playouts"])
        wins = int(r["wins"]) if "wins" in r else round(float(r["rate"]) * playouts)
        out[r["game"]] = Grade(wins, playouts)
    return out


def _grade_one(code: str) -> dict[str, object]:
    from spidercli.solver.fair import grade

    start = time.process_time()
    found = grade(code)
    return {"game": code, **found.to_json(), "cpu": round(time.process_time() - start, 3)}


def grade_deals(info: SetInfo, seed: int, count: int, out: Path, jobs: int) -> None:
    """Grade ``count`` won deals of the shipped table in the order ``deals SET --pick`` draws
    them from ``seed`` (so that picks with that seed find their grades in the table), each
    deal's record a line of ``out`` (resumable: deals already there are skipped)."""
    from multiprocessing import Pool

    table = deal_set(info.name)
    order = [info.code(n) for n in shuffled(table.won_numbers(), seed)][:count]
    done = set(read_grades([str(out)])) if out.exists() else set()
    todo = [code for code in order if code not in done]
    with (
        out.open("a", encoding="utf-8") as sink,
        Pool(jobs, initializer=os.nice, initargs=(19,)) as pool,
    ):
        for record in pool.imap(_grade_one, todo):
            sink.write(json.dumps(record) + "\n")
            sink.flush()


def gave_up(info: SetInfo, first: str, retry: str) -> list[str]:
    """The set's deals that ``first`` gave up on (and never won or proved) and ``retry`` has no
    record of, in the order swept: what ``make table`` sweeps again with the longer budget."""
    retried = set()
    if os.path.exists(retry):
        retried = {r.get("game") for _, _, r in records([retry])}
    settled: set[str] = set()
    given_up: list[str] = []
    for _, _, r in records([first]):
        game = r.get("game")
        if not isinstance(game, str) or not game.startswith(info.name + "-"):
            continue
        if r.get("result") in ("won", "unwinnable"):
            settled.add(game)
        elif r.get("result") == "gave-up":
            given_up.append(game)
    return [g for g in dict.fromkeys(given_up) if g not in settled and g not in retried]


def spans(numbers: list[int]) -> str:
    """``1-9174, 9180`` for sorted numbers."""
    out: list[str] = []
    start = prev = None
    for n in [*numbers, None]:
        if start is not None and prev is not None and (n is None or n != prev + 1):
            out.append(f"{start}" if start == prev else f"{start}-{prev}")
            start = None
        if n is not None and start is None:
            start = n
        prev = n
    return ", ".join(out)


def figures(table: DealSet) -> str:
    """docs/deals.md's *What the table holds now*, as the shipped table says it (a test holds the
    doc to it: ``python -m tests.tools.table figures PS4`` prints it)."""
    entries = table.entries
    won = [e for e in entries.values() if e.result == "won"]
    lengths = sorted(e.moves or 0 for e in won)
    gaps = sorted((e.moves or 0) - (e.lower_bound or 0) for e in won)
    tried = sorted(entries)
    untried = [n for n in range(table.info.first, table.info.last + 1) if n not in entries]
    head = f"`{table.name}` ({table.info.title}, deals {table.info.first}-{table.info.last}): "
    if not untried and not table.unknown:
        lines = [
            head + f"**complete: every deal settled, {table.won:,} won and "
            f"{table.unwinnable:,} proven unwinnable**.",
            "",
            f"- Tried: every deal ({len(tried):,}); none is left unknown.",
        ]
    else:
        lines = [
            head + f"**{table.won:,} won, {table.unwinnable:,} proven unwinnable, "
            f"{table.unknown:,} not settled**.",
            "",
            f"- Tried: deals {spans(tried) or 'none'} ({len(tried):,}). Not tried yet: deals "
            f"{spans(untried) or 'none'} ({len(untried):,})"
            + (
                "; the sweep goes on (`make table`) and a later release ships more."
                if untried
                else "."
            ),
        ]
    if won:
        lines.append(
            f"- The certificates: {lengths[len(lengths) // 2]} moves at the median, "
            f"{lengths[-1]} at most; the gap to the proven lower bound on any win's moves "
            f"{gaps[len(gaps) // 2]} at the median."
        )
    graded = [e.grade for e in won if e.grade is not None]
    if graded:
        counts = ", ".join(f"{sum(g.bucket == b for g in graded)} {b}" for b in GRADES)
        first = 0
        for n in shuffled(table.won_numbers(), 0):
            if entries[n].grade is None:
                break
            first += 1
        among = f", among them the first {first:,} that a pick with seed 0 draws" if first else ""
        lines.append(
            f"- Graded by the fair player (docs/fair.md): {len(graded):,} of the won deals "
            f"({counts}){among}; `--pick` grades any other deal it draws."
        )
    for e in sorted(entries.values(), key=lambda e: table_number(e.game)):
        if e.result == "unwinnable" and e.proof is not None:
            proof = e.proof
            why = (
                f"a lock: no card of rank {' or '.join(map(str, proof.ranks))} can ever be face up"
                if proof.kind == "lock"
                else f"the whole space searched ({proof.positions or 0:,} positions)"
            )
            lines.append(f"- `{e.game}` is proven unwinnable: {why}.")
    unsettled = [e for e in entries.values() if e.result == "unknown"]
    if unsettled:
        lines += [
            "- Tried and not settled (each gave up within the time shown, its longest try: the "
            "first sweep's 60 s, or a retry of up to 2 hours and 1,000,000,000 positions, which "
            "ends early when the positions are spent or the proof search spends its memory):",
            "",
            "  | deal | tried |",
            "  |---|---|",
        ]
        for e in sorted(unsettled, key=lambda e: table_number(e.game)):
            budget = (e.tried or "").removeprefix("gave-up ")
            lines.append(f"  | `{e.game}` | gave up after {budget} s |")
    return "\n".join(lines) + "\n"


DOC = ROOT / "docs" / "deals.md"
DOC_START = "<!-- table-figures: python -m tests.tools.table doc writes what follows -->\n"
DOC_END = "<!-- /table-figures -->\n"


def doc_figures() -> str:
    """The section between docs/deals.md's markers: each shipped set's figures."""
    return "\n".join(figures(deal_set(name)) for name in held())


def write_doc(path: Path = DOC) -> None:
    text = path.read_text(encoding="utf-8")
    head, _, rest = text.partition(DOC_START)
    _, _, tail = rest.partition(DOC_END)
    path.write_text(head + DOC_START + "\n" + doc_figures() + "\n" + DOC_END + tail, "utf-8")


def table_number(game: str) -> int:
    return int(game.rpartition("-")[2])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.tools.table")
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="write spidercli/sweeps/tables/SET.txt.xz from sweep records")
    b.add_argument("set", choices=sorted(SETS))
    b.add_argument("records", nargs="+")
    b.add_argument("--grades", nargs="*", default=[])
    b.add_argument("-o", "--output", type=Path)
    u = sub.add_parser("unknown", help="list the deals left unknown")
    u.add_argument("set", choices=sorted(SETS))
    s = sub.add_parser("stats", help="the set's counts, moves and gaps")
    s.add_argument("set", choices=sorted(SETS))
    f = sub.add_parser("figures", help="docs/deals.md's section on what the table holds")
    f.add_argument("set", choices=sorted(SETS))
    sub.add_parser("doc", help="rewrite docs/deals.md's figures from the shipped tables")
    gr = sub.add_parser("grade", help="grade won deals in a pick's order (resumable)")
    gr.add_argument("set", choices=sorted(SETS))
    gr.add_argument("--seed", type=int, default=0)
    gr.add_argument("--count", type=int, default=1000)
    gr.add_argument("--jobs", type=int, default=1)
    gr.add_argument("-o", "--output", type=Path, required=True)
    g = sub.add_parser("gave-up", help="the deals a sweep gave up on that a retry has not tried")
    g.add_argument("set", choices=sorted(SETS))
    g.add_argument("first", help="the first sweep's records")
    g.add_argument("retry", help="the retries' records (may not exist yet)")
    args = parser.parse_args(argv)
    if args.command == "doc":
        write_doc()
        return
    info = SETS[args.set]
    if args.command == "build":
        out = args.output or ROOT / "spidercli" / "sweeps" / "tables" / f"{info.name}.txt.xz"
        build(info, args.records, read_grades(args.grades), out)
    elif args.command == "grade":
        grade_deals(info, args.seed, args.count, args.output, args.jobs)
    elif args.command == "figures":
        print(figures(deal_set(info.name)), end="")
    elif args.command == "gave-up":
        print(" ".join(gave_up(info, args.first, args.retry)))
    elif args.command == "unknown":
        table = deal_set(info.name)
        for entry in table:
            if entry.result == "unknown":
                print(entry.game, entry.tried or "not tried")
    else:
        table = deal_set(info.name)
        won = [e for e in table.entries.values() if e.result == "won"]
        gaps = sorted((e.moves or 0) - (e.lower_bound or 0) for e in won)
        lengths = sorted(e.moves or 0 for e in won)
        print(repr(table))
        if won:
            print(
                f"moves: median {lengths[len(lengths) // 2]}, max {lengths[-1]}; "
                f"gap: median {gaps[len(gaps) // 2]}"
            )


if __name__ == "__main__":
    main()
