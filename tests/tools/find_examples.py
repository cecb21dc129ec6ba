"""Find the worked examples: real deals whose solver line has exactly the wanted length.

    python -m tests.tools.find_examples

Goes through game codes in order (``...-AAAAAAA``, ``...-AAAAAAB``, ...), solves each under
classic rules with ``spidercli.solver.lines.solve_setup`` (the same search and shortening as
``spidercli solve``), and writes the first deal whose win takes exactly the target number of
moves. Nothing is padded: the log is the solver's line, as ``spidercli solve`` prints it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from spidercli.game.codes import Setup, parse_code, seed_letters
from spidercli.game.rules import CLASSIC
from spidercli.logs.writer import format_log
from spidercli.solver.lines import solve_setup

ROOT = Path(__file__).resolve().parents[2]

# (file, code prefix, moves wanted or None for the first win, first seed, seeds to try)
TARGETS = [
    ("example-spider-1suit-117.yaml", "SP1-S1C", 117, 0, 3000),
    ("example-spiderette-53.yaml", "SD1-S1", 53, 0, 3000),
    ("example-spider-2suit.yaml", "SP2-S1C", None, 0, 50),
    ("example-spider-4suit.yaml", "SP4-S1C", None, 0, 50),
]


def find(prefix: str, moves: int | None, first: int, count: int) -> tuple[str, str] | None:
    for seed in range(first, first + count):
        code = parse_code(f"{prefix}-{seed_letters(seed)}")
        solved = solve_setup(Setup.from_code(code), CLASSIC, timeout=30)
        if solved.actions is None:
            continue
        g = solved.game
        print(f"{code.canonical}: {g.moves} moves", file=sys.stderr)
        if moves is None or g.moves == moves:
            text = format_log(
                code.canonical,
                [str(a) for a in solved.actions],
                rules="classic",
                expect={"result": "won", "moves": g.moves, "score": g.score, "runs": g.runs},
                comment=(
                    f"A worked example: {code.canonical} won in {g.moves} moves, score "
                    f"{g.score}.\nFound by tests/tools/find_examples.py (spidercli solve's search)."
                ),
            )
            return code.canonical, text
    return None


def main() -> None:
    wanted = sys.argv[1:]
    for name, prefix, moves, first, count in TARGETS:
        if wanted and name not in wanted:
            continue
        found = find(prefix, moves, first, count)
        if found is None:
            print(f"{name}: none found", file=sys.stderr)
            continue
        (ROOT / "fixtures" / name).write_text(found[1])
        print(f"{name}: {found[0]}", file=sys.stderr)


if __name__ == "__main__":
    main()
