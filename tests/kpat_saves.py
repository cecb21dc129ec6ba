"""KPat saves for the tests: an independent reading of the real fixtures, and hand-made saves."""

from __future__ import annotations

import xml.etree.ElementTree as ET  # the fixtures are trusted files written by KPat
from pathlib import Path

from spidercli.game.cards import make_card
from spidercli.game.kpatdeal import kpat_deal_ids

ROOT = Path(__file__).resolve().parents[1]
KPAT_FIXTURES = ROOT / "fixtures" / "kpat"

_SUITS = {"spades": 0, "hearts": 1, "diamonds": 2, "clubs": 3}
_RANK_NAMES = (
    "ace",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
)
_RANKS = {name: i for i, name in enumerate(_RANK_NAMES, start=1)}
_KPAT_SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")
_RANK_WORDS = {v: k for k, v in _RANKS.items()}

Board = tuple[list[list[tuple[int, bool]]], int, int]  # columns (card, face up), stock, runs


def replay_states(path: Path) -> tuple[list[Board], int]:
    """Every state of a save as (columns, cards left in the stock, cards in completed runs), read
    with the standard library from the suit and rank words, and the index of the current one."""
    root = ET.parse(path).getroot()
    where: dict[str, tuple[str, int, bool, int]] = {}
    boards: list[Board] = []
    current = None
    for i, state in enumerate(root.iter("state")):
        if state.get("current") == "true" and current is None:
            current = i
        for move in state.iter("move"):
            pile = move.get("pile", "")
            for j, card in enumerate(move.iter("card")):
                cid = card.get("id", "")
                turn = card.get("turn")
                up = (turn == "face-up") if turn else where[cid][2]
                value = make_card(_RANKS[card.get("rank", "")], _SUITS[card.get("suit", "")])
                where[cid] = (pile, int(move.get("position", "")) + j, up, value)
        piles: dict[str, list[tuple[int, int, bool]]] = {}
        for pile, pos, up, value in where.values():
            piles.setdefault(pile, []).append((pos, value, up))
        cols = [[(v, up) for _, v, up in sorted(piles.get(f"stack{c}", []))] for c in range(10)]
        stock = sum(len(piles.get(f"redeals{p}", [])) for p in range(5))
        runs = sum(len(piles.get(f"legs{p}", [])) for p in range(8))
        boards.append((cols, stock, runs))
    return boards, len(boards) - 1 if current is None else current


def card_xml(card_id: int, turn: str | None = None) -> str:
    suit = _KPAT_SUIT_WORDS[(card_id >> 8) & 0xFF]
    rank = _RANK_WORDS[card_id & 0xFF]
    tail = f' turn="{turn}"' if turn else ""
    return f'<card id="{card_id:07d}" suit="{suit}" rank="{rank}"{tail}/>'


def fresh_state(number: int, suits: int, *, face_up: bool = False, current: bool = True) -> str:
    """The first <state> KPat writes for its deal ``number``."""
    columns, piles = kpat_deal_ids(number, suits)
    parts = ['<state game-specific-state="0"' + (' current="true">' if current else ">")]
    for p, pile in enumerate(piles):
        cards = "".join(card_xml(c, "face-down") for c in reversed(pile))  # KPat deals the top
        parts.append(f'<move pile="redeals{p}" position="0">{cards}</move>')
    for c, col in enumerate(columns):
        turns = [
            "face-up" if face_up or i == len(col) - 1 else "face-down" for i in range(len(col))
        ]
        cards = "".join(card_xml(card, t) for card, t in zip(col, turns, strict=True))
        parts.append(f'<move pile="stack{c}" position="0">{cards}</move>')
    parts.append("</state>")
    return "\n".join(parts)


def save_xml(
    number: int = 17,
    suits: int = 2,
    *,
    states: str = "",
    header: str | None = None,
    face_up: bool = False,
) -> str:
    """A KPat save of deal ``number``: its first state, then ``states`` as written (the first
    state is the current one when there are no others)."""
    head = header or (
        f'<kpat-game game-type="spider" game-type-options="{suits}" deal-number="{number}">'
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f"{head}\n{fresh_state(number, suits, face_up=face_up, current=not states)}\n"
        f"{states}\n</kpat-game>\n"
    )
