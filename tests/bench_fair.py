"""The fair player's strength: ``make bench-fair``, or ``python -m tests.bench_fair [options]``.

Plays PySol's numbered deals with the player who follows ``hint --fair`` from the deal to the end
without undo (``spidercli.solver.fair.play``), at the shipped budget unless ``--budget`` names
another (``SAMPLES,WIDTH,DEPTH``), and prints, per suit count and budget, the games, the wins,
the win rate with its 95 % interval (Wilson's), and the CPU seconds a game and a move. By default
deals 1-1000 with 1, 2 and 4 suits (``--suits``, ``--deals 1-200``).

Each game is one JSON record in ``--out`` (default ``bench-fair/games.jsonl``): a run that is
stopped resumes where it was (the games already recorded are not played again), ``--shard K/N``
plays the K-th of N parts of the games (for several machines; their files concatenated give the
whole), ``--jobs`` plays that many games at once, each worker at ``--nice`` (default 10).
``--report`` prints the table from the records without playing. ``--curve`` plays the budget
curve instead: 4 suits, deals 1-``--curve-deals`` (default 150), at each of ``CURVE``'s budgets
(records shared with the main run: a game already played at a budget is not played again).
``--grades`` grades PySol's 4-suit deals ``--deals`` (``spidercli.solver.fair.grade``; records in
``bench-fair/grades.jsonl``) and relates the grades to the solver's line length and
``states_to_win`` (``--sweep``: ``spidercli sweep`` records of the same deals) and to the shipped
player's wins (``--games``: this bench's records).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Iterable
from multiprocessing import Pool
from pathlib import Path

from spidercli.game.codes import Setup, parse_code
from spidercli.solver.fair import DEFAULT_BUDGET, WORTHS, FairBudget, grade, play
from spidercli.solver.grades import bucket_of
from spidercli.text.words import GRADES

# The budgets of the curve (4 suits, where the shipped worth, ``auto``, is ``levels``): samples,
# beam width, depth, from one sample one move deep (a greedy player) to twice the shipped
# budget's samples.
CURVE = ("1,1,1,levels", "2,3,8,levels", "4,5,15,levels", "8,5,15,levels", "16,5,15,levels")


def budget_text(budget: FairBudget) -> str:
    text = f"{budget.samples},{budget.width},{budget.depth}"
    text += f",{budget.first},{budget.keep}" if budget.first else ""
    return text + ("" if budget.worth == "auto" else f",{budget.worth}")


def parse_budget(text: str) -> FairBudget:
    """``SAMPLES,WIDTH,DEPTH[,FIRST,KEEP][,WORTH]`` (see ``FairBudget``)."""
    parts = text.split(",")
    worth = parts.pop() if parts and parts[-1] in WORTHS else "auto"
    try:
        numbers = [int(x) for x in parts]
        if len(numbers) not in (3, 5):
            raise ValueError
        first, keep = numbers[3:] or (0, 3)
        return FairBudget(numbers[0], numbers[1], numbers[2], first, keep, worth)
    except ValueError:
        raise SystemExit(
            f"bench_fair: --budget {text!r}: expected SAMPLES,WIDTH,DEPTH[,FIRST,KEEP][,WORTH]"
        ) from None


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate ``wins / n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _init(niceness: int) -> None:
    if niceness:
        os.nice(niceness)


def play_one(task: tuple[str, str]) -> dict[str, object]:
    code, budget = task
    start = time.process_time()
    game = play(Setup.from_code(parse_code(code)), budget=parse_budget(budget))
    return {
        "game": code,
        "budget": budget,
        "won": game.won,
        "moves": game.moves,
        "actions": len(game.actions),
        "result": game.result,
        "cpu": round(time.process_time() - start, 3),
        "slowest": round(game.slowest, 4),
    }


def read_records(path: Path) -> list[dict[str, object]]:
    """The records of ``path``, the first of each game (and budget) only."""
    if not path.exists():
        return []
    out = []
    met = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            try:
                record = json.loads(line)
            except json.JSONDecodeError:  # a line cut short by a stop: played again
                continue
            key = (record.get("game"), record.get("budget"))
            if key not in met:
                met.add(key)
                out.append(record)
    return out


def deal_range(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def report(records: Iterable[dict[str, object]], wanted: set[tuple[str, str]] | None) -> None:
    rows: dict[tuple[int, str], list[dict[str, object]]] = {}
    for r in records:
        if wanted is not None and (str(r["game"]), str(r["budget"])) not in wanted:
            continue
        suits = int(str(r["game"])[2])
        rows.setdefault((suits, str(r["budget"])), []).append(r)
    print(
        "suits  budget              games   won   win rate  95 % interval    CPU/game  CPU/move"
        "  slowest move"
    )
    for (suits, budget), rs in sorted(rows.items()):
        n = len(rs)
        won = sum(bool(r["won"]) for r in rs)
        lo, hi = wilson(won, n)
        cpu = sum(float(str(r["cpu"])) for r in rs)
        actions = sum(int(str(r["actions"])) for r in rs)
        slowest = max(float(str(r.get("slowest", 0))) for r in rs)
        print(
            f"{suits:>5}  {budget:<18} {n:>6} {won:>5}   {100 * won / n:6.1f} %"
            f"  {100 * lo:5.1f}-{100 * hi:5.1f} %   {cpu / n:7.2f} s"
            f"  {1000 * cpu / max(actions, 1):6.1f} ms  {1000 * slowest:8.0f} ms"
        )


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rank correlation (ties share their mean rank)."""

    def ranks(vs: list[float]) -> list[float]:
        order = sorted(range(len(vs)), key=vs.__getitem__)
        out = [0.0] * len(vs)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and vs[order[j + 1]] == vs[order[i]]:
                j += 1
            for k in range(i, j + 1):
                out[order[k]] = (i + j) / 2
            i = j + 1
        return out

    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return cov / math.sqrt(vx * vy) if vx and vy else float("nan")


