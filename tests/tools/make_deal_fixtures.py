"""Write the explicit-deal fixtures (``deal:`` instead of ``game:``), good and broken.

- ``fixtures/seed000-spiderette-board.yaml``: the 4-suit Spiderette board seed 000 describes
  (its seven face-up cards; the hidden cards and the stock are ours, a fixed shuffle of the rest);
- ``fixtures/seed001-spider-board.yaml``: the 4-suit Spider board seed 001 describes;
- ``fixtures/spiderette-1suit-win-explicit.yaml``: SD1-S1-AAAAABD written out card by card, with
  the won game's moves (its ``deal_id`` must equal the code's);
- ``fixtures/bad/deal-*.yaml``: broken explicit deals, each refused with the card and the line.

    python -m tests.tools.make_deal_fixtures
"""

from __future__ import annotations

import random
from pathlib import Path

from spidercli.game.cards import parse_card
from spidercli.game.codes import Layout, Setup, ordered_deck
from spidercli.game.rules import SPIDER, SPIDERETTE, GameKind
from spidercli.logs.reader import load_log
from spidercli.logs.writer import deal_lines

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"

SEED_000_UP = "4C AC TH QD 3H AS 5H"  # seed 000: columns 1-7, 0..6 face-down under each
SEED_001_UP = "TS AD KH JS 3S 8D AS KH 2H 9S"  # seed 001: 5,5,5,5,4,4,4,4,4,4 face-down


UNPLAYED = ["expect:", "  result: open", "  moves: 0", "  score: 500", "  runs: 0", "moves: []"]


def layout_with(game: GameKind, up_text: str, seed: int) -> Layout:
    """The board whose face-up cards are ``up_text``; the other cards in a fixed shuffle."""
    rest = ordered_deck(game, 4)
    up = [parse_card(t) for t in up_text.split()]
    for card in up:
        rest.remove(card)
    random.Random(seed).shuffle(rest)
    columns = []
    for size, top in zip(game.column_sizes, up, strict=True):
        columns.append((*rest[: size - 1], top))
        del rest[: size - 1]
    return Layout(game, tuple(columns), tuple(rest))


def deal_yaml(layout: Layout, rule: str | None = None) -> list[str]:
    lines = deal_lines(Setup(layout, 4, rule == "permissive"))
    if rule is None:  # the default move rule is left out
        lines = [line for line in lines if not line.startswith("  rule:")]
    return lines


def write(name: str, lines: list[str]) -> None:
    (FIXTURES / name).write_text("\n".join(lines) + "\n")


def main() -> None:
    seed000 = layout_with(SPIDERETTE, SEED_000_UP, 0)
    write(
        "seed000-spiderette-board.yaml",
        [
            "# The starting board seed 000 (Spiderette, 4 suits) describes; hidden cards are ours.",
            *deal_yaml(seed000),
            *UNPLAYED,
        ],
    )
    seed001 = layout_with(SPIDER, SEED_001_UP, 1)
    write(
        "seed001-spider-board.yaml",
        [
            "# The starting board seed 001 (Spider, 4 suits) describes; hidden cards are ours.",
            *deal_yaml(seed001, "classic"),
            *UNPLAYED,
        ],
    )

    won = load_log(FIXTURES / "spiderette-1suit-win.yaml")
    text = (FIXTURES / "spiderette-1suit-win.yaml").read_text().splitlines()
    body = text[text.index("expect:") :]
    write(
        "spiderette-1suit-win-explicit.yaml",
        [
            f"# {won.deal.name} written out card by card: the same deal, the same deal_id.",
            *deal_yaml(won.deal.layout),
            *body,
        ],
    )

    base = [*deal_yaml(seed000), "moves: []"]
    broken = {
        # the 4 of clubs again, for the 3 of diamonds in the last deal: one deck has one of each
        "deal-duplicate-card.yaml": [line.replace("4S 5D 3D", "4S 5D 4C") for line in base],
        "deal-column-size.yaml": [line.replace("[4C]", "[4C, 5C]") for line in base],
        "deal-bad-card.yaml": [line.replace("[4C]", "[4X]") for line in base],
        "deal-and-game.yaml": ["game: SD4-S1-AAAAAAA", *base],
        "deal-unknown-game.yaml": [
            line.replace("game: spiderette", "game: klondike") for line in base
        ],
        "deal-wrong-suit.yaml": [*base[:2], "  suits: 2", *base[2:]],
    }
    for name, lines in broken.items():
        (FIXTURES / "bad" / name).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
