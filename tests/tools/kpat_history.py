"""Write a KPat save (the <kpat-game> XML) holding the first N actions of a kpat log, for KPat to
load and its demo to finish: how the `*-win-less-one.xml` fixtures were started (docs/kpat.md).

    python -m tests.tools.kpat_history LOG N OUT.kpat

The log must name a KP code. Each action becomes one <state> listing the cards whose pile,
position or face changed, as KPat's own takeState() records them (a completed run goes to the
next legs pile in the same state; game-specific-state is runs * 10 + deals).
"""

from __future__ import annotations

import sys
from pathlib import Path

from spidercli.game.actions import Deal, Move
from spidercli.game.engine import Game
from spidercli.game.kpatdeal import card_of_id, kpat_deal_ids
from spidercli.game.rules import KPAT
from spidercli.logs.reader import load_log
from spidercli.play.logtypes import MoveLog
from tests.kpat_saves import card_xml, fresh_state

Where = dict[int, tuple[str, int, bool]]


def _where(
    cols: list[list[int]], down: list[int], piles: list[list[int]], legs: list[list[int]]
) -> Where:
    out: Where = {}
    for c, col in enumerate(cols):
        for i, cid in enumerate(col):
            out[cid] = (f"stack{c}", i, i >= down[c])
    for p, pile in enumerate(piles):
        for i, cid in enumerate(pile):
            out[cid] = (f"redeals{p}", i, False)
    for g, leg in enumerate(legs):
        for i, cid in enumerate(leg):
            out[cid] = (f"legs{g}", i, True)
    return out


def history(log_path: str, count: int) -> str:
    return history_of(load_log(log_path), count)


def history_of(log: MoveLog, count: int) -> str:
    """The save of ``log``'s deal with its first ``count`` actions (moves with counts, deals)."""
    code = log.deal.code
    assert code is not None and code.algorithm == "KP", "the log must name a KP code"
    number, suits = code.seed, code.suits
    cols, deal_piles = kpat_deal_ids(number, suits)
    piles = [list(reversed(p)) for p in deal_piles]  # bottom to top, as the save holds them
    legs: list[list[int]] = []
    game = Game.from_setup(log.deal, KPAT)
    before = _where(cols, list(game.down), piles, legs)
    states = [fresh_state(number, suits, current=False)]
    for entry in log.entries[:count]:
        action = entry.action
        game.apply(action)
        if isinstance(action, Deal):
            pile = piles[game.deals_done - 1]
            for c in range(10):
                cols[c].append(pile.pop())
        else:
            assert isinstance(action, Move) and action.count is not None
            s, t, k = action.source - 1, action.target - 1, action.count
            cols[t].extend(cols[s][-k:])
            del cols[s][-k:]
        for c in range(10):  # runs the engine removed, in the engine's order
            while len(cols[c]) > len(game.cols[c]):
                legs.append(cols[c][-13:])
                del cols[c][-13:]
        assert [[card_of_id(i) for i in col] for col in cols] == game.cols
        after = _where(cols, list(game.down), piles, legs)
        changed = sorted(
            (name, pos, cid, up)
            for cid, (name, pos, up) in after.items()
            if before[cid] != (name, pos, up)
        )
        parts = []
        for name, pos, cid, up in changed:
            turn = "face-up" if up else "face-down"
            text = card_xml(cid, turn if before[cid][2] != up else None)
            parts.append(f'<move pile="{name}" position="{pos}">{text}</move>')
        mark = ' current="true"' if entry is log.entries[count - 1] else ""  # the last one
        states.append(
            f'<state game-specific-state="{len(legs) * 10 + game.deals_done}"{mark}>'
            + "".join(parts)
            + "</state>"
        )
        before = after
    head = f'<kpat-game game-type="spider" game-type-options="{suits}" deal-number="{number}">'
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        + head
        + "\n"
        + "\n".join(states)
        + "\n</kpat-game>\n"
    )


if __name__ == "__main__":
    Path(sys.argv[3]).write_text(history(sys.argv[1], int(sys.argv[2])))