def grade_one(code: str) -> dict[str, object]:
    start = time.process_time()
    found = grade(code)
    return {"game": code, **found.to_json(), "cpu": round(time.process_time() - start, 3)}


def grades(args: argparse.Namespace) -> None:
    """Grade PS4-1..N (resumable records in ``--out``), then relate the grades to the solver's
    line length and ``states_to_win`` (from ``--sweep``, a ``spidercli sweep`` JSONL of the same
    deals) and to the fair player's wins at the shipped budget (from ``--games``, this bench's
    records, when present)."""
    codes = [f"PS4-{n}" for n in deal_range(args.deals)]
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = {str(r["game"]) for r in read_records(out)}
    todo = [c for c in codes if c not in done]
    if todo:
        with (
            out.open("a", encoding="utf-8") as sink,
            Pool(args.jobs, initializer=_init, initargs=(args.nice,)) as pool,
        ):
            for record in pool.imap_unordered(grade_one, todo):
                sink.write(json.dumps(record) + "\n")
                sink.flush()
    graded = {str(r["game"]): r for r in read_records(out) if str(r["game"]) in set(codes)}
    for r in graded.values():  # the bucket by today's thresholds
        if "wins" in r:  # today's records: wins of playouts (an earlier run's: the rate)
            r["rate"] = int(str(r["wins"])) / int(str(r["playouts"]))
        r["bucket"] = bucket_of(float(str(r["rate"])))
    sweep = {str(r["game"]): r for r in read_records(Path(args.sweep))} if args.sweep else {}
    won = [c for c in codes if c in graded and sweep.get(c, {}).get("result") == "won"]
    cpu = [float(str(graded[c]["cpu"])) for c in graded]
    print(f"deals graded: {len(graded)}, CPU a deal: {sum(cpu) / max(len(cpu), 1):.1f} s")
    rates = sorted(float(str(r["rate"])) for r in graded.values())
    counts = {b: sum(r["bucket"] == b for r in graded.values()) for b in GRADES}
    print("rates: " + ", ".join(f"{x:g}: {rates.count(x)}" for x in sorted(set(rates))))
    print("buckets: " + ", ".join(f"{b} {counts[b]}" for b in GRADES))
    if won:
        rate = [float(str(graded[c]["rate"])) for c in won]
        moves = [float(str(sweep[c]["moves"])) for c in won]
        states = [float(str(sweep[c]["states_to_win"])) for c in won]
        print(f"winnable deals with a solver line: {len(won)}")
        print(f"Spearman rho, grade's win rate and the line's length: {spearman(rate, moves):+.2f}")
        print(
            f"Spearman rho, states_to_win and the line's length:   {spearman(states, moves):+.2f}"
        )
        print(f"Spearman rho, grade's win rate and states_to_win:    {spearman(rate, states):+.2f}")
        for b in GRADES:
            ms = sorted(moves[i] for i, c in enumerate(won) if graded[c]["bucket"] == b)
            if ms:
                print(f"  {b}: {len(ms)} deals, median line {ms[len(ms) // 2]:g} moves")
    games = read_records(Path(args.games)) if args.games else []
    shipped = budget_text(DEFAULT_BUDGET)
    play_won = {str(r["game"]): bool(r["won"]) for r in games if r["budget"] == shipped}
    for b in GRADES:
        cs = [c for c in graded if graded[c]["bucket"] == b and c in play_won]
        if cs:
            w = sum(play_won[c] for c in cs)
            lo, hi = wilson(w, len(cs))
            print(
                f"  {b}: the shipped player won {w} of {len(cs)} "
                f"({100 * w / len(cs):.0f} %, {100 * lo:.0f}-{100 * hi:.0f} %)"
            )


