"""Cards as small integers, and their text forms.

A card is ``suit << 4 | rank``: rank 1 (Ace) to 13 (King), suit 0..3 for spades, hearts, diamonds,
clubs. Two facts make the engine's checks cheap: ``card & 15`` is the rank, ``card >> 4`` the suit,
and in a one-suit descending run each card is exactly the one before it minus 1.
"""

from __future__ import annotations

from collections.abc import Mapping

from spidercli.text.messages import N_, ascii_note, quoted

RANKS = "A23456789TJQK"
SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"

ACE = 1
KING = 13


def make_card(rank: int, suit: int) -> int:
    """The card of this rank (1-13) and suit index (0-3)."""
    return suit << 4 | rank


def rank_of(card: int) -> int:
    return card & 15


def suit_of(card: int) -> int:
    return card >> 4


_NAMES: dict[int, str] = {
    make_card(r, s): RANKS[r - 1] + SUITS[s] for s in range(4) for r in range(1, 14)
}
_BY_NAME: dict[str, int] = {name: card for card, name in _NAMES.items()}
_BY_NAME.update({"10" + SUITS[s]: make_card(10, s) for s in range(4)})
SPELLINGS: Mapping[str, int] = _BY_NAME  # each card's usual spellings (TS, 10S) to the card


def card_str(card: int) -> str:
    """``TS`` for the ten of spades."""
    return _NAMES[card]


def card_unicode(card: int) -> str:
    """``T♠`` for the ten of spades."""
    return RANKS[rank_of(card) - 1] + SUIT_SYMBOLS[suit_of(card)]


def parse_card(text: str) -> int:
    """Parse ``TS``, ``10s``, ``qh``...; raise ``ValueError`` for anything else (ASCII only:
    ``str.upper`` would turn some other letters into ASCII ones)."""
    card = _BY_NAME.get(text.strip(" \t").upper()) if text.isascii() else None
    if card is None:
        raise ValueError(
            N_(
                "{card} is not a card{note}: expected a rank (A 2-9 T J Q K, or 10) and a suit "
                "(S H D C)",
                card=quoted(text),
                note=ascii_note(text),
            )
        )
    return card


def cards_str(cards: list[int] | tuple[int, ...]) -> str:
    """Cards separated by blanks: ``9S 8S 7H``."""
    return " ".join(_NAMES[c] for c in cards)
