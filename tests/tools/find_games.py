"""Find real games for the fixtures: a small depth-first search over legal actions.

Not the product's solver (that is ``spidercli solve``, a later issue): a plain DFS with a visited
set and a few obvious prunings, enough to win easy deals and to produce honest long games. Usage:

    python -m tests.tools.find_games SP1-S1C-AAAAAAD [node limit]

prints a YAML move log (with its ``expect`` block) for the best game found.
"""

from __future__ import annotations

import sys

from spidercli.game.codes import parse_code
from spidercli.game.engine import Game
from spidercli.game.rules import CLASSIC
from spidercli.play.replay import state_json


def _ordered(game: Game) -> list[tuple[int, int, int]]:
    scored = []
    for s, t, k in game.legal_moves():
        col = game.cols[s]
        m = game.movable_length(s)
        dst = game.cols[t]
        joins = bool(dst) and dst[-1] == col[-k] + 1
        if k < m and not joins:
            continue  # splitting a movable group only pays when it joins the same suit
        reveals = len(col) - k == game.down[s] and game.down[s] > 0
        empties = len(col) == k
        if not dst and (empties or (len(col) - k == game.down[s] and game.down[s] == 0)):
            continue  # a whole column to an empty one: nothing gained
        if not dst and not reveals:
            continue
        below_joins = len(col) > k and col[-k - 1] == col[-k] + 1 and game.down[s] < len(col) - k
        if below_joins and not joins:
            continue  # breaking a one-suit sequence to land on another suit
        score = 100 * reveals + 40 * empties + 20 * joins + k - 50 * (not dst)
        scored.append((-score, s, t, k))
    scored.sort()
    return [(s, t, k) for _, s, t, k in scored]


def search(code_text: str, limit: int = 200_000) -> tuple[list[str], Game]:
    code = parse_code(code_text)
    game = Game.from_code(code, CLASSIC)
    seen: set[object] = set()
    path: list[str] = []
    best: list[str] = []
    best_key = (-1, 0)
    nodes = 0

    def key() -> object:
        return (tuple(map(tuple, game.cols)), tuple(game.down), game.deals_done)

    def dfs() -> bool:
        nonlocal nodes, best, best_key
        nodes += 1
        if game.over == "won":
            best = list(path)
            return True
        hidden = sum(game.down)
        progress = (game.runs, -hidden)
        if progress > best_key:
            best_key, best = progress, list(path)
        if nodes > limit:
            return False
        k0 = key()
        if k0 in seen:
            return False
        seen.add(k0)
        for s, t, k in _ordered(game):
            game.move(s, t, k)
            path.append(f"{s + 1}>{t + 1}:{k}" if k > 1 else f"{s + 1}>{t + 1}")
            if dfs():
                return True
            path.pop()
            game.undo()
        if game.check_deal() is None:
            game.deal()
            path.append("deal")
            if dfs():
                return True
            path.pop()
            game.undo()
        return False

    sys.setrecursionlimit(100_000)
    dfs()
    final = Game.from_code(code, CLASSIC)
    from spidercli.game.actions import parse_action

    for text in best:
        final.apply(parse_action(text))
    return best, final


def main() -> None:
    code = sys.argv[1]
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 200_000
    moves, game = search(code, limit)
    print(f"game: {parse_code(code).canonical}")
    print("expect:")
    print(f"  result: {game.result}")
    print(f"  moves: {game.moves}")
    print(f"  score: {game.score}")
    print(f"  runs: {game.runs}")
    print("moves:")
    for m in moves:
        print(f"  - {m!r}" if ":" in m else f"  - {m}")
    print(f"# state: {state_json(game)['removed']}", file=sys.stderr)


if __name__ == "__main__":
    main()