def hint_cost() -> None:
    """The CPU of a hint at the shipped budget on the first six moves of four deals (1, 2 and 4
    suits): the mean and the most, with the pass in use (``SPIDERCLI_PURE_PYTHON=1``: Python)."""
    from spidercli.game.engine import Game
    from spidercli.game.rules import CLASSIC
    from spidercli.solver.fair import fair_hint
    from spidercli.solver.fair_view import Sight, view_of
    from spidercli.solver.proof import solver_pass

    times = []
    for code in ("PS4-1", "PS4-2", "PS2-3", "PS1-4"):
        game = Game.from_setup(Setup.from_code(parse_code(code)), CLASSIC)
        sight = Sight(game)
        for _ in range(6):
            start = time.process_time()
            action = fair_hint(view_of(game, sight)).action
            times.append(time.process_time() - start)
            if action is None:
                break
            game.play(action)
            sight.saw(game)
    mean = sum(times) / len(times)
    print(f"{solver_pass()}: {len(times)} hints, mean {mean:.3f} s, most {max(times):.3f} s")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--suits", type=int, nargs="*", default=[1, 2, 4])
    parser.add_argument("--deals", default="1-1000")
    parser.add_argument("--budget", default=budget_text(DEFAULT_BUDGET))
    parser.add_argument("--curve", action="store_true")
    parser.add_argument("--curve-deals", type=int, default=150)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--shard", default="1/1")
    parser.add_argument("--nice", type=int, default=10)
    parser.add_argument("--out", default="bench-fair/games.jsonl")
    parser.add_argument("--report", action="store_true")
    parser.add_argument("--grades", action="store_true", help="grade PS4 --deals instead")
    parser.add_argument("--sweep", default=None, help="a sweep JSONL of the graded deals")
    parser.add_argument("--games", default=None, help="this bench's records, for --grades")
    parser.add_argument("--hint-cost", action="store_true", help="time hints, play no game")
    args = parser.parse_args(argv)
    if args.hint_cost:
        hint_cost()
        return
    if args.grades:
        if args.out == parser.get_default("out"):
            args.out = "bench-fair/grades.jsonl"
        grades(args)
        return
    if args.curve:
        tasks = [(f"PS4-{n}", b) for b in CURVE for n in range(1, args.curve_deals + 1)]
    else:
        parse_budget(args.budget)
        tasks = [(f"PS{s}-{n}", args.budget) for s in args.suits for n in deal_range(args.deals)]
    k, _, n = args.shard.partition("/")
    part, parts = int(k), int(n)
    if not 1 <= part <= parts:
        raise SystemExit(f"bench_fair: --shard {args.shard!r}: expected K/N with 1 <= K <= N")
    tasks = tasks[part - 1 :: parts]
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = {(str(r["game"]), str(r["budget"])) for r in read_records(out)}
    todo = [t for t in tasks if t not in done]
    if not args.report and todo:
        print(
            f"bench_fair: {len(todo)} games to play, {len(tasks) - len(todo)} recorded",
            file=sys.stderr,
        )
        with (
            out.open("a", encoding="utf-8") as sink,
            Pool(args.jobs, initializer=_init, initargs=(args.nice,)) as pool,
        ):
            for i, record in enumerate(pool.imap_unordered(play_one, todo), 1):
                sink.write(json.dumps(record) + "\n")
                sink.flush()
                if i % 50 == 0:
                    print(f"bench_fair: {i}/{len(todo)}", file=sys.stderr, flush=True)
    report(read_records(out), set(tasks))
    if args.curve:
        print("(4 suits: the shipped worth, auto, is levels: the same games as --budget S,W,D)")


if __name__ == "__main__":
    main()
